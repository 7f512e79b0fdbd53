import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/application/index.js';
import { buildContainer } from '../../src/boot/composition.js';
import type { Actor } from '../../src/domain/index.js';
import { sessionOf, TestClock, testBuildOptions, testConfig } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { SoftAuthenticator, type CreationOptions, type RequestOptions } from '../support/soft-authenticator.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(async () => target?.stop());

const rp = { id: 'coffer.test', origin: 'https://coffer.test' };

interface TwoInstances {
  cores: [Core, Core];
  close(): Promise<void>;
}

/**
 * Passkey ceremonies across two instances over one database: whatever one instance hands out (options and their
 * challenge, an mfaToken), the other can finish, once. Run on MongoDB (two clients, two containers; skipped without
 * a server) and on two containers sharing one memory database (always).
 */
function passkeysAcrossInstances(label: string, start: () => Promise<TwoInstances>, skip = false): void {
  describe.skipIf(skip)(label, () => {
    let a: Core;
    let b: Core;
    let running: TwoInstances | undefined;
    let alice: Actor;
    const authenticator = new SoftAuthenticator();

    beforeAll(async () => {
      running = await start();
      [a, b] = running.cores;
      await a.ensureAdmin.execute(ADMIN);
      const admin = await b.authenticate.execute({ token: sessionOf(await b.login.execute(ADMIN)).token });
      await a.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' });
      alice = await a.authenticate.execute({
        token: sessionOf(await b.login.execute({ username: 'alice', password: 'alice-password' })).token,
      });
    });

    afterAll(async () => {
      await running?.close();
    });

    it('registers on one instance with options from the other, once', async () => {
      const options = (await a.passkeyRegistrationOptions.execute({ actor: alice, rp })) as unknown as CreationOptions;
      const response = authenticator.create(options);
      const added = await b.addPasskey.execute({ actor: alice, rp, name: 'Laptop', response });
      expect(added.name).toBe('Laptop');
      expect((await a.getMe.execute({ actor: alice })).mfa.passkeys).toBe(1);
      await expect(a.addPasskey.execute({ actor: alice, rp, response })).rejects.toMatchObject({ code: 'bad_request' });
    });

    it('signs in without a password across instances, each challenge once', async () => {
      const options = (await b.passkeyLoginOptions.execute({ rp })) as unknown as RequestOptions;
      const response = authenticator.get(options);
      const result = await a.loginPasskey.execute({ response, rp });
      expect(result.user.username).toBe('alice');
      await expect(b.loginPasskey.execute({ response, rp })).rejects.toMatchObject({ code: 'unauthorized' });
    });

    it('finishes the second step on one instance with options the other made for the mfaToken', async () => {
      const outcome = await a.login.execute({ username: 'alice', password: 'alice-password' });
      if (!('mfaRequired' in outcome)) throw new Error('expected a second step');
      expect(outcome.methods).toEqual(['passkey']);
      const options = (await b.mfaPasskeyOptions.execute({ mfaToken: outcome.mfaToken, rp })) as unknown as RequestOptions;
      const passkey = authenticator.get(options);
      const done = await a.loginMfa.execute({ mfaToken: outcome.mfaToken, passkey, rp });
      expect(done.user.username).toBe('alice');
      await expect(b.loginMfa.execute({ mfaToken: outcome.mfaToken, passkey, rp })).rejects.toMatchObject({
        code: 'unauthorized',
      });
    });
  });
}

passkeysAcrossInstances('passkeys on two app instances over one MongoDB', async () => {
  const dbName = freshDbName();
  const config = mongoConfig(target!.uri, dbName);
  const instances = [await mongoInstance(config), await mongoInstance(config)];
  return {
    cores: [instances[0]!.core, instances[1]!.core],
    close: async () => {
      await Promise.all(instances.map((i) => i.close()));
      await dropDatabases(target!.uri, [dbName]);
    },
  };
}, !target);

passkeysAcrossInstances('passkeys on two app instances over one memory database', async () => {
  const clock = new TestClock();
  const first = buildContainer(testConfig(), testBuildOptions({}, clock));
  const second = buildContainer(testConfig(), { ...testBuildOptions({}, clock), memoryOf: first });
  return { cores: [first.get<Core>(Core), second.get<Core>(Core)], close: async () => {} };
});
