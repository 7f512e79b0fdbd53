import type { Limits } from '../../domain/index.js';

export const CoreSettings = Symbol('CoreSettings');
/** The configuration the core needs; the composition root fills it from the environment. */
export interface CoreSettings {
  defaultLimits: Limits;
  sessionTtlMs: number;
  maxUploadBytes: number;
  registration: 'open' | 'closed';
}
