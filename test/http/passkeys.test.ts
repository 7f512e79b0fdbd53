import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { MAX_PASSKEYS } from '../../src/application/auth/passkeys/ceremony.js';
import {
  CODE_GUESSES_PER_ACCOUNT_AND_ADDRESS,
  PASSKEY_LOGIN_FAILURES_PER_ADDRESS,
} from '../../src/application/auth/throttle-rules.js';
import { issueSession } from '../../src/application/auth/issue-session.js';
import type { User } from '../../src/domain/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { SoftAuthenticator, type Lies } from '../support/soft-authenticator.js';
import { totpAt } from '../support/totp.js';

const PUBLIC = 'https://coffer.test';
const RP_ID = 'coffer.test';
const OWN_PAGE = { 'x-coffer-csrf': '1', origin: PUBLIC, 'sec-fetch-site': 'same-origin' };

let t: HttpTest;
afterEach(() => t.close());

const me = (token: string) => t.request('GET', '/api/auth/me', { token });
const login = (username: string) =>
  t.request('POST', '/api/auth/login', { json: { username, password: `${username}-password` } });

async function registrationOptions(token: string) {
  const res = await t.request('POST', '/api/auth/passkeys/options', { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Registers a new credential of `authenticator` for the session `token`: the answer of POST /api/auth/passkeys. */
async function register(
  token: string,
  authenticator: SoftAuthenticator,
  name?: string,
  lies: Lies & { reuse?: string } = {},
) {
  const response = authenticator.create(await registrationOptions(token), lies);
  return t.request('POST', '/api/auth/passkeys', { token, json: { ...(name === undefined ? {} : { name }), response } });
}

async function loginOptions() {
  const res = await t.request('POST', '/api/auth/passkey/options');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const passkeyLogin = (response: unknown) => t.request('POST', '/api/auth/passkey/login', { json: { response } });

/** A sign-in with the authenticator alone: options, assertion, answer. */
async function signInWith(authenticator: SoftAuthenticator, lies: Lies & { credentialId?: string } = {}) {
  return passkeyLogin(authenticator.get(await loginOptions(), lies));
}

async function mfaTokenOf(username: string): Promise<{ mfaToken: string; methods: string[] }> {
  const res = await login(username);
  expect(res.body.mfaRequired).toBe(true);
  return res.body;
}

async function mfaOptions(mfaToken: string) {
  const res = await t.request('POST', '/api/auth/login/mfa/options', { json: { mfaToken } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const mfaWithPasskey = (mfaToken: string, passkey: unknown) =>
  t.request('POST', '/api/auth/login/mfa', { json: { mfaToken, passkey } });

describe('registering passkeys (/api/auth/passkeys)', () => {
  beforeEach(async () => {
    t = await makeHttp({ publicUrl: PUBLIC });
  });

  it('hands out creation options for this site and this user, registers the answer, and counts it', async () => {
    const alice = await t.user('alice');
    const res = await t.request('POST', '/api/auth/passkeys/options', { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const options = res.body;
    expect(options.rp).toEqual({ id: RP_ID, name: 'Coffer' });
    // The user handle is the user's id, never the name.
    expect(options.user).toEqual({ id: isoBase64URL.fromUTF8String(alice.userId), name: 'alice', displayName: 'alice' });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    expect(options.attestation).toBe('none');
    expect(options.pubKeyCredParams).toContainEqual({ alg: -7, type: 'public-key' });
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = new SoftAuthenticator();
    const response = authenticator.create(options);
    const created = await t.request('POST', '/api/auth/passkeys', { token: alice.token, json: { name: '  Laptop  ', response } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null });
    expect((await me(alice.token)).body.mfa).toEqual({ totp: false, passkeys: 1, recoveryCodesLeft: 0 });
    const list = await t.request('GET', '/api/auth/passkeys', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    // The next options exclude it, so an authenticator is not registered twice.
    expect((await registrationOptions(alice.token)).excludeCredentials).toEqual([
      { id: authenticator.ids()[0], type: 'public-key', transports: ['internal'] },
    ]);
  });

  it('names a passkey "Passkey" when no name comes; a name is 1 to 64 characters after trimming', async () => {
    const { token } = await t.user('alice');
    expect((await register(token, new SoftAuthenticator())).body.name).toBe('Passkey');
    for (const name of ['   ', 'x'.repeat(65)]) {
      const refused = await register(token, new SoftAuthenticator(), name);
      expect(refused.status).toBe(400);
      expect(refused.body.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
    }
    expect((await register(token, new SoftAuthenticator(), 'é'.repeat(64))).status).toBe(201);
    expect((await me(token)).body.mfa.passkeys).toBe(2);
  });

  it('renames and removes only the caller’s own passkeys', async () => {
    const alice = await t.user('alice');
    const bob = await t.user('bob');
    const id = (await register(alice.token, new SoftAuthenticator(), 'Phone')).body.id;
    const renamed = await t.request('PATCH', `/api/auth/passkeys/${id}`, { token: alice.token, json: { name: ' Old phone ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Old phone');
    expect((await t.request('PATCH', `/api/auth/passkeys/${id}`, { token: alice.token, json: { name: '' } })).status).toBe(400);
    expect((await t.request('PATCH', `/api/auth/passkeys/${id}`, { token: bob.token, json: { name: 'mine' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/auth/passkeys/${id}`, { token: bob.token })).status).toBe(404);
    expect((await me(alice.token)).body.mfa.passkeys).toBe(1);
    expect((await t.request('DELETE', `/api/auth/passkeys/${id}`, { token: alice.token })).status).toBe(204);
    expect((await t.request('DELETE', `/api/auth/passkeys/${id}`, { token: alice.token })).status).toBe(404);
    expect((await me(alice.token)).body.mfa.passkeys).toBe(0);
    expect((await t.request('GET', '/api/auth/passkeys', { token: alice.token })).body).toEqual([]);
  });

  it('adding a passkey ends the other sessions; this one and API tokens keep working', async () => {
    const { token } = await t.user('alice');
    const other = (await login('alice')).body.token;
    const api = (await t.request('POST', '/api/token', { token, json: { name: 'ci' } })).body.token;
    expect((await register(token, new SoftAuthenticator())).status).toBe(201);
    expect((await me(other)).status).toBe(401);
    expect((await me(token)).status).toBe(200);
    expect((await t.request('GET', '/api/usage/stats', { token: api })).status).toBe(200);
    // API tokens manage no passkeys.
    expect((await t.request('POST', '/api/auth/passkeys/options', { token: api })).status).toBe(403);
    expect((await t.request('GET', '/api/auth/passkeys', { token: api })).status).toBe(403);
    expect((await t.request('GET', '/api/auth/passkeys')).status).toBe(401);
  });

  it('refuses an answer with the wrong origin, RP id, challenge or type, or to options already used or not its own', async () => {
    const alice = await t.user('alice');
    const bob = await t.user('bob');
    const authenticator = new SoftAuthenticator();
    const refusals: [string, Lies][] = [
      ['origin', { origin: 'https://evil.test' }],
      ['RP id', { rpId: 'evil.test' }],
      ['challenge', { challenge: isoBase64URL.fromUTF8String('not the challenge handed out') }],
      ['type', { type: 'webauthn.get' }],
    ];
    for (const [what, lies] of refusals) {
      const refused = await register(alice.token, authenticator, undefined, lies);
      expect(refused.status, what).toBe(400);
      expect(refused.body.error).toBe('bad_request');
    }
    // Options answered twice: the second answer finds its challenge spent.
    const options = await registrationOptions(alice.token);
    const first = authenticator.create(options);
    expect((await t.request('POST', '/api/auth/passkeys', { token: alice.token, json: { response: first } })).status).toBe(201);
    const again = authenticator.create(options, { reuse: undefined });
    expect((await t.request('POST', '/api/auth/passkeys', { token: alice.token, json: { response: again } })).status).toBe(400);
    // Bob cannot answer Alice's options (nor spend them).
    const hers = await registrationOptions(alice.token);
    const answered = await t.request('POST', '/api/auth/passkeys', {
      token: bob.token,
      json: { response: new SoftAuthenticator().create(hers) },
    });
    expect(answered.status).toBe(400);
    expect((await me(bob.token)).body.mfa.passkeys).toBe(0);
    expect((await me(alice.token)).body.mfa.passkeys).toBe(1);
  });

  it('refuses a credential registered already (409), whoever holds it, and counts nothing for it', async () => {
    const alice = await t.user('alice');
    const bob = await t.user('bob');
    const authenticator = new SoftAuthenticator();
    expect((await register(alice.token, authenticator)).status).toBe(201);
    const [id] = authenticator.ids();
    for (const token of [alice.token, bob.token]) {
      const twice = await register(token, authenticator, undefined, { reuse: id });
      expect(twice.status).toBe(409);
      expect(twice.body.error).toBe('conflict');
    }
    expect((await me(alice.token)).body.mfa.passkeys).toBe(1);
    expect((await me(bob.token)).body.mfa.passkeys).toBe(0);
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys per user: the options and the registration answer 409`, async () => {
    const { token } = await t.user('alice');
    // Options taken before the maximum is reached still meet it at registration.
    const early = await registrationOptions(token);
    for (let i = 0; i < MAX_PASSKEYS; i++) {
      expect((await register(token, new SoftAuthenticator(), `key ${i}`)).status).toBe(201);
    }
    const options = await t.request('POST', '/api/auth/passkeys/options', { token });
    expect(options.status).toBe(409);
    expect(options.body).toMatchObject({ error: 'conflict', limit: 'passkeys', max: MAX_PASSKEYS });
    const late = await t.request('POST', '/api/auth/passkeys', {
      token,
      json: { response: new SoftAuthenticator().create(early) },
    });
    expect(late.status).toBe(409);
    expect(late.body.limit).toBe('passkeys');
    expect((await me(token)).body.mfa.passkeys).toBe(MAX_PASSKEYS);
    expect((await t.request('GET', '/api/auth/passkeys', { token })).body).toHaveLength(MAX_PASSKEYS);
  });
});

describe('the relying party', () => {
  it('is PUBLIC_URL’s, or else the origin the request came to; an IP address cannot be one (409)', async () => {
    t = await makeHttp({ trustProxy: 1 });
    const { token } = await t.user('alice');
    const refused = await t.request('POST', '/api/auth/passkeys/options', { token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict', reason: 'ip_address' });
    expect(refused.body.message).toContain('PUBLIC_URL');
    expect((await t.request('POST', '/api/auth/passkey/options')).status).toBe(409);

    const proxied = { 'x-forwarded-host': 'files.example', 'x-forwarded-proto': 'https' };
    const options = await t.request('POST', '/api/auth/passkeys/options', { token, headers: proxied });
    expect(options.status).toBe(200);
    expect(options.body.rp.id).toBe('files.example');
    const response = new SoftAuthenticator().create(options.body);
    const created = await t.request('POST', '/api/auth/passkeys', { token, headers: proxied, json: { response } });
    expect(created.status).toBe(201);
  });

  it('refuses an answer brought to another relying party than the options were made for', async () => {
    t = await makeHttp({ trustProxy: 1 });
    const { token } = await t.user('alice');
    const options = await t.request('POST', '/api/auth/passkeys/options', {
      token,
      headers: { 'x-forwarded-host': 'one.example', 'x-forwarded-proto': 'https' },
    });
    const response = new SoftAuthenticator().create(options.body);
    const elsewhere = await t.request('POST', '/api/auth/passkeys', {
      token,
      headers: { 'x-forwarded-host': 'two.example', 'x-forwarded-proto': 'https' },
      json: { response },
    });
    expect(elsewhere.status).toBe(400);
  });
});

describe('signing in with a passkey alone (/api/auth/passkey)', () => {
  let alice: { token: string; userId: string };
  let authenticator: SoftAuthenticator;
  beforeEach(async () => {
    t = await makeHttp({ publicUrl: PUBLIC });
    alice = await t.user('alice');
    authenticator = new SoftAuthenticator();
    expect((await register(alice.token, authenticator, 'Laptop')).status).toBe(201);
  });

  it('answers what a login answers, without a password, and records when the passkey was used', async () => {
    const options = await loginOptions();
    expect(options).toEqual({
      rpId: RP_ID,
      challenge: expect.any(String),
      timeout: expect.any(Number),
      userVerification: 'preferred',
    });
    const res = await passkeyLogin(authenticator.get(options));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), user: { id: alice.userId, username: 'alice' } });
    expect((await me(res.body.token)).status).toBe(200);
    const [listed] = (await t.request('GET', '/api/auth/passkeys', { token: res.body.token })).body;
    expect(listed.lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('is a full sign-in even for a user with TOTP: no second step', async () => {
    const setup = await t.request('POST', '/api/auth/mfa/totp', { token: alice.token });
    t.clock.advance(30_000);
    const code = totpAt(setup.body.secret, t.clock.now());
    expect((await t.request('POST', '/api/auth/mfa/totp/confirm', { token: alice.token, json: { code } })).status).toBe(200);
    const res = await signInWith(authenticator);
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
  });

  it('sets the browser session with POST /api/auth/session/passkey, under the same origin rules', async () => {
    const response = authenticator.get(await loginOptions());
    const foreign = await t.request('POST', '/api/auth/session/passkey', {
      json: { response },
      headers: { ...OWN_PAGE, origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.status).toBe(403);
    const res = await t.request('POST', '/api/auth/session/passkey', { json: { response }, headers: OWN_PAGE });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.userId, username: 'alice', mustChangePassword: false });
    expect(res.body.token).toBeUndefined();
    expect(res.headers.get('set-cookie')).toMatch(/coffer_session=[A-Za-z0-9_-]+;.*httponly/i);
  });

  it('still signs in a user whose password must change, who is told so', async () => {
    const admin = await t.adminToken();
    const reset = await t.request('PATCH', `/api/admin/users/${alice.userId}`, {
      token: admin,
      json: { password: 'a-new-password-from-admin' },
    });
    expect(reset.status).toBe(200);
    const response = authenticator.get(await loginOptions());
    const res = await t.request('POST', '/api/auth/session/passkey', { json: { response }, headers: OWN_PAGE });
    expect(res.status).toBe(200);
    expect(res.body.mustChangePassword).toBe(true);
  });

  it('refuses a wrong signature, challenge, origin, RP id or type, and each challenge after its first use', async () => {
    const refusals: [string, Lies][] = [
      ['signature', { badSignature: true }],
      ['challenge', { challenge: isoBase64URL.fromUTF8String('made up') }],
      ['origin', { origin: 'https://evil.test' }],
      ['RP id', { rpId: 'evil.test' }],
      ['type', { type: 'webauthn.create' }],
    ];
    for (const [what, lies] of refusals) {
      const refused = await signInWith(authenticator, lies);
      expect(refused.status, what).toBe(401);
      expect(refused.body.error).toBe('unauthorized');
    }
    const response = authenticator.get(await loginOptions());
    expect((await passkeyLogin(response)).status).toBe(200);
    // The same answer again (a replay): its challenge is spent.
    expect((await passkeyLogin(response)).status).toBe(401);
  });

  it('refuses a challenge that has expired (5 minutes), or that was made for another purpose', async () => {
    const options = await loginOptions();
    t.clock.advance(5 * 60_000);
    expect((await passkeyLogin(authenticator.get(options))).status).toBe(401);
    // Registration options are no sign-in options.
    const forRegistration = await registrationOptions(alice.token);
    const signed = authenticator.get({ challenge: forRegistration.challenge, rpId: RP_ID });
    expect((await passkeyLogin(signed)).status).toBe(401);
    expect((await signInWith(authenticator)).status).toBe(200);
  });

  it('refuses a counter that went backwards (a cloned authenticator), but not one that never counts', async () => {
    const clone = authenticator.clone();
    expect((await signInWith(authenticator)).status).toBe(200);
    // The clone signs with the counter the original had before its last use: not past the stored one.
    expect((await signInWith(clone)).status).toBe(401);
    expect((await signInWith(authenticator)).status).toBe(200);

    const counterless = new SoftAuthenticator(null, 0);
    expect((await register(alice.token, counterless)).status).toBe(201);
    expect((await signInWith(counterless)).status).toBe(200);
    expect((await signInWith(counterless)).status).toBe(200);
  });

  it('checks the user handle against the credential’s owner', async () => {
    const bob = await t.user('bob');
    const handle = (id: string) => isoBase64URL.fromUTF8String(id);
    expect((await signInWith(authenticator, { userHandle: handle(bob.userId) })).status).toBe(401);
    expect((await signInWith(authenticator, { userHandle: null })).status).toBe(401);
    expect((await signInWith(authenticator, { userHandle: handle(alice.userId) })).status).toBe(200);
  });

  it('asks for user verification here: without it, the passkey serves as a second factor only', async () => {
    const refused = await signInWith(authenticator, { noUserVerification: true });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toContain('second factor');
  });

  it('refuses a removed passkey, and one of an account that was deleted', async () => {
    const [listed] = (await t.request('GET', '/api/auth/passkeys', { token: alice.token })).body;
    expect((await t.request('DELETE', `/api/auth/passkeys/${listed.id}`, { token: alice.token })).status).toBe(204);
    expect((await signInWith(authenticator)).status).toBe(401);

    const bob = await t.user('bob');
    const his = new SoftAuthenticator();
    expect((await register(bob.token, his)).status).toBe(201);
    const admin = await t.adminToken();
    expect((await t.request('DELETE', `/api/admin/users/${bob.userId}`, { token: admin })).status).toBe(204);
    expect((await signInWith(his)).status).toBe(401);
    expect(await t.ports.passkeys.listByUser(bob.userId)).toEqual([]);
    expect(await t.ports.passkeys.findByCredentialId(his.ids()[0]!)).toBeNull();
  });

  it(`throttles failures per client address: past ${PASSKEY_LOGIN_FAILURES_PER_ADDRESS}, 429 even for a right answer`, async () => {
    // A right sign-in takes its attempt back.
    expect((await signInWith(authenticator)).status).toBe(200);
    for (let i = 0; i < PASSKEY_LOGIN_FAILURES_PER_ADDRESS; i++) {
      expect((await signInWith(authenticator, { badSignature: true })).status).toBe(401);
    }
    const locked = await signInWith(authenticator);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The lockout is the address's, not the account's: the password still signs Alice in.
    expect((await login('alice')).status).toBe(200);
  });

  it('answers 400 to a body that is not a credential', async () => {
    for (const json of [{}, { response: 'x' }, { response: { id: 'a', rawId: 'a', type: 'other', response: {} } }, { response: {}, extra: 1 }]) {
      const res = await t.request('POST', '/api/auth/passkey/login', { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });
});

describe('a passkey as the second factor (/api/auth/login/mfa)', () => {
  let alice: { token: string; userId: string };
  let authenticator: SoftAuthenticator;
  beforeEach(async () => {
    t = await makeHttp({ publicUrl: PUBLIC });
    alice = await t.user('alice');
    authenticator = new SoftAuthenticator();
    expect((await register(alice.token, authenticator, 'Key')).status).toBe(201);
  });

  it('a right password answers mfaRequired with "passkey"; the passkey then answers what a login answers', async () => {
    const { mfaToken, methods } = await mfaTokenOf('alice');
    expect(methods).toEqual(['passkey']);
    const options = await mfaOptions(mfaToken);
    expect(options.allowCredentials).toEqual([{ id: authenticator.ids()[0], type: 'public-key', transports: ['internal'] }]);
    expect(options.rpId).toBe(RP_ID);
    const done = await mfaWithPasskey(mfaToken, authenticator.get(options));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ token: expect.any(String), user: { id: alice.userId, username: 'alice' } });
    // The mfaToken is spent.
    expect((await mfaWithPasskey(mfaToken, authenticator.get(await loginOptions()))).status).toBe(401);
  });

  it('accepts a passkey without user verification here (preferred, not required)', async () => {
    const { mfaToken } = await mfaTokenOf('alice');
    const done = await mfaWithPasskey(mfaToken, authenticator.get(await mfaOptions(mfaToken), { noUserVerification: true }));
    expect(done.status).toBe(200);
  });

  it('the browser form sets the cookie', async () => {
    const { mfaToken } = await mfaTokenOf('alice');
    const passkey = authenticator.get(await mfaOptions(mfaToken));
    const res = await t.request('POST', '/api/auth/session/mfa', { json: { mfaToken, passkey }, headers: OWN_PAGE });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('alice');
    expect(res.headers.get('set-cookie')).toMatch(/coffer_session=/);
  });

  it('refuses a passkey of another user, options of another mfaToken, and sign-in options', async () => {
    const bob = await t.user('bob');
    const his = new SoftAuthenticator();
    expect((await register(bob.token, his)).status).toBe(201);
    const { mfaToken } = await mfaTokenOf('alice');
    const options = await mfaOptions(mfaToken);
    // Bob's authenticator signs Alice's options with his own credential: not one of hers.
    const credentialId = his.ids()[0]!;
    expect((await mfaWithPasskey(mfaToken, his.get(options, { credentialId }))).status).toBe(401);
    // Nor when the answer leaves the user handle out (an authenticator may, after a password).
    expect((await mfaWithPasskey(mfaToken, his.get(await mfaOptions(mfaToken), { credentialId, userHandle: null }))).status).toBe(401);
    // Options made for another mfaToken of the same user.
    const other = await mfaTokenOf('alice');
    const forOther = await mfaOptions(other.mfaToken);
    expect((await mfaWithPasskey(mfaToken, authenticator.get(forOther))).status).toBe(401);
    // Options of a sign-in without a password are not the second step's.
    expect((await mfaWithPasskey(mfaToken, authenticator.get(await loginOptions()))).status).toBe(401);
    // A wrong answer leaves the mfaToken usable.
    expect((await mfaWithPasskey(mfaToken, authenticator.get(await mfaOptions(mfaToken)))).status).toBe(200);
  });

  it('refuses a wrong signature and a replayed answer; wrong answers are throttled as wrong codes', async () => {
    const { mfaToken } = await mfaTokenOf('alice');
    const options = await mfaOptions(mfaToken);
    const answer = authenticator.get(options);
    expect((await mfaWithPasskey(mfaToken, authenticator.get(await mfaOptions(mfaToken), { badSignature: true }))).status).toBe(401);
    for (let i = 1; i < CODE_GUESSES_PER_ACCOUNT_AND_ADDRESS; i++) {
      expect((await mfaWithPasskey(mfaToken, authenticator.get(await mfaOptions(mfaToken), { origin: 'https://evil.test' }))).status).toBe(401);
    }
    const locked = await mfaWithPasskey(mfaToken, answer);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toEqual(expect.any(String));
  });

  it('asks for exactly one of code and passkey, and options need a live mfaToken and a passkey', async () => {
    const { mfaToken } = await mfaTokenOf('alice');
    const passkey = authenticator.get(await mfaOptions(mfaToken));
    for (const json of [{ mfaToken }, { mfaToken, code: '123456', passkey }]) {
      expect((await t.request('POST', '/api/auth/login/mfa', { json })).status).toBe(400);
    }
    expect((await t.request('POST', '/api/auth/login/mfa/options', { json: { mfaToken: 'nope' } })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/login/mfa/options', { json: {} })).status).toBe(400);
    // A user with TOTP alone has no passkey to answer with.
    const bob = await t.user('bob');
    const setup = await t.request('POST', '/api/auth/mfa/totp', { token: bob.token });
    t.clock.advance(30_000);
    const code = totpAt(setup.body.secret, t.clock.now());
    await t.request('POST', '/api/auth/mfa/totp/confirm', { token: bob.token, json: { code } });
    const his = await mfaTokenOf('bob');
    expect(his.methods).toEqual(['totp', 'recovery']);
    expect((await t.request('POST', '/api/auth/login/mfa/options', { json: { mfaToken: his.mfaToken } })).status).toBe(409);
  });

  it('lists "passkey" beside TOTP and recovery codes, and a code still works', async () => {
    const setup = await t.request('POST', '/api/auth/mfa/totp', { token: alice.token });
    t.clock.advance(30_000);
    const first = totpAt(setup.body.secret, t.clock.now());
    await t.request('POST', '/api/auth/mfa/totp/confirm', { token: alice.token, json: { code: first } });
    const { mfaToken, methods } = await mfaTokenOf('alice');
    expect(methods).toEqual(['totp', 'recovery', 'passkey']);
    t.clock.advance(30_000);
    const code = totpAt(setup.body.secret, t.clock.now());
    expect((await t.request('POST', '/api/auth/login/mfa', { json: { mfaToken, code } })).status).toBe(200);
  });

  it('the admin reset removes passkeys with every other factor; API tokens keep working', async () => {
    const api = (await t.request('POST', '/api/token', { token: alice.token, json: { name: 'ci' } })).body.token;
    const admin = await t.adminToken();
    expect((await t.request('DELETE', `/api/admin/users/${alice.userId}/mfa`, { token: admin })).status).toBe(204);
    const user = await t.request('GET', `/api/admin/users/${alice.userId}`, { token: admin });
    expect(user.body.mfa).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    expect((await login('alice')).body.token).toEqual(expect.any(String));
    expect((await signInWith(authenticator)).status).toBe(401);
    expect((await t.request('GET', '/api/auth/passkeys', { token: alice.token })).body).toEqual([]);
    expect((await t.request('GET', '/api/usage/stats', { token: api })).status).toBe(200);
  });
});

describe('two instances over one database', () => {
  let other: HttpTest;
  afterEach(() => other.close());

  it('answer on one instance the options the other handed out', async () => {
    t = await makeHttp({ publicUrl: PUBLIC });
    other = await makeHttp({ publicUrl: PUBLIC, memoryOf: t.container, clock: t.clock });
    const alice = await t.user('alice');
    const authenticator = new SoftAuthenticator();
    // Register: options from one, the answer to the other.
    const options = await t.request('POST', '/api/auth/passkeys/options', { token: alice.token });
    const created = await other.request('POST', '/api/auth/passkeys', {
      token: alice.token,
      json: { response: authenticator.create(options.body) },
    });
    expect(created.status).toBe(201);
    // Sign in without a password, across.
    const loginOpts = await other.request('POST', '/api/auth/passkey/options');
    const signedIn = await t.request('POST', '/api/auth/passkey/login', { json: { response: authenticator.get(loginOpts.body) } });
    expect(signedIn.status).toBe(200);
    // The second step, across, and its challenge works once on either.
    const { mfaToken } = (await t.request('POST', '/api/auth/login', { json: { username: 'alice', password: 'alice-password' } })).body;
    const mfaOpts = await other.request('POST', '/api/auth/login/mfa/options', { json: { mfaToken } });
    const passkey = authenticator.get(mfaOpts.body);
    expect((await t.request('POST', '/api/auth/login/mfa', { json: { mfaToken, passkey } })).status).toBe(200);
    expect((await other.request('POST', '/api/auth/login/mfa', { json: { mfaToken, passkey } })).status).toBe(401);
  });
});

describe('single sign-on accounts and passkeys', () => {
  beforeEach(async () => {
    t = await makeHttp({ publicUrl: PUBLIC });
  });

  it('an account without a password unlinks its single sign-on only once it has a passkey, then signs in with it', async () => {
    const now = t.clock.now();
    const user: User = {
      id: t.ports.ids.newId(),
      username: 'gina',
      type: 'user',
      passwordHash: null,
      credentialsEpoch: 0,
      keptSessionId: null,
      mustChangePassword: false,
      limits: {},
      oidc: { issuer: 'https://idp.test', subject: 'gina-at-idp' },
      createdAt: now,
      updatedAt: now,
    };
    await t.ports.users.insert(user);
    // A session as single sign-on's callback makes one.
    const { token } = await issueSession(t.ports, user);
    const unlink = () => t.request('DELETE', '/api/auth/oidc/link', { token });

    const refused = await unlink();
    expect(refused.status).toBe(409);
    expect((await me(token)).body.oidc).toEqual(user.oidc);

    const authenticator = new SoftAuthenticator();
    expect((await register(token, authenticator, 'laptop')).status).toBe(201);
    expect((await unlink()).status).toBe(204);
    expect((await me(token)).body.oidc).toBeNull();
    const signedIn = await signInWith(authenticator);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(user.id);
  });
});
