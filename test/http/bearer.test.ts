import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

/**
 * `Authorization: Bearer <token>` is the same credential as `token <token>`: every route family answers it exactly
 * as it answers the spec's scheme, refusals included.
 */

type Scheme = 'token' | 'Bearer';
const SCHEMES: Scheme[] = ['token', 'Bearer'];
const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

let t: HttpTest;
let alice: string;
let admin: string;
let uploader: string;
let aliceId: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  ({ token: alice, userId: aliceId } = await t.user('alice'));
  admin = await t.adminToken();
  uploader = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
});

interface Call {
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
}

const call = (scheme: Scheme, secret: string, method: string, path: string, opts: Call = {}) =>
  t.request(method, path, { ...opts, headers: { ...opts.headers, authorization: `${scheme} ${secret}` } });

/** The same request once per scheme; the answers must be the same, status, body and bytes. */
async function sameAnswer(secret: string, method: string, path: string, opts: Call = {}): Promise<Reply> {
  const [byToken, byBearer] = [
    await call('token', secret, method, path, opts),
    await call('Bearer', secret, method, path, opts),
  ];
  const label = `${method} ${path}`;
  expect(byBearer.status, label).toBe(byToken.status);
  expect(byBearer.body, label).toEqual(byToken.body);
  expect(byBearer.text, label).toBe(byToken.text);
  return byBearer;
}

/** The keys of an answer, for writes whose ids and times differ from one run to the next. */
const shape = (reply: Reply) => ({ status: reply.status, keys: Object.keys(reply.body ?? {}).sort() });

/** A write made once per scheme, each on its own target: the same status and the same shape of answer. */
async function sameWrite(each: (scheme: Scheme) => Promise<Reply>, expected: number): Promise<Reply[]> {
  const replies = [await each('token'), await each('Bearer')];
  expect(replies[0]!.status).toBe(expected);
  expect(shape(replies[1]!)).toEqual(shape(replies[0]!));
  return replies;
}

const upload = (scheme: Scheme, secret: string, name: string, content = `bytes of ${name}`) => {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  return call(scheme, secret, 'POST', '/api/file', { body: form });
};

