import { join } from 'node:path';
import type { Db } from 'mongodb';
import {
  connectMongo,
  ensureIndexes,
  obtainMongod,
  probeMongod,
  startEmbeddedMongod,
  type ConnectOptions as MongoConnectOptions,
} from '../adapters/mongodb/index.js';
import type { BlobStoreKind, Config, PersistenceKind } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { choosePersistence, whenMongodUnobtainable, type MongodProbe } from './persistence.js';

export type BlobStoreChoice = BlobStoreKind | 'memory';

/** The persistence the graph runs on: what /health names, the database if any, and how to let go of it. */
export const Persistence = Symbol('Persistence');
export interface Persistence {
  kind: PersistenceKind;
  /** The connected database; null for memory. */
  db: Db | null;
  /** Closes the client and stops an embedded mongod (keeping its data). Idempotent. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  logger?: Logger;
  /** Replaces the real mongod probe (tests). */
  probe?: MongodProbe;
  /** The bounded retry of the first connection, and the driver's server selection timeout afterwards. */
  mongo?: MongoConnectOptions;
}

export function memoryPersistence(): Persistence {
  return { kind: 'memory', db: null, close: async () => undefined };
}

/** Connects, creates the indexes, and hands back a handle whose close also runs `after` (stopping mongod). */
async function openMongo(
  kind: PersistenceKind,
  uri: string,
  config: Config,
  options: ConnectOptions,
  after: () => Promise<void>,
): Promise<Persistence> {
  const logger = options.logger;
  const { client, db } = await connectMongo(uri, config.mongodbDb ?? undefined, {
    onRetry: (attempt, of, reason) => logger?.warn({ attempt, of, reason }, 'MongoDB not reachable yet; retrying'),
    ...options.mongo,
  });
  try {
    await ensureIndexes(db);
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  let closing: Promise<void> | null = null;
  return { kind, db, close: () => (closing ??= client.close().finally(after)) };
}

/**
 * Chooses the persistence (see persistence.ts), logs its warning, and connects: start-up waits for MongoDB with a
 * bounded retry and fails with a message that names the host (never the password).
 */
export async function connectPersistence(config: Config, connect: ConnectOptions = {}): Promise<Persistence> {
  const logger = connect.logger ?? createLogger(config.logLevel);
  const options = { ...connect, logger };
  let choice = await choosePersistence(config, options.probe ?? (() => probeMongod()));
  if (choice.kind === 'embedded') {
    if (choice.mongod === 'download') logger.info('downloading a mongod binary for the embedded MongoDB (once)');
    try {
      await obtainMongod();
    } catch (err) {
      choice = whenMongodUnobtainable(config, choice, err);
    }
  }
  if (choice.warning) logger.warn(choice.warning);

  if (choice.kind === 'memory') return memoryPersistence();
  if (choice.kind === 'mongodb') {
    return openMongo('mongodb', config.mongodbUri!, config, options, async () => undefined);
  }
  const dbPath = join(config.dataDir, 'mongo');
  logger.info({ dbPath }, 'starting the embedded MongoDB');
  const mongod = await startEmbeddedMongod(dbPath).catch((err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`The embedded MongoDB did not start (data under ${dbPath}): ${reason}`, { cause: err });
  });
  try {
    return await openMongo('embedded', mongod.uri, config, options, mongod.stop);
  } catch (err) {
    await mongod.stop().catch(() => undefined);
    throw err;
  }
}
