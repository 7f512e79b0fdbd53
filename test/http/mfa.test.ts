import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODE_GUESSES_PER_ACCOUNT_AND_ADDRESS } from '../../src/application/auth/throttle-rules.js';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';
import { totpAt } from '../support/totp.js';

const STEP_MS = 30_000;
const OWN_PAGE = (t: HttpTest) => ({ 'x-coffer-csrf': '1', origin: t.url, 'sec-fetch-site': 'same-origin' });

let t: HttpTest;
afterEach(() => t.close());

const login = (username: string, password = `${username}-password`) =>
  t.request('POST', '/api/auth/login', { json: { username, password } });
const loginMfa = (mfaToken: string, code: string) =>
  t.request('POST', '/api/auth/login/mfa', { json: { mfaToken, code } });
const me = (token: string) => t.request('GET', '/api/auth/me', { token });
/** The code the user's app shows now; the clock moves on a step first, so no code is one already used. */
const nextCode = (secret: string) => {
  t.clock.advance(STEP_MS);
  return totpAt(secret, t.clock.now());
};

/** Turns TOTP on for the session `token`: the secret and the recovery codes. */
async function enableTotp(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.request('POST', '/api/auth/mfa/totp', { token });
  expect(setup.status).toBe(200);
  const { secret } = setup.body;
  const confirmed = await t.request('POST', '/api/auth/mfa/totp/confirm', { token, json: { code: nextCode(secret) } });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes };
}

async function mfaTokenOf(username: string): Promise<string> {
  const res = await login(username);
  expect(res.status).toBe(200);
  expect(res.body.mfaRequired).toBe(true);
  return res.body.mfaToken;
}

