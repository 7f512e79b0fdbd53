import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, sessionOf } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(async () => target?.stop());

const PASSWORD = 'open sesame';

describe.skipIf(!target)('a share grant across two app instances on one MongoDB', () => {
  const dbName = freshDbName();
  let instances: [MongoInstance, MongoInstance];
  let cores: [Core, Core];
  let alice: Actor;

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName);
    instances = [await mongoInstance(config), await mongoInstance(config)];
    cores = [instances[0].core, instances[1].core];
    await cores[0].ensureAdmin.execute(ADMIN);
    const admin = await cores[0].authenticate.execute({ token: (sessionOf(await cores[0].login.execute(ADMIN))).token });
    await cores[0].createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' });
    const { token } = sessionOf(await cores[1].login.execute({ username: 'alice', password: 'alice-password' }));
    alice = await cores[1].authenticate.execute({ token });
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await dropDatabases(target!.uri, [dbName]);
  });

  it('one instance hands it out, the other honours it with nothing shared but the database, until the password changes', async () => {
    const [a, b] = cores;
    const file = await a.uploadFile.execute({
      actor: alice,
      folderId: null,
      name: null,
      filename: 'plan.txt',
      mime: 'text/plain',
      content: bytes('the plan'),
    });
    const share = await a.createShare.execute({ actor: alice, type: 'file', id: file.id, password: PASSWORD });
    const { grant } = await a.unlockShare.execute({ actor: null, id: share.id, password: PASSWORD });
    expect(grant).not.toBeNull();
    const read = (core: Core) =>
      core.openShareContent.execute({ actor: null, id: share.id, password: null, grant: grant!.value });

    for (const core of [a, b]) expect((await read(core)).size).toBe(8);
    await b.updateShare.execute({ actor: alice, id: share.id, password: PASSWORD });
    for (const core of [a, b]) await expect(read(core)).rejects.toMatchObject({ code: 'share_password_required' });
  });
});
