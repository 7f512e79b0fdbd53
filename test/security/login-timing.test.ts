import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, toReply, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());

// Costly enough that argon2, not HTTP noise, is most of each attempt, as it is in production.
const ARGON2 = { memoryCost: 8192, timeCost: 2 };
const ROUNDS = 15;

let address = 0;
/** Every attempt from its own address, so the throttle never steps in and only the credential check is timed. */
async function login(username: string, password: string): Promise<{ ms: number; status: number; body: unknown }> {
  address += 1;
  const from = `10.${(address >> 16) & 0xff}.${(address >> 8) & 0xff}.${address & 0xff}`;
  const started = performance.now();
  const res = await t.request('POST', '/api/auth/login', {
    json: { username, password },
    headers: { 'x-forwarded-for': from },
  });
  return { ms: performance.now() - started, status: res.status, body: res.body };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

describe('login leaks nothing', () => {
  beforeEach(async () => {
    t = await makeHttp({ trustProxy: 1, argon2: ARGON2 });
    await t.user('alice');
  });

  it('answers an unknown user and a wrong password with the same status and body', async () => {
    const unknown = await login('nobody-here', 'wrong-password');
    const wrong = await login('alice', 'wrong-password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('takes the same time (median of repeated attempts) for an unknown user and a wrong password', async () => {
    // Warm-up: the first unknown user also makes the dummy hash.
    await login('nobody-here', 'wrong-password');
    await login('alice', 'wrong-password');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      // Interleaved, so load on the machine falls on both series alike.
      unknown.push((await login(`nobody-${i}`, 'wrong-password')).ms);
      wrong.push((await login('alice', `wrong-password-${i}`)).ms);
    }
    const ratio = median(unknown) / median(wrong);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('never accepts an API token (or a session token) as the password', async () => {
    const session = await t.userToken('alice');
    const created = await t.request('POST', '/api/token', { token: session, json: { name: 'uploader' } });
    expect(created.status).toBe(201);
    // Straight through fetch: the secret scan of t.request would take a token sent as a password for a leaked one.
    const tryPassword = async (password: string) =>
      toReply(
        await fetch(`${t.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'alice', password }),
        }),
      );
    const asPassword = await tryPassword(created.body.token);
    expect(asPassword.status).toBe(401);
    expect((await tryPassword(session)).status).toBe(401);
    expect(asPassword.body).toEqual((await login('alice', 'wrong-password')).body);
  });
});
