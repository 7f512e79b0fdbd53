import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Core, Ports, type IdentityProvider } from '../../src/application/index.js';
import { buildContainer } from '../../src/boot/composition.js';
import { TestClock, testBuildOptions, testConfig } from '../support/core.js';
import { ssoConfig } from '../support/sso-apps.js';

const ISSUER = 'https://idp.example';

/**
 * A provider that proves whoever the callback's query names (`who`, `name`): the protocol is the adapter's and is
 * tested against a real provider (test/http/oidc.test.ts); here only what the core makes of an identity.
 */
const fakeProvider: IdentityProvider = {
  available: async () => true,
  begin: async () => {
    const state = randomUUID();
    return { url: `${ISSUER}/auth?state=${state}`, state, nonce: 'n', verifier: 'v' };
  },
  finish: async (query) => {
    const q = new URLSearchParams(query);
    return { issuer: ISSUER, subject: q.get('who')!, username: q.get('name'), groups: [] };
  },
};

/** The core over the fake provider (the real adapter's warm-up meets a port nothing listens on). */
function ssoCore() {
  const clock = new TestClock();
  const config = testConfig({}, ssoConfig({ issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: null }));
  const options = testBuildOptions({ wrapPorts: (ports) => ({ ...ports, identityProvider: fakeProvider }) }, clock);
  const container = buildContainer(config, options);
  return { core: container.get<Core>(Core), ports: container.get<Ports>(Ports) };
}

/** A sign-in as the routes make it: started, then finished with the provider's answer naming `query`'s person. */
async function signIn(core: Core, query: string) {
  const { url, browserKey } = await core.startSso.execute({ actor: null, next: null, intent: 'login', redirectUri: 'https://coffer.example/cb' });
  const state = new URL(url).searchParams.get('state')!;
  return core.finishSso.execute({ query, state, browserKey });
}

describe('single sign-on accounts', () => {
  it('makes one account when first sign-ins of one person race', async () => {
    const { core, ports } = ssoCore();
    const outcomes = await Promise.all([0, 1, 2, 3].map(() => signIn(core, 'who=same&name=same')));
    const ids = new Set(outcomes.map((o) => (o.intent === 'login' ? o.session.user.id : null)));
    expect(ids.size).toBe(1);
    expect((await ports.users.list()).filter((u) => u.oidc?.subject === 'same')).toHaveLength(1);
  });

  it('gives people racing for one name that name and suffixed ones', async () => {
    const { core, ports } = ssoCore();
    await Promise.all([0, 1, 2].map((i) => signIn(core, `who=person-${i}&name=Robin`)));
    expect((await ports.users.list()).map((u) => u.username).sort()).toEqual(['Robin', 'Robin-2', 'Robin-3']);
  });
});
