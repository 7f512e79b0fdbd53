import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { startFakeIssuer, type FakeIssuer, type Forge } from '../support/fake-issuer.js';
import { ssoConfig } from '../support/sso-apps.js';
import { deliver, newBrowser, startSignIn, visit } from '../support/sso-flow.js';

/**
 * ID tokens a real provider would never mint, from a hand-made issuer: each must be refused by the checks
 * openid-client makes, and nothing created. The honest token passes, so each refusal is the check's doing.
 */
describe('the callback refuses an ID token that fails a check', () => {
  let fake: FakeIssuer;
  let t: HttpTest;

  beforeAll(async () => {
    fake = await startFakeIssuer();
    t = await makeHttp({ config: ssoConfig(fake, { adminGroups: [] }) });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const signIn = async (sub: string, forge: Forge) => {
    fake.forge = forge;
    const browser = newBrowser();
    const authorization = new URL(await startSignIn(browser, t.url));
    authorization.searchParams.set('login_hint', sub);
    const res = await visit(browser.provider, authorization.href);
    return deliver(browser, res.headers.get('location')!);
  };

  it('signs in with an honest token', async () => {
    const landing = await signIn('honest', (claims) => ({ claims }));
    expect(landing.session).not.toBeNull();
    expect((await t.ports.users.findByOidc({ issuer: fake.issuer, subject: 'honest' }))?.username).toBe('honest');
  });

  const forged: [string, Forge][] = [
    ['a token for another audience', (claims) => ({ claims: { ...claims, aud: 'someone-else' } })],
    ['a token signed with another key', (claims) => ({ claims, foreignKey: true })],
    ['an expired token', (claims) => ({ claims: { ...claims, iat: claims.iat! - 3600, exp: claims.iat! - 1800 } })],
    ['a token with the wrong nonce', (claims) => ({ claims: { ...claims, nonce: 'not-the-nonce-we-sent' } })],
    ['a token from another issuer', (claims) => ({ claims: { ...claims, iss: 'https://evil.example' } })],
  ];
  for (const [what, forge] of forged) {
    it(`refuses ${what} and creates nothing`, async () => {
      const sub = `forged-${what.replace(/\W+/g, '-')}`;
      const landing = await signIn(sub, forge);
      expect(landing).toMatchObject({ location: `${t.url}/?ssoError=rejected`, session: null });
      expect(await t.ports.users.findByOidc({ issuer: fake.issuer, subject: sub })).toBeNull();
    });
  }
});
