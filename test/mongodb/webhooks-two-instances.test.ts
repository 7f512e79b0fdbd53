import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker, Ports, type Core } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { LoggedActivityRecorder } from '../../src/boot/activity-recorder.js';
import { bytes, sessionOf } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(async () => target?.stop());

const READS = 60;

async function session(core: Core, username: string, password: string): Promise<Actor> {
  const { token } = sessionOf(await core.login.execute({ username, password }));
  return core.authenticate.execute({ token });
}

/** Turns of one instance's outbox until it finds nothing to do. */
async function drain(instance: MongoInstance) {
  const worker = new OutboxWorker(instance.container.get<Ports>(Ports));
  while (true) {
    const { dispatched, attempted } = await worker.step();
    if (dispatched === 0 && attempted === 0) return;
  }
}

describe.skipIf(!target)('webhooks: two instances on one MongoDB', () => {
  const dbName = freshDbName();
  let instances: MongoInstance[];

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    instances = [await mongoInstance(config), await mongoInstance(config)];
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    if (target) await dropDatabases(target.uri, [dbName]);
  });

  it('with a receiver that always succeeds, every event id arrives exactly once', async () => {
    const [a, b] = instances as [MongoInstance, MongoInstance];
    const receiver = await startReceiver();
    try {
      await a.core.ensureAdmin.execute(ADMIN);
      const admin = await session(a.core, ADMIN.username, ADMIN.password);
      await a.core.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' });
      const alice = await session(b.core, 'alice', 'alice-password');
      const file = await a.core.uploadFile.execute({ actor: alice, folderId: null, name: null, filename: 'a.txt', mime: 'text/plain', content: bytes('hello'), share: null });
      const share = await a.core.createShare.execute({ actor: alice, type: 'file', id: file.id });
      await b.core.createWebhook.execute({ actor: alice, url: receiver.url, events: ['share.viewed'] });
      await Promise.all(Array.from({ length: READS }, (_, i) => (i % 2 ? a : b).core.getShare.execute({ actor: null, id: share.id, password: null })));
      for (const instance of instances) await instance.container.get(LoggedActivityRecorder).settled();
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      const ids = receiver.received.map((got) => (JSON.parse(got.body) as { id: string }).id);
      expect(ids).toHaveLength(READS);
      expect(new Set(ids).size).toBe(READS);
    } finally {
      await receiver.close();
    }
  });
});
