import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Env } from '../../src/boot/config.js';
import {
  choosePersistence,
  MEMORY_FALLBACK_WARNING,
  whenMongodUnobtainable,
  type MongodProbe,
} from '../../src/boot/persistence.js';
import type { MongodSource } from '../../src/adapters/mongodb/index.js';

/** A probe that answers `source` and remembers whether it was asked. */
function probe(source: MongodSource | null): MongodProbe & { calls: number } {
  const fn = Object.assign(async () => {
    fn.calls++;
    return source;
  }, { calls: 0 });
  return fn;
}

const choose = (env: Env, p: MongodProbe = probe(null), timeoutMs?: number) =>
  choosePersistence(loadConfig(env), p, timeoutMs);

async function configErrorOf(promise: Promise<unknown>): Promise<ConfigError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

const URI = 'mongodb://db.example:27017/coffer';

describe('choosePersistence', () => {
  it('uses MongoDB when MONGODB_URI is set, without probing for a mongod', async () => {
    const p = probe('cached');
    expect(await choose({ MONGODB_URI: URI }, p)).toEqual({ kind: 'mongodb', forced: false });
    expect(await choose({ MONGODB_URI: URI, BLOB_STORE: 'gridfs' }, p)).toMatchObject({ kind: 'mongodb' });
    expect(p.calls).toBe(0);
  });

  it.each<MongodSource>(['cached', 'system', 'download'])(
    'starts an embedded mongod when no URI is set and a binary is %s',
    async (source) => {
      expect(await choose({}, probe(source))).toEqual({ kind: 'embedded', mongod: source, forced: false });
    },
  );

  it('falls back to memory offline, with one warning line that says what is lost and how to fix it', async () => {
    const choice = await choose({}, probe(null));
    expect(choice.kind).toBe('memory');
    expect(choice.warning).toBe(MEMORY_FALLBACK_WARNING);
    expect(choice.warning).not.toContain('\n');
    expect(choice.warning).toMatch(/nothing survives a restart/i);
    expect(choice.warning).toContain('MONGODB_URI');
    expect(choice.warning).toContain('MONGOMS_SYSTEM_BINARY');
  });

  it('treats a failing probe as "no binary"', async () => {
    const failing: MongodProbe = () => Promise.reject(new Error('EACCES'));
    expect(await choose({}, failing)).toMatchObject({ kind: 'memory', warning: MEMORY_FALLBACK_WARNING });
  });

  it('never waits on a hanging probe longer than its bound', async () => {
    const hanging: MongodProbe = () => new Promise(() => undefined);
    const started = Date.now();
    expect(await choose({}, hanging, 50)).toMatchObject({ kind: 'memory' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('lets PERSISTENCE force each kind, whatever else is set', async () => {
    const p = probe('cached');
    expect(await choose({ PERSISTENCE: 'memory', MONGODB_URI: URI }, p)).toMatchObject({ kind: 'memory', forced: true });
    expect(await choose({ PERSISTENCE: 'mongodb', MONGODB_URI: URI }, p)).toEqual({ kind: 'mongodb', forced: true });
    expect(p.calls).toBe(0);
    expect(await choose({ PERSISTENCE: 'embedded', MONGODB_URI: URI }, p)).toEqual({
      kind: 'embedded',
      mongod: 'cached',
      forced: true,
    });
  });

  it('warns about a forced memory persistence too, but not with the offline text', async () => {
    const choice = await choose({ PERSISTENCE: 'memory' });
    expect(choice.warning).toMatch(/^PERSISTENCE=memory: .*nothing survives a restart/);
  });

  it('stops start-up on an impossible forced choice, naming the variable', async () => {
    const noUri = await configErrorOf(choose({ PERSISTENCE: 'mongodb' }, probe('cached')));
    expect(noUri.variable).toBe('PERSISTENCE');
    expect(noUri.message).toContain('MONGODB_URI');

    const noBinary = await configErrorOf(choose({ PERSISTENCE: 'embedded' }, probe(null)));
    expect(noBinary.variable).toBe('PERSISTENCE');
    expect(noBinary.message).toContain('MONGOMS_SYSTEM_BINARY');
  });

  it('in production never falls back to memory: it stops, naming every way to get a database', async () => {
    const err = await configErrorOf(choose({ NODE_ENV: 'production' }, probe(null)));
    expect(err.variable).toBe('NODE_ENV');
    expect(err.message).toMatch(/^NODE_ENV is production and no database/);
    for (const way of ['MONGODB_URI', 'MONGOMS_SYSTEM_BINARY', 'download', 'PERSISTENCE=memory']) {
      expect(err.message, way).toContain(way);
    }
    // With GridFS too: the production rule is the first thing to fix.
    expect((await configErrorOf(choose({ NODE_ENV: 'production', BLOB_STORE: 'gridfs' }, probe(null)))).variable).toBe(
      'NODE_ENV',
    );
  });

  it('in production still takes a database wherever one can be had, and memory when PERSISTENCE says so', async () => {
    const production = { NODE_ENV: 'production' };
    expect(await choose({ ...production, MONGODB_URI: URI })).toEqual({ kind: 'mongodb', forced: false });
    expect(await choose(production, probe('download'))).toEqual({ kind: 'embedded', mongod: 'download', forced: false });
    expect(await choose({ ...production, PERSISTENCE: 'memory' })).toMatchObject({ kind: 'memory', forced: true });
    expect(await choose({ NODE_ENV: 'development' }, probe(null))).toMatchObject({ kind: 'memory', forced: false });
  });

  it('refuses GridFS without a MongoDB, forced or by fallback, naming BLOB_STORE', async () => {
    const forced = await configErrorOf(choose({ PERSISTENCE: 'memory', BLOB_STORE: 'gridfs' }));
    expect(forced.variable).toBe('BLOB_STORE');
    const fallback = await configErrorOf(choose({ BLOB_STORE: 'gridfs' }, probe(null)));
    expect(fallback.variable).toBe('BLOB_STORE');
    expect(fallback.message).toContain('MONGODB_URI');
    expect(await choose({ BLOB_STORE: 'gridfs' }, probe('system'))).toMatchObject({ kind: 'embedded' });
  });
});

describe('whenMongodUnobtainable', () => {
  const settings = loadConfig({});
  const failure = new Error('getaddrinfo ENOTFOUND fastdl.mongodb.org');

  it('falls back to memory with the warning when an automatic choice needed a download that failed', () => {
    const choice = whenMongodUnobtainable(settings, { kind: 'embedded', mongod: 'download', forced: false }, failure);
    expect(choice).toEqual({ kind: 'memory', forced: false, warning: MEMORY_FALLBACK_WARNING });
  });

  it('in production stops start-up instead of falling back, as choosePersistence does', () => {
    const production = loadConfig({ NODE_ENV: 'production' });
    const automatic = { kind: 'embedded', mongod: 'download', forced: false } as const;
    expect(() => whenMongodUnobtainable(production, automatic, failure)).toThrow(ConfigError);
    expect(() => whenMongodUnobtainable(production, automatic, failure)).toThrow(/PERSISTENCE=memory/);
  });

  it('stops start-up when the choice was forced or the binary was supposed to be on disk', () => {
    expect(() =>
      whenMongodUnobtainable(settings, { kind: 'embedded', mongod: 'download', forced: true }, failure),
    ).toThrow(/ENOTFOUND/);
    expect(() =>
      whenMongodUnobtainable(settings, { kind: 'embedded', mongod: 'cached', forced: false }, failure),
    ).toThrow(/No mongod binary/);
  });
});
