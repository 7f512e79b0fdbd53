import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { clientAddress as clientOf, throttleGroup } from '../../src/adapters/http/server/client-address.js';
import { proxySettings } from '../../src/adapters/http/server/trust-proxy.js';
import {
  GUESSES_PER_TARGET_AND_ADDRESS,
  GUESSES_PER_TARGET_PER_HOUR,
  GUESSES_PER_TARGET_WHILE_SPRAYING,
  SPRAYED_TARGETS,
  UNKNOWN_SHARE_LOOKUPS,
} from '../../src/application/auth/throttle-rules.js';
import { makeCore, signUp } from '../support/core.js';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

let t: HttpTest;

/** The address a request from `socket` with this X-Forwarded-For gets in an app behind `hops` proxies (TRUST_PROXY). */
function clientAddress(socket: string | undefined, forwardedFor: string, hops: number): string {
  const req = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socket } };
  const app = new Koa(proxySettings(hops));
  return clientOf(app.createContext(req as unknown as IncomingMessage, {} as ServerResponse));
}

const login = (username: string, password: string, from?: string) =>
  t.request('POST', '/api/auth/login', {
    json: { username, password },
    headers: from === undefined ? {} : { 'x-forwarded-for': from },
  });

/** A 429 in the one error shape, with a Retry-After header that matches the body. */
function expectLockout(res: Reply): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'rate_limited', message: expect.any(String), retryAfter: expect.any(Number) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(retryAfter).toBe(res.body.retryAfter);
}

async function failLogins(count: number, username: (i: number) => string, from: (i: number) => string | undefined) {
  for (let i = 0; i < count; i += 1) {
    const res = await login(username(i), 'wrong-password', from(i));
    expect(res.status, `failure ${i + 1}`).toBe(401);
  }
}

