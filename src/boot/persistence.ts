import type { MongodSource } from '../adapters/mongodb/index.js';
import { ConfigError, type Config, type PersistenceKind } from './config.js';

/** Where a mongod binary for the embedded database would come from, or null when none can be had. */
export type MongodProbe = () => Promise<MongodSource | null>;

export interface PersistenceChoice {
  kind: PersistenceKind;
  /** One line for the start-up log when the choice loses data on restart. */
  warning?: string;
  /** For `embedded`: where its binary comes from. */
  mongod?: MongodSource;
  /** True when PERSISTENCE asked for this kind, so failing to provide it must stop start-up. */
  forced: boolean;
}

export type PersistenceSettings = Pick<Config, 'persistence' | 'mongodbUri' | 'blobStore' | 'production'>;

/** The probe may look at the network; start-up never waits on it longer than this. */
export const PROBE_TIMEOUT_MS = 4000;

export const MEMORY_FALLBACK_WARNING =
  'No MongoDB configured and no mongod binary available: data is kept in memory and NOTHING survives a restart; ' +
  'set MONGODB_URI (or MONGOMS_SYSTEM_BINARY to a mongod binary) to keep it';

export const MEMORY_FORCED_WARNING = 'PERSISTENCE=memory: data is kept in memory and nothing survives a restart';

/** The ways to get a database, as every message about memory persistence names them. */
const WAYS_TO_A_DATABASE: [string, string][] = [
  ['MONGODB_URI=mongodb://…', 'a MongoDB you run'],
  ['MONGOMS_SYSTEM_BINARY=/path/mongod', 'a mongod binary Coffer runs as its embedded MongoDB (data in DATA_DIR/mongo)'],
  ['(neither)', 'Coffer downloads a mongod once, if the download host can be reached at start'],
];
const WAY_WIDTH = Math.max(...WAYS_TO_A_DATABASE.map(([how]) => how.length)) + 2;

/** Production never loses data by surprise: memory there is only ever chosen with PERSISTENCE=memory. */
export const PRODUCTION_WITHOUT_DATABASE =
  'is production and no database is configured or can be had; Coffer does not fall back to memory there, where ' +
  'everything, accounts included, would be lost when it stops. Set MONGODB_URI to a MongoDB, or ' +
  'MONGOMS_SYSTEM_BINARY to a mongod binary for the embedded MongoDB, or let Coffer download a mongod (the download ' +
  'host must be reachable at start); or set PERSISTENCE=memory to accept that nothing is kept';

/**
 * The memory warning for people: several plain lines for stderr, beside the JSON log line, saying what is lost and how
 * to keep data. `forced`: PERSISTENCE=memory chose it.
 */
export function memoryNotice(forced: boolean): string {
  const lines = [
    forced
      ? 'coffer: WARNING: PERSISTENCE=memory is set, so all data is kept in memory only.'
      : 'coffer: WARNING: no database is configured or available, so all data is kept in memory only.',
    '  Everything, accounts included, is lost when Coffer stops: users, files, folders, pastes, shares, API tokens.',
    '  To keep data, give Coffer a database and start it again:',
    ...WAYS_TO_A_DATABASE.map(([how, what]) => `    ${how.padEnd(WAY_WIDTH)}${what}`),
    forced
      ? '  Then unset PERSISTENCE (memory ignores all of these), or set it to mongodb or embedded.'
      : '  Set PERSISTENCE=memory to run in memory on purpose; with NODE_ENV=production Coffer stops without it.',
  ];
  return `${lines.join('\n')}\n`;
}

/** Resolves to null once `ms` have passed, or when the probe itself fails: both mean "no binary". */
async function bounded(probe: MongodProbe, ms: number): Promise<MongodSource | null> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
    timer.unref();
  });
  try {
    return await Promise.race([probe().catch(() => null), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function memory(settings: PersistenceSettings, forced: boolean): PersistenceChoice {
  if (!forced && settings.production) throw new ConfigError('NODE_ENV', PRODUCTION_WITHOUT_DATABASE);
  if (settings.blobStore === 'gridfs') {
    throw new ConfigError(
      'BLOB_STORE',
      forced
        ? 'is gridfs, which keeps bytes in MongoDB, but PERSISTENCE is memory: use BLOB_STORE=fs or a MongoDB persistence'
        : 'is gridfs, which keeps bytes in MongoDB, but there is no MongoDB: set MONGODB_URI (or MONGOMS_SYSTEM_BINARY), or use BLOB_STORE=fs',
    );
  }
  return { kind: 'memory', forced, warning: forced ? MEMORY_FORCED_WARNING : MEMORY_FALLBACK_WARNING };
}

/**
 * Picks the persistence at start:
 * - PERSISTENCE forces a kind, and an impossible forced kind throws a ConfigError naming the variable;
 * - else MONGODB_URI means MongoDB;
 * - else an embedded mongod (data under DATA_DIR/mongo) whenever the probe finds a binary within the time bound;
 * - else memory, with a one-line warning that nothing survives a restart and how to fix that; but with
 *   NODE_ENV=production a ConfigError naming the ways to get a database instead.
 */
export async function choosePersistence(
  settings: PersistenceSettings,
  probe: MongodProbe,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<PersistenceChoice> {
  const forced = settings.persistence;
  if (forced === 'memory') return memory(settings, true);
  if (forced === 'mongodb' || (forced === null && settings.mongodbUri !== null)) {
    if (settings.mongodbUri === null) {
      throw new ConfigError('PERSISTENCE', 'is mongodb but MONGODB_URI is not set: set MONGODB_URI to the database');
    }
    return { kind: 'mongodb', forced: forced !== null };
  }
  const mongod = await bounded(probe, timeoutMs);
  if (mongod !== null) return { kind: 'embedded', mongod, forced: forced !== null };
  if (forced === 'embedded') {
    throw new ConfigError(
      'PERSISTENCE',
      'is embedded but no mongod binary can be had (none cached, MONGOMS_SYSTEM_BINARY not set, no download host ' +
        'reachable): set MONGOMS_SYSTEM_BINARY to a mongod binary, or set MONGODB_URI',
    );
  }
  return memory(settings, false);
}

/**
 * When the binary the probe promised cannot be obtained after all: an automatic choice that depended on a download
 * falls back to memory (with the warning; in production it stops start-up as choosePersistence does); a forced
 * choice, or a binary that vanished from disk, stops start-up.
 */
export function whenMongodUnobtainable(
  settings: PersistenceSettings,
  choice: PersistenceChoice,
  failure: unknown,
): PersistenceChoice {
  const reason = failure instanceof Error ? failure.message : String(failure);
  if (choice.forced || choice.mongod !== 'download') {
    throw new Error(`No mongod binary for the embedded MongoDB: ${reason}`, { cause: failure });
  }
  return memory(settings, false);
}