describe('Authorization: Bearer on every route family', () => {
  it('auth: me, the session answer, and refusals of an API token', async () => {
    expect((await sameAnswer(alice, 'GET', '/api/auth/me')).body).toMatchObject({ username: 'alice' });
    expect((await sameAnswer(alice, 'GET', '/api/auth/session')).body.user).toMatchObject({ username: 'alice' });
    expect((await sameAnswer(uploader, 'GET', '/api/auth/me')).status).toBe(403);
    expect((await sameAnswer('no-such-token', 'GET', '/api/auth/me')).status).toBe(401);
  });

  it('files: upload, read, bytes, rename, delete', async () => {
    const [, byBearer] = await sameWrite((s) => upload(s, uploader, `${s}.txt`), 201);
    const id = byBearer!.body.id as string;
    expect((await sameAnswer(alice, 'GET', `/api/file/${id}`)).body).toMatchObject({ name: 'Bearer.txt' });
    expect((await sameAnswer(alice, 'GET', `/api/file/${id}/content`)).text).toBe('bytes of Bearer.txt');
    expect((await sameAnswer(alice, 'GET', `/api/file/${id}/content`, { headers: { range: 'bytes=0-4' } })).status)
      .toBe(206);
    const [first, second] = await sameWrite((s) => upload(s, alice, `${s}-2.txt`), 201);
    await sameWrite((s) => call(s, alice, 'PATCH', `/api/file/${(s === 'token' ? first : second)!.body.id}`, {
      json: { name: `renamed-${s}.txt` },
    }), 200);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/file/${(s === 'token' ? first : second)!.body.id}`), 204);
    expect((await sameAnswer(uploader, 'GET', `/api/file/${id}`)).status).toBe(403);
  });

  it('folders: create, root, subtree, move, delete; an API token is refused alike', async () => {
    const [a, b] = await sameWrite((s) => call(s, alice, 'POST', '/api/folder', { json: { name: `f-${s}` } }), 201);
    await sameAnswer(alice, 'GET', '/api/folder');
    await sameAnswer(alice, 'GET', `/api/folder/${b!.body.id}`);
    await sameWrite((s) => call(s, alice, 'PATCH', `/api/folder/${(s === 'token' ? a : b)!.body.id}`, {
      json: { name: `moved-${s}` },
    }), 200);
    expect((await sameAnswer(uploader, 'GET', '/api/folder')).status).toBe(403);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/folder/${(s === 'token' ? a : b)!.body.id}`), 204);
  });

  it('pastes: create with an uploader token, list, read, edit, delete', async () => {
    const [a, b] = await sameWrite((s) => call(s, uploader, 'POST', '/api/paste', { json: { content: `from ${s}` } }), 201);
    await sameAnswer(alice, 'GET', '/api/paste');
    expect((await sameAnswer(alice, 'GET', `/api/paste/${b!.body.id}`)).body.content).toBe('from Bearer');
    const pick = (s: Scheme) => (s === 'token' ? a : b)!.body.id as string;
    await sameWrite((s) => call(s, alice, 'PATCH', `/api/paste/${pick(s)}`, { json: { content: 'edited' } }), 200);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/paste/${pick(s)}`), 204);
  });

  it('collections: create, list, read, add a file, remove it, delete', async () => {
    const file = (await upload('Bearer', alice, 'member.txt')).body.id as string;
    const [a, b] = await sameWrite((s) => call(s, alice, 'POST', '/api/collection', { json: { name: `c-${s}` } }), 201);
    const pick = (s: Scheme) => (s === 'token' ? a : b)!.body.id as string;
    await sameAnswer(alice, 'GET', '/api/collection');
    // Adding is idempotent, so the very same request answers the same in both schemes.
    expect((await sameAnswer(alice, 'PUT', `/api/collection/${pick('Bearer')}/file/${file}`)).status).toBe(200);
    await sameAnswer(alice, 'GET', `/api/collection/${pick('Bearer')}`);
    await sameWrite((s) => call(s, alice, 'PATCH', `/api/collection/${pick(s)}`, { json: { name: `r-${s}` } }), 200);
    await sameWrite((s) => call(s, alice, 'PUT', `/api/collection/${pick(s)}/file/${file}`), 200);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/collection/${pick(s)}/file/${file}`), 204);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/collection/${pick(s)}`), 204);
  });

  it('shares: create (an uploader token too), list, read as the owner, bytes, edit, delete', async () => {
    const files = [(await upload('token', uploader, 'a.txt')).body.id, (await upload('token', uploader, 'b.txt')).body.id];
    const [a, b] = await sameWrite(
      (s) => call(s, uploader, 'POST', '/api/share', { json: { type: 'file', id: files[s === 'token' ? 0 : 1] } }),
      201,
    );
    const pick = (s: Scheme) => (s === 'token' ? a : b)!.body.id as string;
    await sameAnswer(alice, 'GET', '/api/share');
    // The owner's own reads count nothing, so both answers are the very same.
    expect((await sameAnswer(alice, 'GET', `/api/share/${pick('Bearer')}`)).body.views).toBe(0);
    expect((await sameAnswer(alice, 'GET', `/api/share/${pick('Bearer')}/content`)).text).toBe('bytes of b.txt');
    await sameWrite((s) => call(s, alice, 'PATCH', `/api/share/${pick(s)}`, { json: { maxViews: 5 } }), 200);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/share/${pick(s)}`), 204);
  });

  it('search and usage', async () => {
    await upload('Bearer', alice, 'findable.txt');
    const search = await sameAnswer(alice, 'POST', '/api/search', { json: { query: 'findable' } });
    expect(search.body.files).toHaveLength(1);
    expect((await sameAnswer(alice, 'GET', '/api/usage/stats')).body.files.current).toBe(1);
    expect((await sameAnswer(uploader, 'GET', '/api/usage/stats')).status).toBe(200);
  });

  it('tokens: create, list, delete, and the ShareX config', async () => {
    const [a, b] = await sameWrite((s) => call(s, alice, 'POST', '/api/token', { json: { name: `t-${s}` } }), 201);
    await sameAnswer(alice, 'GET', '/api/token');
    expect((await sameAnswer(uploader, 'GET', '/api/token')).status).toBe(403);
    const [sxToken, sxBearer] = await sameWrite(
      (s) => call(s, alice, 'POST', '/api/token/sharex', { json: { name: `sx-${s}` } }),
      201,
    );
    expect(sxBearer!.headers.get('content-disposition')).toBe('attachment; filename="sx-Bearer.sxcu"');
    expect(Object.keys(sxBearer!.body.Headers)).toEqual(Object.keys(sxToken!.body.Headers));
    // The config's own token works in either scheme as well.
    const configured = (sxBearer!.body.Headers.Authorization as string).split(' ')[1]!;
    expect((await sameAnswer(configured, 'GET', '/api/usage/stats')).status).toBe(200);
    await sameWrite((s) => call(s, alice, 'DELETE', `/api/token/${(s === 'token' ? a : b)!.body.id}`), 204);
  });

  it('admin: list, read, create, update, delete; refused alike to a plain user and an API token', async () => {
    await sameAnswer(admin, 'GET', '/api/admin/users');
    await sameAnswer(admin, 'GET', `/api/admin/users/${aliceId}`);
    const [a, b] = await sameWrite(
      (s) => call(s, admin, 'POST', '/api/admin/users', { json: { username: `u-${s}`, password: 'long-password' } }),
      201,
    );
    const pick = (s: Scheme) => (s === 'token' ? a : b)!.body.id as string;
    await sameWrite((s) => call(s, admin, 'PATCH', `/api/admin/users/${pick(s)}`, { json: { limits: { files: 3 } } }), 200);
    await sameWrite((s) => call(s, admin, 'DELETE', `/api/admin/users/${pick(s)}`), 204);
    expect((await sameAnswer(alice, 'GET', '/api/admin/users')).status).toBe(403);
    expect((await sameAnswer(uploader, 'GET', '/api/admin/users')).status).toBe(403);
  });

  it('tus: create, report and complete an upload with an uploader token', async () => {
    const created = await sameWrite(
      (s) =>
        call(s, uploader, 'POST', '/api/upload/tus', {
          headers: { ...TUS, 'upload-length': '5', 'upload-metadata': `filename ${b64(`${s}.txt`)}` },
        }),
      201,
    );
    const [byToken, byBearer] = created.map((reply) => reply.headers.get('location')!);
    const head = await sameAnswer(uploader, 'HEAD', byBearer!, { headers: TUS });
    expect(head.headers.get('upload-offset')).toBe('0');
    const stream = { ...TUS, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' };
    const done = await sameWrite(
      (s) => call(s, uploader, 'PATCH', s === 'token' ? byToken! : byBearer!, { headers: stream, body: 'hello' }),
      204,
    );
    const fileId = done[1]!.headers.get('x-file-id')!;
    expect((await sameAnswer(alice, 'GET', `/api/file/${fileId}/content`)).text).toBe('hello');
    // A refusal keeps the tus headers in both schemes.
    const refused = await sameAnswer('no-such-token', 'HEAD', byBearer!, { headers: TUS });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('tus-resumable')).toBe('1.0.0');
  });

  it('password change and logout take Bearer like token', async () => {
    const bearer = (await t.request('POST', '/api/auth/login', { json: { username: 'alice', password: 'alice-password' } }))
      .body.token as string;
    const change = await call('Bearer', bearer, 'POST', '/api/auth/password', {
      json: { currentPassword: 'alice-password', newPassword: 'a-new-password' },
    });
    expect(change.status).toBe(204);
    // The session that changed it stays; the one used with the other scheme is ended like any other.
    expect((await call('token', bearer, 'GET', '/api/auth/me')).status).toBe(200);
    expect((await call('Bearer', alice, 'GET', '/api/auth/me')).status).toBe(401);
    expect((await call('Bearer', bearer, 'POST', '/api/auth/logout')).status).toBe(204);
    for (const scheme of SCHEMES) expect((await call(scheme, bearer, 'GET', '/api/auth/me')).status).toBe(401);
  });
});
