import 'reflect-metadata';
import type { Core } from './application/index.js';
import { Core as CoreToken } from './application/index.js';
import { buildContainer, connectPersistence, type ConnectOptions } from './boot/composition.js';
import { loadConfig, type Config, type PersistenceKind } from './boot/config.js';
import { createLogger } from './boot/logger.js';

export type { Core } from './application/index.js';
export type { Actor } from './domain/index.js';

export interface EmbeddedCoreOptions extends Partial<Omit<Config, 'limits' | 'blobStore'>> {
  limits?: Partial<Config['limits']>;
  /** `memory` (default) keeps file bytes in the process; `fs` stores them under dataDir; `gridfs` in MongoDB. */
  blobStore?: 'memory' | 'fs' | 'gridfs';
}

export interface OpenedCore {
  core: Core;
  persistence: PersistenceKind;
  /** Closes the MongoDB client (and stops an embedded mongod). */
  close(): Promise<void>;
}

/** Options default as the environment variables of the service do. */
function configOf(options: EmbeddedCoreOptions): Config {
  const defaults = loadConfig({});
  const { blobStore, limits, ...rest } = options;
  const limitsOf = { ...defaults.limits, ...limits };
  return { ...defaults, ...rest, blobStore: blobStore === 'gridfs' ? 'gridfs' : 'fs', limits: limitsOf };
}

/**
 * Coffer's core without Koa or a server: every use case on the in-memory adapters, for hosts that embed it
 * (a CLI, another web framework, tests). Options default as the environment variables of the service do.
 */
export function createEmbeddedCore(options: EmbeddedCoreOptions = {}): Core {
  const container = buildContainer(configOf(options), {
    blobStore: options.blobStore ?? 'memory',
    logger: createLogger('silent'),
  });
  return container.get<Core>(CoreToken);
}

/**
 * The same core on the persistence the options choose, exactly as the service chooses it at start (mongodbUri,
 * persistence, an embedded mongod, or memory with a warning). Close it when done.
 */
export async function openEmbeddedCore(
  options: EmbeddedCoreOptions = {},
  connect: Pick<ConnectOptions, 'probe' | 'mongo'> = {},
): Promise<OpenedCore> {
  const config = configOf(options);
  // Warnings (the memory fallback) reach the host; the service's info lines do not, unless asked for.
  const logger = createLogger(options.logLevel ?? 'warn');
  const persistence = await connectPersistence(config, { ...connect, logger });
  const container = buildContainer(config, { blobStore: options.blobStore ?? 'memory', logger, persistence });
  return {
    core: container.get<Core>(CoreToken),
    persistence: persistence.kind,
    close: async () => {
      await container.unbindAll();
      await persistence.close();
    },
  };
}
