import { mkdir } from 'node:fs/promises';

/** Where the embedded database's mongod binary would come from. */
export type MongodSource = 'system' | 'cached' | 'download';

export interface EmbeddedMongod {
  uri: string;
  /** Stops mongod and keeps its data directory. */
  stop(): Promise<void>;
}

const DEFAULT_MIRROR = 'https://fastdl.mongodb.org';

/** mongodb-memory-server is loaded only when wanted, and its absence (a production install) just means "no binary". */
async function load(): Promise<typeof import('mongodb-memory-server') | null> {
  try {
    return await import('mongodb-memory-server');
  } catch {
    return null;
  }
}

/** mongodb-memory-server's own switch: with MONGOMS_RUNTIME_DOWNLOAD off it never downloads. */
function downloadAllowed(env: NodeJS.ProcessEnv): boolean {
  const value = env.MONGOMS_RUNTIME_DOWNLOAD?.trim().toLowerCase();
  return value === undefined || value === '' || ['1', 'on', 'yes', 'true'].includes(value);
}

/** Any HTTP answer from the download host counts: the point is to tell "offline" apart quickly. */
async function reachable(url: string, timeoutMs: number): Promise<boolean> {
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Says where a mongod binary would come from without fetching one: MONGOMS_SYSTEM_BINARY, the binary cache, or a
 * download host that answers within `timeoutMs`. Null when none of them can provide one.
 */
export async function probeMongod(timeoutMs = 3000, env = process.env): Promise<MongodSource | null> {
  const mms = await load();
  if (!mms) return null;
  try {
    const found = await mms.DryMongoBinary.locateBinary(await mms.DryMongoBinary.generateOptions());
    if (found) return env.MONGOMS_SYSTEM_BINARY ? 'system' : 'cached';
  } catch {
    // A MONGOMS_* setting it cannot use: a system binary that is not there, a download URL it cannot parse.
    return null;
  }
  if (!downloadAllowed(env)) return null;
  const url = env.MONGOMS_DOWNLOAD_URL || env.MONGOMS_DOWNLOAD_MIRROR || DEFAULT_MIRROR;
  return (await reachable(url, timeoutMs)) ? 'download' : null;
}

/** Finds the binary, downloading it into the cache when that is what the probe found. */
export async function obtainMongod(): Promise<string> {
  const mms = await load();
  if (!mms) throw new Error('mongodb-memory-server is not installed');
  return mms.MongoBinary.getPath();
}

/**
 * Starts a mongod on 127.0.0.1 (a free port) with its data under `dbPath`, on WiredTiger so the data survives a
 * restart. Call obtainMongod first: this step then only starts the process.
 */
export async function startEmbeddedMongod(dbPath: string): Promise<EmbeddedMongod> {
  const mms = await load();
  if (!mms) throw new Error('mongodb-memory-server is not installed');
  await mkdir(dbPath, { recursive: true });
  const server = await mms.MongoMemoryServer.create({
    instance: { dbPath, storageEngine: 'wiredTiger', ip: '127.0.0.1' },
  });
  return {
    uri: server.getUri(),
    stop: async () => {
      await server.stop({ doCleanup: false });
    },
  };
}
