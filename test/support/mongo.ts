import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';

export interface MongoTarget {
  uri: string;
  /** Stops the server this helper started; a no-op for a server given by MONGODB_URI. */
  stop: () => Promise<void>;
}

export const MONGO_SKIP_MESSAGE =
  'MongoDB tests skipped: no server reachable (set MONGODB_URI or MONGOMS_SYSTEM_BINARY to run them)';

const START_TIMEOUT_MS = 20_000;

/**
 * A MongoDB to test against: MONGODB_URI when set (and then it must answer: a configured server that is down is a
 * failure, not a reason to skip), else a mongodb-memory-server, but only when its binary is already on this machine
 * (MONGOMS_SYSTEM_BINARY or its cache): a test run never starts a download. Null when there is none.
 */
export async function getMongoUri(): Promise<MongoTarget | null> {
  const configured = process.env.MONGODB_URI;
  if (configured) {
    await ping(configured);
    return { uri: configured, stop: async () => undefined };
  }
  return startMemoryServer();
}

async function ping(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } catch (err) {
    throw new Error(`MONGODB_URI is set but the server does not answer: ${(err as Error).message}`, { cause: err });
  } finally {
    await client.close();
  }
}

async function startMemoryServer(): Promise<MongoTarget | null> {
  try {
    const { DryMongoBinary, MongoMemoryServer } = await import('mongodb-memory-server');
    const binary = await DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions());
    if (!binary) return null;
    const starting = MongoMemoryServer.create();
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), START_TIMEOUT_MS).unref());
    const server = await Promise.race([starting, timeout]);
    if (!server) {
      // It may still come up after the deadline; it must not outlive the test run then.
      starting.then((late) => late.stop(), () => undefined);
      return null;
    }
    return { uri: server.getUri(), stop: async () => void (await server.stop()) };
  } catch {
    return null;
  }
}

/** A database of its own for one test (or one adapter instance), dropped by `dropAll`. */
export class TestDatabases {
  private readonly created: Db[] = [];

  constructor(private readonly client: MongoClient) {}

  fresh(): Db {
    const db = this.client.db(`coffer_test_${randomBytes(6).toString('hex')}`);
    this.created.push(db);
    return db;
  }

  async dropAll(): Promise<void> {
    await Promise.all(this.created.splice(0).map((db) => db.dropDatabase().catch(() => undefined)));
  }
}

/**
 * Inside a describe: connects to `target` before its tests and, after them, drops every database handed out, closes
 * the client and stops the server. Returns the source of fresh databases.
 */
export function useFreshDatabases(target: MongoTarget): { fresh(): Db } {
  let client: MongoClient | undefined;
  let databases: TestDatabases | undefined;
  beforeAll(async () => {
    client = await MongoClient.connect(target.uri);
    databases = new TestDatabases(client);
  });
  afterAll(async () => {
    await databases?.dropAll();
    await client?.close();
    await target.stop();
  });
  return {
    fresh: () => {
      if (!databases) throw new Error('useFreshDatabases: fresh() runs only inside tests');
      return databases.fresh();
    },
  };
}
