import 'reflect-metadata';
import type { Core } from './application/index.js';
import { Core as CoreToken } from './application/index.js';
import { buildContainer } from './composition.js';
import { loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';

export type { Core } from './application/index.js';
export type { Actor } from './domain/index.js';

export interface EmbeddedCoreOptions extends Partial<Omit<Config, 'limits'>> {
  limits?: Partial<Config['limits']>;
  /** `memory` (default) keeps file bytes in the process; `fs` stores them under dataDir. */
  blobStore?: 'memory' | 'fs';
}

/**
 * Coffer's core without Koa or a server: every use case on the in-memory adapters, for hosts that embed it
 * (a CLI, another web framework, tests). Options default as the environment variables of the service do.
 */
export function createEmbeddedCore(options: EmbeddedCoreOptions = {}): Core {
  const defaults = loadConfig({});
  const { blobStore = 'memory', limits, ...rest } = options;
  const config: Config = { ...defaults, ...rest, limits: { ...defaults.limits, ...limits } };
  const container = buildContainer(config, { blobStore, logger: createLogger('silent') });
  return container.get<Core>(CoreToken);
}
