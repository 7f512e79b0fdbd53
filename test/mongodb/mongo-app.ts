import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Container } from 'inversify';
import { Core } from '../../src/application/index.js';
import { buildContainer, connectPersistence, type Persistence } from '../../src/boot/composition.js';
import type { ConnectOptions } from '../../src/adapters/mongodb/index.js';
import { loadConfig, type Config, type Env } from '../../src/boot/config.js';
import { LeaseKeeper } from '../../src/boot/instance-lease.js';
import { createLogger } from '../../src/boot/logger.js';

export const CHEAP_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
export const ADMIN = { username: 'root', password: 'root-password-long' };

export const freshDbName = () => `coffer_test_${randomBytes(6).toString('hex')}`;

/** The service's configuration for a test database: what the environment would say, plus a port of 0. */
export function mongoConfig(uri: string, dbName: string, env: Env = {}): Config {
  const config = loadConfig({
    MONGODB_URI: uri,
    MONGODB_DB: dbName,
    BLOB_STORE: 'gridfs',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    // As in makeCore: only tests about the bound on concurrent uploads meet it.
    MAX_CONCURRENT_UPLOADS: '64',
    ...env,
  });
  return { ...config, port: 0 };
}

export interface MongoInstance {
  core: Core;
  container: Container;
  persistence: Persistence;
  close(): Promise<void>;
}

/** One app instance as the service builds it: its own MongoClient, its own container, the shared database. */
export async function mongoInstance(config: Config, mongo?: ConnectOptions): Promise<MongoInstance> {
  const persistence = await connectPersistence(config, { logger: createLogger('silent'), mongo });
  const container = buildContainer(config, { persistence, argon2: CHEAP_ARGON2 });
  // As startCoffer does: another instance takes work that names an instance without a lease for a dead one's.
  const keeper = container.get(LeaseKeeper);
  await keeper.start();
  return {
    core: container.get<Core>(Core),
    container,
    persistence,
    close: async () => {
      await keeper.stop();
      await container.unbindAllAsync();
      await persistence.close();
    },
  };
}

/** Drops the databases a test file created, through a client of its own. */
export async function dropDatabases(uri: string, names: string[]): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    await Promise.all(names.map((name) => client.db(name).dropDatabase().catch(() => undefined)));
  } finally {
    await client.close();
  }
}
