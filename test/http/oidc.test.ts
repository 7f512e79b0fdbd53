import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { CALLBACK, passwordUser, ssoConfig } from '../support/sso-apps.js';
import { atProvider, deliver, newBrowser, ssoSignIn, startSignIn } from '../support/sso-flow.js';

const me = async (t: HttpTest, token: string) => (await t.request('GET', '/api/auth/me', { token })).body;

describe('single sign-on through a real OpenID provider', () => {
  let provider: TestProvider;
  let t: HttpTest;

  beforeAll(async () => {
    provider = await startTestProvider();
    t = await makeHttp({ config: ssoConfig(provider), ssoTiming: { retryMs: 50 } });
    await provider.configure([`${t.url}${CALLBACK}`]);
    provider.accounts.set('alice-sub', { preferred_username: 'alice', email: 'alice@example.com', groups: ['staff'] });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('tells the sign-in page that both ways are open', async () => {
    const res = await t.request('GET', '/api/auth/providers');
    expect(res.body).toEqual({ password: true, oidc: { label: 'Test ID', available: true } });
  });

  it('signs a new person in, making their account without a password; the next sign-in finds it', async () => {
    const landing = await ssoSignIn(newBrowser(), t.url, 'alice-sub', '?next=/files');
    expect(landing).toMatchObject({ status: 302, location: `${t.url}/files` });
    const first = await me(t, landing.session!);
    expect(first).toMatchObject({ username: 'alice', type: 'user', hasPassword: false, oidc: { issuer: provider.issuer, subject: 'alice-sub' } });
    const again = await ssoSignIn(newBrowser(), t.url, 'alice-sub');
    expect(again.location).toBe(`${t.url}/`);
    expect((await me(t, again.session!)).id).toBe(first.id);
    expect((await t.ports.users.list()).filter((u) => u.oidc?.subject === 'alice-sub')).toHaveLength(1);
  });

  it('refuses a password sign-in of a user without a password exactly as a wrong password', async () => {
    await ssoSignIn(newBrowser(), t.url, 'alice-sub');
    const none = await t.request('POST', '/api/auth/login', { json: { username: 'alice', password: 'anything-at-all' } });
    const unknown = await t.request('POST', '/api/auth/login', { json: { username: 'nobody-here', password: 'anything-at-all' } });
    expect(none.status).toBe(401);
    expect(none.body).toEqual(unknown.body);
  });

  it('refuses a password change for a user without a password, pointing to an admin', async () => {
    const { session } = await ssoSignIn(newBrowser(), t.url, 'alice-sub');
    const res = await t.request('POST', '/api/auth/password', { token: session!, json: { currentPassword: 'x', newPassword: 'a-new-password' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/no password.*admin/);
  });

  it('makes a valid, free username of the claim, and never signs in to an account of the same name', async () => {
    const carol = await passwordUser(t, 'carol');
    provider.accounts.set('carol-sub', { preferred_username: 'carol', groups: [] });
    provider.accounts.set('zoe-1', { preferred_username: 'Zoë Smith@home', groups: [] });
    provider.accounts.set('zoe-2', { preferred_username: 'Zoë Smith@home', groups: [] });
    provider.accounts.set('nameless', { groups: [] });
    const names: string[] = [];
    for (const sub of ['carol-sub', 'zoe-1', 'zoe-2', 'nameless']) {
      const { session } = await ssoSignIn(newBrowser(), t.url, sub);
      const user = await me(t, session!);
      expect(user.id).not.toBe(carol.id);
      names.push(user.username);
    }
    expect(names).toEqual(['carol-2', 'Zoe-Smith-home', 'Zoe-Smith-home-2', 'user']);
  });

  it('goes to `next` only when it is a path on this origin', async () => {
    const cases: [string, string][] = [
      ['/shares?view=all', '/shares?view=all'],
      ['https://elsewhere.example/x', '/'],
      ['//elsewhere.example/x', '/'],
      ['/\\elsewhere.example', '/'],
      ['files', '/'],
    ];
    for (const [next, expected] of cases) {
      const landing = await ssoSignIn(newBrowser(), t.url, 'alice-sub', `?next=${encodeURIComponent(next)}`);
      expect(landing.location, next).toBe(`${t.url}${expected}`);
      expect(landing.session).not.toBeNull();
    }
  });

  it('refuses a replayed state, even from the browser that used it', async () => {
    const browser = newBrowser();
    const authorization = await startSignIn(browser, t.url);
    const key = browser.coffer.cookies.get('coffer_sso')!;
    const callback = await atProvider(browser, authorization, 'alice-sub');
    expect((await deliver(browser, callback)).session).not.toBeNull();
    browser.coffer.cookies.set('coffer_sso', key);
    const replay = await deliver(browser, callback);
    expect(replay).toMatchObject({ location: `${t.url}/?ssoError=expired`, session: null });
  });

  it('refuses a replayed code under a fresh state', async () => {
    const browser = newBrowser();
    const used = new URL(await atProvider(browser, await startSignIn(browser, t.url), 'alice-sub'));
    await deliver(browser, used.href);
    const fresh = new URL(await atProvider(browser, await startSignIn(browser, t.url), 'alice-sub'));
    fresh.searchParams.set('code', used.searchParams.get('code')!);
    expect(await deliver(browser, fresh.href)).toMatchObject({ location: `${t.url}/?ssoError=rejected`, session: null });
  });

  it('accepts the answer only in the browser that started the sign-in (a callback link passed on is refused)', async () => {
    const starter = newBrowser();
    const callback = await atProvider(starter, await startSignIn(starter, t.url), 'alice-sub');
    const victim = newBrowser();
    expect(await deliver(victim, callback)).toMatchObject({ location: `${t.url}/?ssoError=expired`, session: null });
    // The state was spent by that attempt: the starter cannot use it either.
    expect((await deliver(starter, callback)).location).toBe(`${t.url}/?ssoError=expired`);
  });

  it('refuses a sign-in that took longer than 10 minutes', async () => {
    const browser = newBrowser();
    const callback = await atProvider(browser, await startSignIn(browser, t.url), 'alice-sub');
    t.clock.advance(10 * 60_000);
    expect((await deliver(browser, callback)).location).toBe(`${t.url}/?ssoError=expired`);
  });

  it('lands on the sign-in page when the person cancels at the provider', async () => {
    const browser = newBrowser();
    const callback = await atProvider(browser, await startSignIn(browser, t.url), { cancel: true });
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
    expect(await deliver(browser, callback)).toMatchObject({ location: `${t.url}/?ssoError=denied`, session: null });
  });

  it('signs in without Coffer\'s second factor; the same user\'s password sign-in still asks for it', async () => {
    const gail = await passwordUser(t, 'gail');
    await t.ports.users.linkOidc(gail.id, { issuer: provider.issuer, subject: 'gail-sub' }, t.clock.now());
    provider.accounts.set('gail-sub', { preferred_username: 'gail', groups: [] });
    await t.ports.secondFactors.startTotp(gail.id, 'JBSWY3DPEHPK3PXP', t.clock.now());
    await t.ports.secondFactors.confirmTotp(gail.id, { secret: 'JBSWY3DPEHPK3PXP', step: 1, recoveryCodeHashes: [], updatedAt: t.clock.now() });
    const password = await t.request('POST', '/api/auth/login', { json: { username: 'gail', password: 'gail-password' } });
    expect(password.body).toMatchObject({ mfaRequired: true, methods: ['totp'] });
    const sso = await ssoSignIn(newBrowser(), t.url, 'gail-sub');
    expect(await me(t, sso.session!)).toMatchObject({ id: gail.id, mfa: { totp: true } });
  });
});

describe('what single sign-on logs', () => {
  it('holds no code, state, token or claim of a sign-in, nor of a refused one', async () => {
    const provider = await startTestProvider();
    const lines: unknown[] = [];
    const record = (obj: object, msg?: string) => void lines.push({ ...obj, msg });
    const t = await makeHttp({ config: ssoConfig(provider), logger: { info: record, warn: record, error: record } });
    try {
      await provider.configure([`${t.url}${CALLBACK}`]);
      provider.accounts.set('secret-subject', { preferred_username: 'quiet', email: 'quiet@example.com', groups: ['hidden-group'] });
      const browser = newBrowser();
      const callback = new URL(await atProvider(browser, await startSignIn(browser, t.url), 'secret-subject'));
      // A HEAD of the callback (a link checker) only looks: the state stays for the browser's own GET.
      const head = await fetch(callback.href, { method: 'HEAD', redirect: 'manual', headers: { cookie: browser.coffer.header() } });
      expect(head.status).toBe(302);
      const landing = await deliver(browser, callback.href);
      expect(landing.session).not.toBeNull();
      const replay = await deliver(newBrowser(), callback.href);
      expect(replay.location).toContain('ssoError=expired');
      const logged = JSON.stringify(lines);
      expect(logged).toContain('single sign-on refused');
      for (const secret of [callback.searchParams.get('code')!, callback.searchParams.get('state')!, landing.session!, 'secret-subject', 'quiet@example.com', 'hidden-group']) {
        expect(logged).not.toContain(secret);
      }
    } finally {
      await t.close();
      await provider.close();
    }
  });
});

describe('admin groups', () => {
  let provider: TestProvider;
  let t: HttpTest;
  let alone: HttpTest;

  beforeAll(async () => {
    provider = await startTestProvider({ claimsInIdToken: true });
    t = await makeHttp({ config: ssoConfig(provider) });
    alone = await makeHttp({ config: ssoConfig(provider) });
    await provider.configure([`${t.url}${CALLBACK}`, `${alone.url}${CALLBACK}`]);
  });
  afterAll(async () => {
    await t?.close();
    await alone?.close();
    await provider?.close();
  });

  it('promotes a member of an admin group and demotes them once they leave it, at every sign-in', async () => {
    await t.adminToken();
    provider.accounts.set('boss', { preferred_username: 'boss', groups: ['staff', 'coffer-admins'] });
    const first = await ssoSignIn(newBrowser(), t.url, 'boss');
    expect((await me(t, first.session!)).type).toBe('admin');
    provider.accounts.set('boss', { preferred_username: 'boss', groups: ['staff'] });
    const second = await ssoSignIn(newBrowser(), t.url, 'boss');
    expect((await me(t, second.session!)).type).toBe('user');
    // A plain user signed in by password, made admin by an admin, is demoted at their first SSO sign-in.
    provider.accounts.set('boss', { preferred_username: 'boss', groups: ['coffer-admins'] });
    expect((await me(t, (await ssoSignIn(newBrowser(), t.url, 'boss')).session!)).type).toBe('admin');
  });

  it('never demotes the last admin', async () => {
    provider.accounts.set('only', { preferred_username: 'only', groups: ['coffer-admins'] });
    const first = await ssoSignIn(newBrowser(), alone.url, 'only');
    expect((await me(alone, first.session!)).type).toBe('admin');
    provider.accounts.set('only', { preferred_username: 'only', groups: [] });
    const second = await ssoSignIn(newBrowser(), alone.url, 'only');
    expect(second.session).not.toBeNull();
    expect((await me(alone, second.session!)).type).toBe('admin');
    expect(await alone.ports.users.countAdmins()).toBe(1);
  });
});

describe('without auto-registration, and without admin groups', () => {
  let provider: TestProvider;
  let t: HttpTest;

  beforeAll(async () => {
    provider = await startTestProvider({ clientSecret: null });
    t = await makeHttp({ config: ssoConfig(provider, { autoRegister: false, adminGroups: [], clientSecret: null }) });
    await provider.configure([`${t.url}${CALLBACK}`]);
    provider.accounts.set('stranger', { preferred_username: 'stranger', groups: ['coffer-admins'] });
    provider.accounts.set('known', { preferred_username: 'whatever', groups: [] });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('creates nothing for an unknown person and says so on the sign-in page', async () => {
    const before = await t.ports.users.list();
    const landing = await ssoSignIn(newBrowser(), t.url, 'stranger');
    expect(landing).toMatchObject({ location: `${t.url}/?ssoError=unknown_user`, session: null });
    expect(await t.ports.users.list()).toEqual(before);
  });

  it('signs in a linked user (a public client: PKCE only), and never changes who is an admin', async () => {
    const admin = await passwordUser(t, 'root', 'admin');
    await t.ports.users.linkOidc(admin.id, { issuer: provider.issuer, subject: 'known' }, t.clock.now());
    const landing = await ssoSignIn(newBrowser(), t.url, 'known');
    expect(await me(t, landing.session!)).toMatchObject({ id: admin.id, username: 'root', type: 'admin', hasPassword: true });
  });
});

describe('linking and unlinking', () => {
  let provider: TestProvider;
  let t: HttpTest;

  beforeAll(async () => {
    provider = await startTestProvider();
    t = await makeHttp({ config: ssoConfig(provider) });
    await provider.configure([`${t.url}${CALLBACK}`]);
    provider.accounts.set('dave-at-idp', { preferred_username: 'dave.idp', groups: [] });
    provider.accounts.set('sso-only', { preferred_username: 'frank', groups: [] });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** A browser signed in to Coffer with `token` as its session cookie. */
  const signedIn = (token: string) => {
    const browser = newBrowser();
    browser.coffer.cookies.set('coffer_session', token);
    return browser;
  };

  it('links the identity to the signed-in user, who then signs in with it; unlinking ends that', async () => {
    const dave = await t.user('dave');
    const browser = signedIn(dave.token);
    const authorization = await startSignIn(browser, t.url, '?intent=link');
    const linked = await deliver(browser, await atProvider(browser, authorization, 'dave-at-idp'));
    expect(linked).toMatchObject({ location: `${t.url}/account`, session: null });
    expect((await me(t, dave.token)).oidc).toEqual({ issuer: provider.issuer, subject: 'dave-at-idp' });
    const sso = await ssoSignIn(newBrowser(), t.url, 'dave-at-idp');
    expect((await me(t, sso.session!)).id).toBe(dave.userId);

    expect((await t.request('DELETE', '/api/auth/oidc/link', { token: dave.token })).status).toBe(204);
    expect((await me(t, dave.token)).oidc).toBeNull();
    // Unlinked, the identity is a stranger again: auto-registration makes it an account of its own.
    const after = await ssoSignIn(newBrowser(), t.url, 'dave-at-idp');
    expect((await me(t, after.session!)).id).not.toBe(dave.userId);
  });

  it('refuses to link an identity that belongs to another account', async () => {
    const owner = await ssoSignIn(newBrowser(), t.url, 'sso-only');
    const erin = await t.user('erin');
    const browser = signedIn(erin.token);
    const landing = await deliver(browser, await atProvider(browser, await startSignIn(browser, t.url, '?intent=link'), 'sso-only'));
    expect(landing.location).toBe(`${t.url}/account?ssoError=taken`);
    expect((await me(t, erin.token)).oidc).toBeNull();
    expect((await me(t, owner.session!)).oidc?.subject).toBe('sso-only');
  });

  it('links only for a session: without one the start goes back to Account', async () => {
    expect(await startSignIn(newBrowser(), t.url, '?intent=link')).toBe(`${t.url}/account?ssoError=signed_out`);
  });

  it('refuses to unlink the only way a user signs in, and an API token', async () => {
    const { session } = await ssoSignIn(newBrowser(), t.url, 'sso-only');
    const res = await t.request('DELETE', '/api/auth/oidc/link', { token: session! });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('conflict');
    expect((await me(t, session!)).oidc).not.toBeNull();
    const apiToken = (await t.request('POST', '/api/token', { token: session!, json: { name: 'ci' } })).body.token;
    expect((await t.request('DELETE', '/api/auth/oidc/link', { token: apiToken })).status).toBe(403);
  });
});

describe('PASSWORD_LOGIN', () => {
  let provider: TestProvider;
  const apps: HttpTest[] = [];
  const app = async (mode: 'enabled' | 'admins' | 'disabled') => {
    const t = await makeHttp({ config: ssoConfig(provider, {}, { passwordLogin: mode }) });
    apps.push(t);
    return t;
  };

  beforeAll(async () => {
    provider = await startTestProvider();
    // Nobody signs in through it here; it only has to answer discovery.
    await provider.configure(['http://127.0.0.1:9/unused']);
  });
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });
  afterAll(async () => provider?.close());

  it('admins: only admins sign in with a password; others are told to use single sign-on', async () => {
    const t = await app('admins');
    await passwordUser(t, 'root', 'admin');
    await passwordUser(t, 'bob');
    expect((await t.request('POST', '/api/auth/login', { json: { username: 'root', password: 'root-password' } })).status).toBe(200);
    const bob = await t.request('POST', '/api/auth/login', { json: { username: 'bob', password: 'bob-password' } });
    expect(bob.status).toBe(403);
    expect(bob.body).toMatchObject({ error: 'forbidden', message: expect.stringContaining('Sign in with Test ID') });
    // A wrong password is the same 401 for everybody: the 403 comes only after the password proved right.
    const wrong = await t.request('POST', '/api/auth/login', { json: { username: 'bob', password: 'not-his-password' } });
    expect(wrong.status).toBe(401);
    expect((await t.request('GET', '/api/auth/providers')).body).toMatchObject({ password: true });
  });

  it('disabled: every password sign-in is 403 pointing to single sign-on; API tokens keep working', async () => {
    const t = await app('disabled');
    const root = await passwordUser(t, 'root', 'admin');
    const token = await t.core.createApiToken.execute({
      actor: { userId: root.id, userType: 'admin', via: 'session', tokenId: 'x', limits: {} },
      name: 'ci',
    });
    for (const path of ['/api/auth/login', '/api/auth/session']) {
      const res = await t.request('POST', path, {
        json: { username: 'root', password: 'root-password' },
        headers: { 'x-coffer-csrf': '1' },
      });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toContain('Sign in with Test ID');
    }
    expect((await t.request('GET', '/api/usage/stats', { token: token.token })).status).toBe(200);
    expect((await t.request('GET', '/api/auth/providers')).body).toEqual({ password: false, oidc: { label: 'Test ID', available: true } });
    expect((await t.request('GET', '/api/auth/session')).body.registration).toBe(false);
  });

  it('enabled: passwords work as ever', async () => {
    const t = await app('enabled');
    await passwordUser(t, 'bob');
    expect((await t.request('POST', '/api/auth/login', { json: { username: 'bob', password: 'bob-password' } })).status).toBe(200);
  });
});

/** A loopback port nothing listens on (for now). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a provider that cannot be reached', () => {
  let t: HttpTest;
  let provider: TestProvider | null = null;
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('does not stop start-up; sign-in says unavailable until discovery succeeds, retried', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    t = await makeHttp({ config: ssoConfig({ issuer, clientId: 'coffer', clientSecret: 'coffer-client-secret' }), ssoTiming: { retryMs: 100 } });
    expect((await t.request('GET', '/health')).status).toBe(200);
    expect((await t.request('GET', '/api/auth/providers')).body).toEqual({ password: true, oidc: { label: 'Test ID', available: false } });
    expect(await startSignIn(newBrowser(), t.url)).toBe(`${t.url}/?ssoError=unavailable`);

    provider = await startTestProvider({ port });
    await provider.configure([`${t.url}${CALLBACK}`]);
    provider.accounts.set('late', { preferred_username: 'late', groups: [] });
    await expect
      .poll(async () => (await t.request('GET', '/api/auth/providers')).body.oidc.available, { timeout: 5000, interval: 50 })
      .toBe(true);
    expect((await ssoSignIn(newBrowser(), t.url, 'late')).session).not.toBeNull();
  });
});

describe('two instances over one database', () => {
  let provider: TestProvider;
  let a: HttpTest;
  let b: HttpTest;

  beforeAll(async () => {
    provider = await startTestProvider();
    a = await makeHttp({ config: ssoConfig(provider) });
    b = await makeHttp({ config: ssoConfig(provider), memoryOf: a.container });
    await provider.configure([`${a.url}${CALLBACK}`]);
    provider.accounts.set('roamer', { preferred_username: 'roamer', groups: [] });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await provider?.close();
  });

  it('finishes on one instance a sign-in started on another, once', async () => {
    const browser = newBrowser();
    const callback = await atProvider(browser, await startSignIn(browser, a.url, '?next=/pastes'), 'roamer');
    const key = browser.coffer.cookies.get('coffer_sso')!;
    const landing = await deliver(browser, callback, b.url);
    expect(landing.location).toBe(`${b.url}/pastes`);
    expect((await me(a, landing.session!)).username).toBe('roamer');
    browser.coffer.cookies.set('coffer_sso', key);
    expect((await deliver(browser, callback, a.url)).location).toBe(`${a.url}/?ssoError=expired`);
  });
});
