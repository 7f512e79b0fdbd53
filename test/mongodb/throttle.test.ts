import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/application/index.js';
import {
  GUESSES_PER_TARGET_AND_ADDRESS,
  GUESSES_PER_TARGET_PER_HOUR,
  UNKNOWN_SHARE_LOOKUPS,
} from '../../src/application/auth/throttle-rules.js';
import type { Actor } from '../../src/domain/index.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';
import { sessionOf } from '../support/core.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** The code a call ends with: 'ok', or its DomainError's code. */
const outcome = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => 'ok',
    (err: { code?: string }) => err.code ?? 'error',
  );

/** The throttle model with its counters in MongoDB, guesses alternating between two instances of the service. */
describe.skipIf(!target)('throttling across two instances on one MongoDB', () => {
  const dbName = freshDbName();
  let instances: [MongoInstance, MongoInstance];
  let cores: [Core, Core];
  let admin: Actor;

  const login = (i: number, username: string, password: string, client: string) =>
    outcome(cores[i % 2]!.login.execute({ username, password, client }));

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName);
    instances = [await mongoInstance(config), await mongoInstance(config)];
    cores = [instances[0].core, instances[1].core];
    await cores[0].ensureAdmin.execute(ADMIN);
    admin = await cores[0].authenticate.execute({ token: (sessionOf(await cores[0].login.execute(ADMIN))).token });
    for (const username of ['alice', 'bob', 'carol']) {
      await cores[0].createUser.execute({ actor: admin, username, password: `${username}-password` });
    }
  });

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  it('blocks guessing at one account from one address, but never another account from that address', async () => {
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS; i += 1) {
      expect(await login(i, 'alice', 'wrong-password', '192.0.2.1'), `guess ${i + 1}`).toBe('unauthorized');
    }
    expect(await login(0, 'alice', 'alice-password', '192.0.2.1')).toBe('rate_limited');
    expect(await login(1, 'alice', 'alice-password', '192.0.2.1')).toBe('rate_limited');
    expect(await login(0, 'bob', 'bob-password', '192.0.2.1')).toBe('ok');
    expect(await login(1, 'alice', 'alice-password', '192.0.2.2')).toBe('ok');
  });

  it('caps guesses at one account from many addresses', async () => {
    const from = (i: number) => `198.51.100.${Math.floor(i / GUESSES_PER_TARGET_AND_ADDRESS)}`;
    for (let i = 0; i < GUESSES_PER_TARGET_PER_HOUR; i += 1) {
      expect(await login(i, 'carol', 'wrong-password', from(i)), `guess ${i + 1}`).toBe('unauthorized');
    }
    expect(await login(0, 'carol', 'carol-password', '192.0.2.200')).toBe('rate_limited');
    expect(await login(1, 'bob', 'bob-password', from(0))).toBe('ok');
  });

  it('lets a valid share open, with its password, after 50 unknown ids from the same address', async () => {
    const owner = await cores[0].authenticate.execute({ token: (sessionOf(await cores[0].login.execute(ADMIN))).token });
    const paste = await cores[0].createPaste.execute({ actor: owner, content: 'notes' });
    const share = await cores[1].createShare.execute({
      actor: owner,
      type: 'paste',
      id: paste.id,
      password: 'pass-word',
    });
    const client = '203.0.113.9';
    for (let i = 0; i < 50; i += 1) {
      const lookup = outcome(cores[i % 2]!.getShare.execute({ actor: null, id: `dead-${i}`, password: null, client }));
      expect(await lookup, `lookup ${i + 1}`).toBe(i < UNKNOWN_SHARE_LOOKUPS ? 'not_found' : 'rate_limited');
    }
    const open = (core: Core, password: string) =>
      outcome(core.getShare.execute({ actor: null, id: share.id, password, client }));
    expect(await open(cores[0], 'pass-word')).toBe('ok');
    expect(await open(cores[1], 'wrong-pass')).toBe('share_password_invalid');
    expect(await open(cores[1], 'pass-word')).toBe('ok');
  });
});
