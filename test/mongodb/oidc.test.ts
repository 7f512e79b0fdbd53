import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpApp } from '../../src/adapters/http/http-app.js';
import { createHttpServer } from '../../src/adapters/http/server/http-server.js';
import { Ports } from '../../src/application/index.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { CALLBACK } from '../support/sso-apps.js';
import { atProvider, deliver, newBrowser, startSignIn } from '../support/sso-flow.js';
import { dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(async () => target?.stop());

/** An instance's HTTP server on loopback. */
async function serve(instance: MongoInstance): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(instance.container.get(HttpApp).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!target)('single sign-on across two instances on one MongoDB', () => {
  const dbName = freshDbName();
  let provider: TestProvider;
  let instances: MongoInstance[];
  let served: { url: string; server: Server }[];

  beforeAll(async () => {
    provider = await startTestProvider();
    const config = mongoConfig(target!.uri, dbName, {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret!,
      OIDC_SCOPES: 'openid profile groups',
    });
    instances = [await mongoInstance(config), await mongoInstance(config)];
    served = await Promise.all(instances.map(serve));
    await provider.configure([`${served[0]!.url}${CALLBACK}`]);
    provider.accounts.set('roamer', { preferred_username: 'roamer', groups: [] });
  });
  afterAll(async () => {
    for (const { server } of served ?? []) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const instance of instances ?? []) await instance.close();
    await provider?.close();
    await dropDatabases(target!.uri, [dbName]);
  });

  it('finishes on the second instance a sign-in the first started, and only once', async () => {
    const [a, b] = [served[0]!, served[1]!];
    const browser = newBrowser();
    const callback = await atProvider(browser, await startSignIn(browser, a.url, '?next=/pastes'), 'roamer');
    const key = browser.coffer.cookies.get('coffer_sso')!;
    const landing = await deliver(browser, callback, b.url);
    expect(landing.location).toBe(`${b.url}/pastes`);
    expect(landing.session).not.toBeNull();
    const users = instances[0]!.container.get<Ports>(Ports).users;
    expect((await users.findByOidc({ issuer: provider.issuer, subject: 'roamer' }))?.username).toBe('roamer');
    browser.coffer.cookies.set('coffer_sso', key);
    expect((await deliver(browser, callback, a.url)).location).toBe(`${a.url}/?ssoError=expired`);
  });
});
