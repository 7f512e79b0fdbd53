import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { until } from '../support/wait.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';
import { sessionOf } from '../support/core.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

const SLOTS = 3;
const ATTEMPTS = 10;

/** An upload body that sends a little, then waits for `gate` before it ends: an upload under way. */
async function* heldOpen(gate: Promise<void>): AsyncIterable<Uint8Array> {
  yield new Uint8Array(100).fill(1);
  await gate;
  yield new Uint8Array(100).fill(2);
}

describe.skipIf(!target)('uploads one user runs at once, over two instances on one MongoDB', () => {
  const dbName = freshDbName();
  let instances: MongoInstance[];
  let actors: Actor[];

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName, { MAX_CONCURRENT_UPLOADS: String(SLOTS) });
    instances = [await mongoInstance(config), await mongoInstance(config)];
    const [a, b] = instances as [MongoInstance, MongoInstance];
    await a.core.ensureAdmin.execute(ADMIN);
    const admin = await b.core.authenticate.execute({ token: (sessionOf(await b.core.login.execute(ADMIN))).token });
    await a.core.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' });
    // A session on each instance, and an API token on the second: all of them are alice.
    const sessionA = (sessionOf(await a.core.login.execute({ username: 'alice', password: 'alice-password' }))).token;
    const sessionB = (sessionOf(await b.core.login.execute({ username: 'alice', password: 'alice-password' }))).token;
    const actorB = await b.core.authenticate.execute({ token: sessionB });
    const apiToken = (await b.core.createApiToken.execute({ actor: actorB, name: 'cli' })).token;
    actors = [
      await a.core.authenticate.execute({ token: sessionA }),
      await b.core.authenticate.execute({ token: apiToken }),
    ];
  });

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  const upload = (core: Core, actor: Actor, content: AsyncIterable<Uint8Array>, i: number) =>
    core.uploadFile.execute({ actor, folderId: null, name: null, filename: `f${i}.bin`, mime: undefined, content });

  it(`admits exactly ${SLOTS} of ${ATTEMPTS} racing uploads, and a finished one frees its slot`, async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const outcomes: Array<'ok' | string> = [];
    const runs = Array.from({ length: ATTEMPTS }, (_, i) =>
      upload(instances[i % 2]!.core, actors[i % 2]!, heldOpen(gate), i).then(
        () => outcomes.push('ok'),
        (err: { code?: string }) => outcomes.push(err.code ?? String(err)),
      ),
    );
    // The refused ones answer at once; the admitted ones wait at the gate.
    await until(() => outcomes.length === ATTEMPTS - SLOTS, 'the uploads beyond the bound to be refused');
    expect(outcomes).toEqual(Array(ATTEMPTS - SLOTS).fill('rate_limited'));

    const [a, b] = instances as [MongoInstance, MongoInstance];
    await expect(upload(b.core, actors[1]!, heldOpen(Promise.resolve()), 99)).rejects.toMatchObject({
      code: 'rate_limited',
    });
    open();
    await Promise.all(runs);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(SLOTS);
    expect((await a.core.getUsage.execute({ actor: actors[0]! })).files.current).toBe(SLOTS);

    // Every slot is free again, on either instance.
    const again = await Promise.allSettled(
      Array.from({ length: SLOTS }, (_, i) => upload(instances[i % 2]!.core, actors[i % 2]!, heldOpen(gate), 100 + i)),
    );
    expect(again.filter((r) => r.status === 'fulfilled')).toHaveLength(SLOTS);
  });
});
