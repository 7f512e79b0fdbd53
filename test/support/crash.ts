import type { Db } from 'mongodb';
import type { InstanceLeases, Ports } from '../../src/application/index.js';
import { makeCore, signUp, type TestCoreOptions } from './core.js';
import { instancesOn, passTime, type TestInstance } from './instances.js';
import {
  ensureIndexes,
  MongoCallers,
  MongoCollectionRepository,
  MongoFileRepository,
  MongoFolderRepository,
  MongoInstanceLeases,
  MongoPasteRepository,
  MongoRequestRepository,
  MongoShareRepository,
  MongoTokenRepository,
  MongoUploadSessionRepository,
  MongoUsageCounter,
  MongoUserRepository,
} from '../../src/adapters/mongodb/index.js';

/** A promise that never settles: the process "dies" there, so nothing after it (cleanup included) ever runs. */
export const dead = () => new Promise<never>(() => {});

/** Right after the `nth` call of a port method completed (its write reached the database), the process is gone. */
export interface Cut {
  port: keyof Ports;
  method: string;
  nth?: number;
}

/** The ports of an instance that dies once `cut` is reached; `reached` tells the test. */
export function dyingAt(ports: Ports, cut: Cut, reached: () => void): Ports {
  let calls = 0;
  const port = ports[cut.port] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const wrapped = Object.assign(Object.create(port) as object, {
    [cut.method]: async (...args: unknown[]) => {
      const result = await port[cut.method]!(...args);
      if (++calls < (cut.nth ?? 1)) return result;
      reached();
      return dead();
    },
  });
  return { ...ports, [cut.port]: wrapped };
}

export type RecordPorts = Pick<
  Ports,
  'usage' | 'files' | 'folders' | 'pastes' | 'shares' | 'collections' | 'tokens' | 'callers' | 'users' | 'requests' | 'uploads'
>;

/**
 * The records, counters and instance leases of crash tests in a fresh MongoDB database, as several processes over
 * one database see them; bytes stay in memory.
 */
export async function mongoRecords(db: Db): Promise<{ ports: RecordPorts; leases: InstanceLeases }> {
  await ensureIndexes(db);
  return {
    ports: {
      usage: new MongoUsageCounter(db),
      files: new MongoFileRepository(db),
      folders: new MongoFolderRepository(db),
      pastes: new MongoPasteRepository(db),
      shares: new MongoShareRepository(db),
      collections: new MongoCollectionRepository(db),
      tokens: new MongoTokenRepository(db),
      // Sessions are found where they are stored, with their users.
      callers: new MongoCallers(db),
      users: new MongoUserRepository(db),
      requests: new MongoRequestRepository(db),
      uploads: new MongoUploadSessionRepository(db),
    },
    leases: new MongoInstanceLeases(db),
  };
}

/**
 * The ports of an instance whose `nth` call of a port method stalls, before it reaches the database or right after,
 * until `resume` is called; `reached` resolves once it stalls. Other calls go through.
 */
export function stallingAt(ports: Ports, cut: Cut, when: 'before' | 'after'): { ports: Ports; reached: Promise<void>; resume: () => void } {
  let reach!: () => void;
  let resume!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  let calls = 0;
  const port = ports[cut.port] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const stall = async () => {
    reach();
    await resumed;
  };
  const wrapped = Object.assign(Object.create(port) as object, {
    [cut.method]: async (...args: unknown[]) => {
      if (++calls !== (cut.nth ?? 1)) return port[cut.method]!(...args);
      if (when === 'before') await stall();
      const result = await port[cut.method]!(...args);
      if (when === 'after') await stall();
      return result;
    },
  });
  return { ports: { ...ports, [cut.port]: wrapped }, reached, resume };
}

/** Where a crash test's records live: memory (the core's own) or a MongoDB database, with the instance leases. */
export type Backing = () => Promise<{ ports: Partial<Ports>; leases: InstanceLeases }>;

/**
 * Two instances of the core over one set of records (`backing`'s, the rest the test core's), alice signed up through
 * the second, and `pass`, which moves the shared clock with the running instances renewing their leases.
 */
export async function twoInstances(backing: Backing, options: TestCoreOptions = {}) {
  const made = makeCore(options);
  const backed = await backing();
  const ports: Ports = { ...made.ports, ...backed.ports };
  const [a, b] = (await instancesOn(ports, made.clock, 2, backed.leases)) as [TestInstance, TestInstance];
  const alice = await signUp({ core: b.core, ports }, 'alice');
  const pass = (ms: number, ...running: TestInstance[]) => passTime(made.clock, ms, ...running);
  return { ports, clock: made.clock, a, b, alice, pass };
}