describe('TOTP setup (POST /api/auth/mfa/totp, /confirm)', () => {
  beforeEach(async () => {
    t = await makeHttp();
  });

  it('hands out a pending key with its URI and QR code; nothing is on until a code confirms it', async () => {
    const { token } = await t.user('alice');
    const setup = await t.request('POST', '/api/auth/mfa/totp', { token });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.body.otpauthUrl);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(setup.body.secret);
    expect(decodeURIComponent(uri.pathname)).toContain('alice');
    expect(setup.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    expect((await me(token)).body.mfa).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    // Pending only: the password alone still signs in.
    expect((await login('alice')).body.token).toEqual(expect.any(String));

    const wrong = await t.request('POST', '/api/auth/mfa/totp/confirm', { token, json: { code: '000000' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('forbidden');
    const right = await t.request('POST', '/api/auth/mfa/totp/confirm', {
      token,
      json: { code: totpAt(setup.body.secret, t.clock.now()) },
    });
    expect(right.status).toBe(200);
    expect(right.body.recoveryCodes).toHaveLength(10);
    expect(new Set(right.body.recoveryCodes).size).toBe(10);
    expect((await me(token)).body.mfa).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 10 });
    // On: a new setup is refused until TOTP is turned off.
    expect((await t.request('POST', '/api/auth/mfa/totp', { token })).status).toBe(409);
  });

  it('turning TOTP on ends the other sessions; this one and API tokens keep working', async () => {
    const { token } = await t.user('alice');
    const other = (await login('alice')).body.token;
    const api = (await t.request('POST', '/api/token', { token, json: { name: 'ci' } })).body.token;
    await enableTotp(token);
    expect((await me(other)).status).toBe(401);
    expect((await me(token)).status).toBe(200);
    expect((await t.request('GET', '/api/usage/stats', { token: api })).status).toBe(200);
  });

  it('answers 409 to a confirmation without a pending setup, and 400 to a bad body', async () => {
    const { token } = await t.user('alice');
    expect((await t.request('POST', '/api/auth/mfa/totp/confirm', { token, json: { code: '123456' } })).status).toBe(409);
    for (const json of [{}, { code: 123456 }, { code: '123456', extra: 1 }]) {
      const res = await t.request('POST', '/api/auth/mfa/totp/confirm', { token, json });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
  });

  it('refuses API tokens (403) on every second-factor route, and answers 401 without a token', async () => {
    const { token } = await t.user('alice');
    const api = (await t.request('POST', '/api/token', { token, json: { name: 'ci' } })).body.token;
    const calls: [string, string, unknown][] = [
      ['POST', '/api/auth/mfa/totp', undefined],
      ['POST', '/api/auth/mfa/totp/confirm', { code: '123456' }],
      ['DELETE', '/api/auth/mfa/totp', { password: 'alice-password', code: '123456' }],
      ['POST', '/api/auth/mfa/recovery-codes', { code: '123456' }],
    ];
    for (const [method, path, json] of calls) {
      const refused = await t.request(method, path, { token: api, json });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect((await t.request(method, path, { json })).status).toBe(401);
    }
    expect((await me(token)).body.mfa.totp).toBe(false);
  });
});

describe('signing in with a second factor', () => {
  let alice: { token: string; userId: string };
  let secret: string;
  let recoveryCodes: string[];
  beforeEach(async () => {
    t = await makeHttp();
    alice = await t.user('alice');
    ({ secret, recoveryCodes } = await enableTotp(alice.token));
  });

  it('a right password answers mfaRequired and no session; the code then answers what a login answers', async () => {
    const first = await login('alice');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ['totp', 'recovery'] });
    const done = await loginMfa(first.body.mfaToken, nextCode(secret));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ token: expect.any(String), user: { id: alice.userId, username: 'alice' } });
    expect((await me(done.body.token)).status).toBe(200);
  });

  it('a wrong password answers exactly as without a second factor', async () => {
    const wrong = await login('alice', 'not-the-password');
    const unknown = await login('nobody', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('refuses a TOTP code used twice', async () => {
    const code = nextCode(secret);
    expect((await loginMfa(await mfaTokenOf('alice'), code)).status).toBe(200);
    const again = await loginMfa(await mfaTokenOf('alice'), code);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('unauthorized');
    // Nor an earlier step's code, once a later one was used.
    t.clock.advance(STEP_MS);
    const later = totpAt(secret, new Date(t.clock.now().getTime() + STEP_MS));
    const earlier = totpAt(secret, t.clock.now());
    expect((await loginMfa(await mfaTokenOf('alice'), later)).status).toBe(200);
    expect((await loginMfa(await mfaTokenOf('alice'), earlier)).status).toBe(401);
  });

  it('a recovery code works once, in any case and with or without its dash', async () => {
    const [code] = recoveryCodes;
    const typed = code!.toUpperCase().replace('-', ' ');
    expect((await loginMfa(await mfaTokenOf('alice'), typed)).status).toBe(200);
    expect((await loginMfa(await mfaTokenOf('alice'), code!)).status).toBe(401);
    expect((await me(alice.token)).body.mfa.recoveryCodesLeft).toBe(9);
  });

  it('an mfaToken works once', async () => {
    const mfaToken = await mfaTokenOf('alice');
    expect((await loginMfa(mfaToken, nextCode(secret))).status).toBe(200);
    const again = await loginMfa(mfaToken, nextCode(secret));
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('unauthorized');
  });

  it('a wrong code leaves the mfaToken usable', async () => {
    const mfaToken = await mfaTokenOf('alice');
    expect((await loginMfa(mfaToken, '000000')).status).toBe(401);
    expect((await loginMfa(mfaToken, 'aaaaa-aaaaa')).status).toBe(401);
    expect((await loginMfa(mfaToken, nextCode(secret))).status).toBe(200);
  });

  it('an mfaToken expires after 5 minutes', async () => {
    const mfaToken = await mfaTokenOf('alice');
    t.clock.advance(5 * 60_000);
    const late = await loginMfa(mfaToken, totpAt(secret, t.clock.now()));
    expect(late.status).toBe(401);
    const fresh = await mfaTokenOf('alice');
    t.clock.advance(4 * 60_000);
    expect((await loginMfa(fresh, nextCode(secret))).status).toBe(200);
  });

  it("an mfaToken signs in its own user only: another user's code does not open it", async () => {
    const bob = await t.user('bob');
    const bobs = await enableTotp(bob.token);
    const mfaToken = await mfaTokenOf('alice');
    const code = nextCode(bobs.secret);
    expect((await loginMfa(mfaToken, code)).status).toBe(401);
    expect((await loginMfa(mfaToken, bobs.recoveryCodes[0]!)).status).toBe(401);
    // Bob's code is still his to use: it was not spent on Alice's sign-in.
    const his = await loginMfa(await mfaTokenOf('bob'), code);
    expect(his.status).toBe(200);
    expect(his.body.user.username).toBe('bob');
  });

  it('a password change meanwhile voids the mfaToken', async () => {
    const mfaToken = await mfaTokenOf('alice');
    const changed = await t.request('POST', '/api/auth/password', {
      token: alice.token,
      json: { currentPassword: 'alice-password', newPassword: 'a-brand-new-password' },
    });
    expect(changed.status).toBe(204);
    expect((await loginMfa(mfaToken, nextCode(secret))).status).toBe(401);
  });

  it('throttles wrong codes per account: 429 with Retry-After, even to the right code', async () => {
    const mfaToken = await mfaTokenOf('alice');
    for (let i = 0; i < CODE_GUESSES_PER_ACCOUNT_AND_ADDRESS; i++) {
      expect((await loginMfa(mfaToken, '000000')).status).toBe(401);
    }
    const locked = await loginMfa(mfaToken, nextCode(secret));
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe('rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The password is a separate target: still judged (and answered with a fresh challenge).
    expect((await login('alice')).body.mfaRequired).toBe(true);
    // Per account: another user's codes from the same address are still judged. (The throttle keeps real time, so
    // the end of the lockout is not tested here; test/contracts/throttle covers its windows.)
    const bob = await t.user('bob');
    const bobs = await enableTotp(bob.token);
    expect((await loginMfa(await mfaTokenOf('bob'), nextCode(bobs.secret))).status).toBe(200);
  });

  it('API tokens made before TOTP keep working, with no code', async () => {
    const api = (await t.request('POST', '/api/token', { token: alice.token, json: { name: 'ci' } })).body.token;
    expect((await t.request('GET', '/api/usage/stats', { token: api })).status).toBe(200);
    expect((await t.upload(api, 'hello')).status).toBe(201);
  });

  it('the browser form: mfaRequired without a cookie, then the cookie from /api/auth/session/mfa', async () => {
    const first = await t.request('POST', '/api/auth/session', {
      json: { username: 'alice', password: 'alice-password' },
      headers: OWN_PAGE(t),
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
    expect(first.headers.getSetCookie()).toEqual([]);
    const json = { mfaToken: first.body.mfaToken, code: nextCode(secret) };
    const foreign = await t.request('POST', '/api/auth/session/mfa', { json });
    expect(foreign.status).toBe(403);
    const done: Reply = await t.request('POST', '/api/auth/session/mfa', { json, headers: OWN_PAGE(t) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ username: 'alice', mfa: { totp: true } });
    const [cookie] = done.headers.getSetCookie();
    expect(cookie).toMatch(/HttpOnly/i);
    const session = await t.request('GET', '/api/auth/session', { headers: { cookie: cookie!.split(';')[0]! } });
    expect(session.body.user.username).toBe('alice');
  });
});

describe('changing and removing TOTP', () => {
  let alice: { token: string; userId: string };
  let secret: string;
  let recoveryCodes: string[];
  beforeEach(async () => {
    t = await makeHttp();
    alice = await t.user('alice');
    ({ secret, recoveryCodes } = await enableTotp(alice.token));
  });

  const off = (password: string, code: string) =>
    t.request('DELETE', '/api/auth/mfa/totp', { token: alice.token, json: { password, code } });

  it('turns off with the password and a code; a wrong one of either is 403 and changes nothing', async () => {
    expect((await off('not-the-password', nextCode(secret))).status).toBe(403);
    expect((await off('alice-password', '000000')).status).toBe(403);
    expect((await me(alice.token)).body.mfa.totp).toBe(true);
    const done = await off('alice-password', recoveryCodes[0]!);
    expect(done.status).toBe(204);
    expect((await me(alice.token)).body.mfa).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    expect((await login('alice')).body.token).toEqual(expect.any(String));
    expect((await off('alice-password', nextCode(secret))).status).toBe(409);
  });

  it('new recovery codes replace the old ones', async () => {
    const res = await t.request('POST', '/api/auth/mfa/recovery-codes', {
      token: alice.token,
      json: { code: nextCode(secret) },
    });
    expect(res.status).toBe(200);
    expect(res.body.recoveryCodes).toHaveLength(10);
    expect(res.body.recoveryCodes).not.toContain(recoveryCodes[1]);
    expect((await loginMfa(await mfaTokenOf('alice'), recoveryCodes[1]!)).status).toBe(401);
    expect((await loginMfa(await mfaTokenOf('alice'), res.body.recoveryCodes[0])).status).toBe(200);
    const wrong = await t.request('POST', '/api/auth/mfa/recovery-codes', { token: alice.token, json: { code: '000000' } });
    expect(wrong.status).toBe(403);
  });

  it('an admin turns every factor of a user off (DELETE /api/admin/users/{id}/mfa); the user view says mfa', async () => {
    const admin = await t.adminToken();
    const view = await t.request('GET', `/api/admin/users/${alice.userId}`, { token: admin });
    expect(view.body.mfa).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 10 });
    expect((await t.request('DELETE', `/api/admin/users/${alice.userId}/mfa`, { token: alice.token })).status).toBe(403);
    expect((await t.request('DELETE', '/api/admin/users/no-such-user/mfa', { token: admin })).status).toBe(404);
    const pending = await mfaTokenOf('alice');
    const reset = await t.request('DELETE', `/api/admin/users/${alice.userId}/mfa`, { token: admin });
    expect(reset.status).toBe(204);
    expect((await t.request('GET', `/api/admin/users/${alice.userId}`, { token: admin })).body.mfa.totp).toBe(false);
    // A challenge from before the reset is void; the password alone signs in now.
    expect((await loginMfa(pending, nextCode(secret))).status).toBe(401);
    expect((await login('alice')).body.token).toEqual(expect.any(String));
    expect((await me(alice.token)).status).toBe(200);
  });
});