describe('login throttling', () => {
  afterEach(() => t.close());

  it('locks an account out from an address after 10 failures; the right password then gets the same 429', async () => {
    t = await makeHttp();
    await t.user('alice');
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS, () => 'alice', () => undefined);
    const wrong = await login('alice', 'wrong-password');
    expectLockout(wrong);
    const right = await login('alice', 'alice-password');
    expectLockout(right);
    expect({ ...right.body, retryAfter: 0 }).toEqual({ ...wrong.body, retryAfter: 0 });
    // Case does not open a new account key.
    expectLockout(await login('ALICE', 'alice-password'));
  });

  it('10 wrong passwords at one account from one address never stop another account from logging in there', async () => {
    // No TRUST_PROXY: every client shares the socket address, as every user behind an unconfigured reverse proxy does.
    t = await makeHttp();
    await t.user('alice');
    await t.user('bob');
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS, () => 'alice', () => undefined);
    expectLockout(await login('alice', 'alice-password'));
    // bob may even mistype first: only failures at bob count against bob.
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS - 1, () => 'bob', () => undefined);
    expect((await login('bob', 'bob-password')).status).toBe(200);
    expect((await login('nobody', 'wrong-password')).status).toBe(401);
  });

  it('an address failing at many accounts keeps 3 guesses at each, and never loses an account it did not fail at', async () => {
    t = await makeHttp();
    for (const name of ['alice', 'bob', 'carol']) await t.user(name);
    await failLogins(SPRAYED_TARGETS - 1, (i) => `nobody-${i}`, () => undefined);
    await failLogins(1, () => 'alice', () => undefined);
    // Spraying now: carol gets 3 guesses from here, and then not even the right password is judged.
    await failLogins(GUESSES_PER_TARGET_WHILE_SPRAYING, () => 'carol', () => undefined);
    expectLockout(await login('carol', 'carol-password'));
    // An account it has not failed at is judged as ever, and one it failed at fewer than 3 times too.
    expect((await login('bob', 'bob-password')).status).toBe(200);
    expect((await login('someone-new', 'wrong-password')).status).toBe(401);
    expect((await login('alice', 'alice-password')).status).toBe(200);
  });

  it('a success takes its account off the accounts an address has failed at', async () => {
    t = await makeHttp();
    await t.user('alice');
    await failLogins(SPRAYED_TARGETS - 1, (i) => `nobody-${i}`, () => undefined);
    await failLogins(1, () => 'alice', () => undefined);
    expect((await login('alice', 'alice-password')).status).toBe(200);
    // 9 accounts failed at, not 10: the address is not spraying, so nobody-0 gets more than 3 guesses.
    await failLogins(GUESSES_PER_TARGET_WHILE_SPRAYING + 1, () => 'nobody-0', () => undefined);
    await failLogins(1, () => 'nobody-9', () => undefined);
    expectLockout(await login('nobody-0', 'wrong-password'));
  });

  it("a success forgives that account's failures from the address, not other accounts'", async () => {
    t = await makeHttp();
    await t.user('alice');
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS - 1, () => 'mallory', () => undefined);
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS - 1, () => 'alice', () => undefined);
    expect((await login('alice', 'alice-password')).status).toBe(200);
    // alice has all 10 again; mallory has 1 left.
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS, () => 'alice', () => undefined);
    expectLockout(await login('alice', 'alice-password'));
    await failLogins(1, () => 'mallory', () => undefined);
    expectLockout(await login('mallory', 'wrong-password'));
  });

  it('caps failures per account at 100 an hour, whatever the addresses', async () => {
    t = await makeHttp({ trustProxy: 1 });
    await t.user('alice');
    await t.user('bob');
    // 9 per address: no address reaches its own limit.
    const from = (i: number) => `198.51.100.${Math.floor(i / (GUESSES_PER_TARGET_AND_ADDRESS - 1))}`;
    await failLogins(GUESSES_PER_TARGET_PER_HOUR, () => 'alice', from);
    expectLockout(await login('alice', 'alice-password', '192.0.2.200'));
    expect((await login('bob', 'bob-password', '192.0.2.200')).status).toBe(200);
  });

  it('caps one account at 100 an hour even when every address spends its whole allowance, and only that account', async () => {
    t = await makeHttp({ trustProxy: 1 });
    await t.user('alice');
    await t.user('bob');
    const addresses = GUESSES_PER_TARGET_PER_HOUR / GUESSES_PER_TARGET_AND_ADDRESS;
    const from = (i: number) => `198.51.100.${Math.floor(i / GUESSES_PER_TARGET_AND_ADDRESS)}`;
    await failLogins(GUESSES_PER_TARGET_PER_HOUR, () => 'alice', from);
    expectLockout(await login('alice', 'alice-password', '192.0.2.200'));
    for (let a = 0; a < addresses; a += 1) {
      expect((await login('bob', 'bob-password', `198.51.100.${a}`)).status, `address ${a}`).toBe(200);
    }
  });

  it('ignores X-Forwarded-For when TRUST_PROXY is off', async () => {
    t = await makeHttp();
    await t.user('alice');
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS, () => 'alice', (i) => `192.0.2.${i}`);
    expectLockout(await login('alice', 'alice-password', '192.0.2.250'));
  });

  it('with TRUST_PROXY on, reads only the hop the proxy appended, not what the client put before it', async () => {
    t = await makeHttp({ trustProxy: 1 });
    await t.user('alice');
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS, () => 'alice', (i) => `10.9.9.${i}, 192.0.2.1`);
    expectLockout(await login('alice', 'alice-password', '10.9.9.99, 192.0.2.1'));
    expect((await login('alice', 'alice-password', '192.0.2.2')).status).toBe(200);
  });

  it('counts a whole IPv6 /56 as one address', async () => {
    t = await makeHttp({ trustProxy: 1 });
    await t.user('alice');
    await failLogins(GUESSES_PER_TARGET_AND_ADDRESS, () => 'alice', (i) => `2001:db8:0:1${i.toString(16)}0::${i + 1}`);
    expectLockout(await login('alice', 'alice-password', '2001:db8:0:1ff:ffff:ffff:ffff:ffff'));
    expect((await login('alice', 'alice-password', '2001:db8:0:200::1')).status).toBe(200);
  });
});

