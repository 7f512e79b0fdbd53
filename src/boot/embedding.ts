import type { Core } from '../application/index.js';
import { Core as CoreToken } from '../application/index.js';
import type { Limits } from '../domain/index.js';
import { buildContainer } from './composition.js';
import { loadConfig, type BlobStoreKind, type Config, type PersistenceKind } from './config.js';
import { connectPersistence, type BlobStoreChoice, type ConnectOptions } from './connect-persistence.js';
import { LeaseKeeper } from './instance-lease.js';
import { createLogger } from './logger.js';

/** What an embedded core uses; no port, host or proxy settings, as it serves nothing. Defaults follow the environment variables of the service. */
export interface EmbeddedCoreOptions {
  /** Where file bytes go with `blobStore: 'fs'`, and the embedded mongod's data (DATA_DIR, default ./data). */
  dataDir?: string;
  mongodbUri?: string;
  mongodbDb?: string;
  /** Forces a persistence, as PERSISTENCE does; unset, it is chosen as at start-up. */
  persistence?: PersistenceKind;
  /** With a MongoDB persistence: `fs` (default, under dataDir) or `gridfs`. Ignored on memory persistence. */
  blobStore?: BlobStoreKind;
  registration?: 'open' | 'closed';
  sessionTtlDays?: number;
  /** Unset: 365, or sessionTtlDays when longer (as SESSION_MAX_DAYS). A session never outlives it. */
  sessionMaxDays?: number;
  maxUploadBytes?: number;
  limits?: Partial<Limits>;
  /** Log level of the warnings the core's start writes (default `warn`). */
  logLevel?: string;
}

export interface OpenedCore {
  core: Core;
  persistence: PersistenceKind;
  /** Closes the MongoDB client (and stops an embedded mongod). */
  close(): Promise<void>;
}

/** The service's configuration for these options: every unset value defaults as its environment variable does. */
function configOf(options: EmbeddedCoreOptions): Config {
  const defaults = loadConfig({});
  const { limits, dataDir, mongodbUri, mongodbDb, persistence, blobStore, ...rest } = options;
  return {
    ...defaults,
    ...rest,
    dataDir: dataDir === undefined ? defaults.dataDir : loadConfig({ DATA_DIR: dataDir }).dataDir,
    mongodbUri: mongodbUri ?? null,
    mongodbDb: mongodbDb ?? null,
    persistence: persistence ?? null,
    blobStore: blobStore ?? defaults.blobStore,
    limits: { ...defaults.limits, ...limits },
    sessionMaxDays: rest.sessionMaxDays ?? Math.max(defaults.sessionMaxDays, rest.sessionTtlDays ?? 0),
  };
}

/**
 * Coffer's core without Koa or a server, everything in process memory (records and bytes alike, so nothing durable
 * sits beside something that is not), for hosts that embed it: a CLI, another web framework, tests.
 */
export function createEmbeddedCore(options: Omit<EmbeddedCoreOptions, 'persistence' | 'blobStore'> = {}): Core {
  const container = buildContainer(configOf({ ...options, persistence: 'memory' }), {
    blobStore: 'memory',
    logger: createLogger('silent'),
  });
  return container.get<Core>(CoreToken);
}

/**
 * The same core on the persistence the options choose, exactly as the service chooses it at start (mongodbUri,
 * persistence, an embedded mongod, or memory with a warning). File bytes go where that persistence keeps them as
 * durably as its records: the filesystem under dataDir or GridFS with a MongoDB, process memory with memory records.
 * Close it when done.
 */
export async function openEmbeddedCore(
  options: EmbeddedCoreOptions = {},
  connect: Pick<ConnectOptions, 'probe' | 'mongo'> = {},
): Promise<OpenedCore> {
  const config = configOf(options);
  // Warnings (the memory fallback) reach the host; the service's info lines do not, unless asked for.
  const logger = createLogger(options.logLevel ?? 'warn');
  const persistence = await connectPersistence(config, { ...connect, logger });
  const blobStore: BlobStoreChoice = persistence.kind === 'memory' ? 'memory' : config.blobStore;
  const container = buildContainer(config, { blobStore, logger, persistence });
  // Other instances on the same database must see this one alive, or they would undo its uploads under way.
  const keeper = container.get(LeaseKeeper);
  try {
    await keeper.start();
  } catch (err) {
    await persistence.close().catch(() => undefined);
    throw err;
  }
  return {
    core: container.get<Core>(CoreToken),
    persistence: persistence.kind,
    close: async () => {
      await keeper.stop();
      await container.unbindAllAsync();
      await persistence.close();
    },
  };
}
