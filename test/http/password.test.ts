import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GUESSES_PER_TARGET_AND_ADDRESS } from '../../src/application/auth/throttle-rules.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const DAY_MS = 24 * 3_600_000;
const NEW_PASSWORD = 'a-brand-new-password';

let t: HttpTest;
afterEach(() => t.close());

const change = (token: string, currentPassword: string, newPassword = NEW_PASSWORD) =>
  t.request('POST', '/api/auth/password', { token, json: { currentPassword, newPassword } });
const login = (username: string, password: string) =>
  t.request('POST', '/api/auth/login', { json: { username, password } });
const me = async (token: string) => (await t.request('GET', '/api/auth/me', { token })).status;

describe('POST /api/auth/password', () => {
  let alice: string;
  let others: string[];
  let api: string;
  beforeEach(async () => {
    t = await makeHttp();
    alice = (await t.user('alice')).token;
    others = [(await login('alice', 'alice-password')).body.token, (await login('alice', 'alice-password')).body.token];
    api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
  });

  it('answers 204, ends the other sessions, keeps this one and the API tokens, and swaps the passwords', async () => {
    const res = await change(alice, 'alice-password');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await me(alice)).toBe(200);
    for (const token of others) {
      const refused = await t.request('GET', '/api/auth/me', { token });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('unauthorized');
    }
    expect((await t.request('GET', '/api/usage/stats', { token: api })).status).toBe(200);
    expect((await login('alice', 'alice-password')).status).toBe(401);
    const fresh = await login('alice', NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(await me(fresh.body.token)).toBe(200);
  });

  it('answers 403 forbidden to a wrong current password, and changes nothing', async () => {
    const res = await change(alice, 'not-the-password');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', message: 'The current password is wrong' });
    for (const token of [alice, ...others]) expect(await me(token)).toBe(200);
    expect((await login('alice', NEW_PASSWORD)).status).toBe(401);
    expect((await login('alice', 'alice-password')).status).toBe(200);
  });

  it('answers 403 to an API token, even with the right password', async () => {
    const res = await change(api, 'alice-password');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
    expect((await login('alice', 'alice-password')).status).toBe(200);
  });

  it('answers 401 without a valid session', async () => {
    expect((await t.request('POST', '/api/auth/password', { json: { currentPassword: 'x', newPassword: NEW_PASSWORD } })).status).toBe(401);
    expect((await change('not-a-token', 'alice-password')).status).toBe(401);
  });

  it('answers 400 to a new password outside 8 to 256 characters, a missing or unknown field, or a wrong type', async () => {
    for (const newPassword of ['short7!', 'x'.repeat(257)]) {
      const res = await change(alice, 'alice-password', newPassword);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'bad_request', field: 'newPassword' });
    }
    const bodies = [
      { currentPassword: 'alice-password' },
      { newPassword: NEW_PASSWORD },
      { currentPassword: 'alice-password', newPassword: NEW_PASSWORD, logoutOthers: false },
      { currentPassword: 'alice-password', newPassword: 12345678 },
      { password: 'alice-password', newPassword: NEW_PASSWORD },
    ];
    for (const json of bodies) {
      const res = await t.request('POST', '/api/auth/password', { token: alice, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    const unknown = await t.request('POST', '/api/auth/password', { token: alice, json: bodies[2] });
    expect(unknown.body.issues).toContainEqual({ path: 'logoutOthers', message: 'logoutOthers is not a field of this request' });
    expect((await login('alice', 'alice-password')).status).toBe(200);
  });

  it('locks out repeated wrong current passwords (429 with Retry-After) without holding back other accounts', async () => {
    const bob = (await t.user('bob')).token;
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS; i++) {
      expect((await change(alice, `wrong-password-${i}`)).status, `guess ${i + 1}`).toBe(403);
    }
    const locked = await change(alice, 'alice-password');
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: 'rate_limited', message: expect.any(String), retryAfter: expect.any(Number) });
    expect(Number(locked.headers.get('retry-after'))).toBe(locked.body.retryAfter);
    // The login of the same account from the same address shares the lockout; the session itself is untouched.
    expect((await login('alice', 'alice-password')).status).toBe(429);
    expect(await me(alice)).toBe(200);
    // bob, from the same address, is not held back.
    expect((await login('bob', 'bob-password')).status).toBe(200);
    expect((await change(bob, 'bob-password')).status).toBe(204);
  });
});

describe('a session over time, through HTTP', () => {
  it('stays valid when used every day for 40 days with a 30-day lifetime; an unused one expires at 30', async () => {
    t = await makeHttp({ sessionTtlMs: 30 * DAY_MS });
    const used = (await t.user('alice')).token;
    const unused = (await login('alice', 'alice-password')).body.token;
    for (let day = 1; day <= 40; day++) {
      t.clock.advance(DAY_MS);
      expect(await me(used), `day ${day}`).toBe(200);
      if (day === 30) expect(await me(unused)).toBe(401);
    }
  });

  it('ends every session SESSION_MAX_DAYS after its login, used or not', async () => {
    t = await makeHttp({ sessionTtlMs: 30 * DAY_MS, sessionMaxMs: 45 * DAY_MS });
    const used = (await t.user('alice')).token;
    for (let day = 1; day < 45; day++) {
      t.clock.advance(DAY_MS);
      expect(await me(used), `day ${day}`).toBe(200);
    }
    t.clock.advance(DAY_MS);
    expect(await me(used)).toBe(401);
    expect((await login('alice', 'alice-password')).status).toBe(200);
  });
});