describe('concurrent guesses', () => {
  it('judge exactly the allowance, at one account from one address and while spraying', async () => {
    const ctx = makeCore();
    await signUp(ctx, 'alice');
    const guess = (username: string) =>
      ctx.core.login.execute({ username, password: 'wrong-password', client: '192.0.2.1' });
    const codes = async (count: number, username: string) => {
      const outcomes = await Promise.allSettled(Array.from({ length: count }, () => guess(username)));
      return outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code: string }).code : 'ok'));
    };
    const burst = await codes(3 * GUESSES_PER_TARGET_AND_ADDRESS, 'alice');
    expect(burst.filter((code) => code === 'unauthorized')).toHaveLength(GUESSES_PER_TARGET_AND_ADDRESS);
    expect(burst.filter((code) => code === 'rate_limited')).toHaveLength(2 * GUESSES_PER_TARGET_AND_ADDRESS);
    for (let i = 1; i < SPRAYED_TARGETS; i += 1) await codes(1, `nobody-${i}`);
    const spraying = await codes(3 * GUESSES_PER_TARGET_WHILE_SPRAYING, 'carol');
    expect(spraying.filter((code) => code === 'unauthorized')).toHaveLength(GUESSES_PER_TARGET_WHILE_SPRAYING);
  });
});

