import type { Limits } from '../../domain/index.js';

export const CoreSettings = Symbol('CoreSettings');
/** The configuration the core needs; the composition root fills it from the environment. */
export interface CoreSettings {
  defaultLimits: Limits;
  /** A session ends this long after its last use (idle expiry)... */
  sessionTtlMs: number;
  /** ...and at the latest this long after its login. */
  sessionMaxMs: number;
  maxUploadBytes: number;
  registration: 'open' | 'closed';
  /** Uploads one user (all their tokens together) may run at once; more answer rate_limited. */
  maxConcurrentUploads: number;
  /** A resumable upload that receives no bytes for this long expires, and gives back what it held. */
  resumableIdleMs: number;
}