describe('client address', () => {
  it('groups IPv6 by /56 and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(throttleGroup('2001:db8:0:1ab::1')).toBe('2001:db8:0:100::/56');
    expect(throttleGroup('2001:0db8:0000:01ff:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:100::/56');
    expect(throttleGroup('2001:db8:0:200::1')).toBe('2001:db8:0:200::/56');
    expect(throttleGroup('2001:db8:0:1ab::1')).not.toBe(throttleGroup('2001:db8:1:1ab::1'));
    expect(throttleGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(throttleGroup('::ffff:c000:201')).toBe('192.0.2.1');
    expect(throttleGroup('192.0.2.1')).toBe('192.0.2.1');
    expect(throttleGroup('::1')).toBe('0:0:0:0::/56');
  });

  it('walks X-Forwarded-For from its end, one entry per trusted hop, and stops at garbage', () => {
    const xff = '203.0.113.1, 198.51.100.2, 192.0.2.3';
    expect(clientAddress('::ffff:10.0.0.1', xff, 0)).toBe('10.0.0.1');
    expect(clientAddress('::ffff:10.0.0.1', xff, 1)).toBe('192.0.2.3');
    expect(clientAddress('10.0.0.1', xff, 2)).toBe('198.51.100.2');
    expect(clientAddress('10.0.0.1', xff, 9)).toBe('203.0.113.1');
    expect(clientAddress('10.0.0.1', 'evil, not-an-ip', 2)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', '[2001:db8::1]:443', 1)).toBe('2001:db8:0:0::/56');
    expect(clientAddress('10.0.0.1', '192.0.2.9:5000', 1)).toBe('192.0.2.9');
    expect(clientAddress(undefined, '192.0.2.9', 1)).toBe('unknown');
  });
});

describe('share throttling', () => {
  afterEach(() => t.close());

  async function protectedShare(): Promise<{ shareId: string; pasteId: string; owner: string }> {
    const owner = await t.userToken('alice');
    const paste = await t.request('POST', '/api/paste', { token: owner, json: { content: 'secret notes' } });
    const share = await t.request('POST', '/api/share', {
      token: owner,
      json: { type: 'paste', id: paste.body.id, password: 'share-pass' },
    });
    expect(share.status).toBe(201);
    return { shareId: share.body.id, pasteId: paste.body.id, owner };
  }

  it('locks a share password out after 10 wrong guesses from an address, the right one included', async () => {
    t = await makeHttp({ trustProxy: 1 });
    const { shareId, pasteId, owner } = await protectedShare();
    const read = (password: string, from = '192.0.2.1') =>
      t.request('GET', `/api/share/${shareId}`, { headers: { 'x-share-password': password, 'x-forwarded-for': from } });
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS; i += 1) {
      expect((await read(`guess-${i}`)).body.error).toBe('share_password_invalid');
    }
    expectLockout(await read('wrong-again'));
    expectLockout(await read('share-pass'));
    const content = await t.request('GET', `/api/share/${shareId}/content`, {
      headers: { 'x-share-password': 'share-pass', 'x-forwarded-for': '192.0.2.1' },
    });
    expectLockout(content);
    const viaHeader = await t.request('GET', `/api/paste/${pasteId}`, {
      headers: { 'x-share-id': shareId, 'x-share-password': 'share-pass', 'x-forwarded-for': '192.0.2.1' },
    });
    expectLockout(viaHeader);
    expect((await read('share-pass', '192.0.2.2')).status).toBe(200);
    expect((await t.request('GET', `/api/share/${shareId}`, { token: owner })).status).toBe(200);
  });

  it('caps wrong guesses at one share at 100 an hour, whatever the addresses', async () => {
    t = await makeHttp({ trustProxy: 1 });
    const { shareId } = await protectedShare();
    for (let i = 0; i < GUESSES_PER_TARGET_PER_HOUR; i += 1) {
      const from = `198.51.100.${Math.floor(i / (GUESSES_PER_TARGET_AND_ADDRESS - 1))}`;
      const res = await t.request('GET', `/api/share/${shareId}`, {
        headers: { 'x-share-password': `guess-${i}`, 'x-forwarded-for': from },
      });
      expect(res.status).toBe(401);
    }
    const late = await t.request('GET', `/api/share/${shareId}`, {
      headers: { 'x-share-password': 'share-pass', 'x-forwarded-for': '192.0.2.200' },
    });
    expectLockout(late);
  });

  it('wrong passwords at one share never stop the right password of another share from that address', async () => {
    t = await makeHttp();
    const first = await protectedShare();
    const second = await protectedShare();
    const read = (shareId: string, password: string) =>
      t.request('GET', `/api/share/${shareId}`, { headers: { 'x-share-password': password } });
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS; i += 1) {
      expect((await read(first.shareId, `guess-${i}`)).body.error).toBe('share_password_invalid');
    }
    expectLockout(await read(first.shareId, 'share-pass'));
    expect((await read(second.shareId, 'share-pass')).status).toBe(200);
  });

  it('50 unknown share ids from one address: 404, then 429; valid shares still open there, protected ones too', async () => {
    t = await makeHttp();
    const owner = await t.userToken('alice');
    const paste = await t.request('POST', '/api/paste', { token: owner, json: { content: 'hello' } });
    const share = await t.request('POST', '/api/share', { token: owner, json: { type: 'paste', id: paste.body.id } });
    const locked = await protectedShare();
    const dead = 50;
    for (let i = 0; i < dead; i += 1) {
      const res = await t.request('GET', `/api/share/guessed-id-${i}`);
      if (i < UNKNOWN_SHARE_LOOKUPS) expect(res.status, `lookup ${i + 1}`).toBe(404);
      else expectLockout(res);
    }
    expectLockout(await t.request('GET', '/api/share/guessed-id-again/content'));
    expect((await t.request('GET', `/api/share/${share.body.id}`)).status).toBe(200);
    expect((await t.request('GET', `/api/share/${share.body.id}/content`)).text).toBe('hello');
    const viaHeader = await t.request('GET', `/api/paste/${paste.body.id}`, { headers: { 'x-share-id': share.body.id } });
    expect(viaHeader.status).toBe(200);
    const unlock = { 'x-share-password': 'share-pass' };
    expect((await t.request('GET', `/api/share/${locked.shareId}`, { headers: unlock })).status).toBe(200);
    const content = await t.request('GET', `/api/share/${locked.shareId}/content`, { headers: unlock });
    expect(content.text).toBe('secret notes');
    const wrong = await t.request('GET', `/api/share/${locked.shareId}`, { headers: { 'x-share-password': 'nope' } });
    expect(wrong.body.error).toBe('share_password_invalid');
  });
});
