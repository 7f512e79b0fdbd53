import { afterEach, describe, expect, it } from 'vitest';
import { toBase64Url } from '../../web/src/common/e2e/base64url.js';
import { cipherLength } from '../../web/src/common/e2e/ece.js';
import { newFileKey } from '../../web/src/common/e2e/file-key.js';
import { openMetadata, sealMetadata } from '../../web/src/common/e2e/metadata.js';
import { decryptBytes, encryptBytes } from '../../web/src/common/e2e/whole.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const TUS = { 'tus-resumable': '1.0.0' };
const STREAM = { ...TUS, 'content-type': 'application/offset+octet-stream' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const NAME = 'quarterly-merger-plans.txt';
const PLAIN = 'Acme buys Globex on the first of May; tell nobody before then.';

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Every string and byte the in-memory database holds, walked through its repositories' private maps. */
function databaseText(root: unknown): string {
  const seen = new Set<unknown>();
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (value === null || value === undefined) return;
    if (typeof value === 'string') return void out.push(value);
    if (typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Uint8Array) return void out.push(Buffer.from(value).toString('latin1'));
    if (value instanceof Map) {
      for (const [k, v] of value) {
        walk(k);
        walk(v);
      }
    } else if (value instanceof Set || Array.isArray(value)) for (const v of value) walk(v);
    else for (const key of Object.getOwnPropertyNames(value)) walk((value as Record<string, unknown>)[key]);
  };
  walk(root);
  return out.join('\n');
}

/** The forms a secret could be written in. */
const formsOf = (key: Uint8Array) => [
  toBase64Url(key),
  Buffer.from(key).toString('base64'),
  Buffer.from(key).toString('hex'),
  Buffer.from(key).toString('latin1'),
];

async function encryptedUpload(app: HttpTest, token: string, extraMetadata = '') {
  const key = newFileKey();
  const plain = new TextEncoder().encode(PLAIN);
  const sealed = await encryptBytes(key, plain);
  const metadata = await sealMetadata(key, { name: NAME, type: 'text/plain', size: plain.length });
  // A careless client also sends the real name and type: neither is kept.
  const header = `filename ${b64(NAME)},filetype ${b64('text/plain')},share ${b64('true')},encryptedMetadata ${b64(metadata)}${extraMetadata}`;
  const created = await app.request('POST', '/api/upload/tus', {
    token,
    headers: { ...TUS, 'upload-length': String(sealed.length), 'upload-metadata': header },
  });
  expect(created.status).toBe(201);
  const done = await app.request('PATCH', created.headers.get('location')!, {
    token,
    headers: { ...STREAM, 'upload-offset': '0' },
    body: sealed,
  });
  expect(done.status).toBe(204);
  return { key, sealed, metadata, fileId: done.headers.get('x-file-id')!, shareId: done.headers.get('x-share-id')! };
}

describe('end-to-end encrypted files', () => {
  it('a tus upload with encryptedMetadata is stored as ciphertext under a placeholder name, and its share serves it as such', async () => {
    const app = (t = await makeHttp());
    const token = await app.userToken('alice');
    const { key, sealed, metadata, fileId, shareId } = await encryptedUpload(app, token);

    const file = await app.request('GET', `/api/file/${fileId}`, { token });
    expect(file.body).toMatchObject({
      id: fileId,
      name: `encrypted-${fileId}`,
      mime: 'application/octet-stream',
      size: String(cipherLength(PLAIN.length)),
      encrypted: true,
      encryptedMetadata: metadata,
    });
    const share = await app.request('GET', `/api/share/${shareId}`);
    expect(share.body.file).toMatchObject({ id: fileId, name: `encrypted-${fileId}`, mime: 'application/octet-stream', encrypted: true, encryptedMetadata: metadata });
    expect(await openMetadata(key, share.body.file.encryptedMetadata)).toEqual({ name: NAME, type: 'text/plain', size: PLAIN.length });

    const content = await app.request('GET', `/s/${shareId}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(content.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(content.headers.get('content-disposition')).toContain(`encrypted-${fileId}`);
    expect(Buffer.from(content.bytes).equals(Buffer.from(sealed))).toBe(true);
    expect(new TextDecoder().decode(await decryptBytes(key, content.bytes))).toBe(PLAIN);

    // A plain file, for contrast: its name and type are kept and no encrypted fields appear.
    const plain = await app.upload(token, 'hello', { filename: 'plain.txt', type: 'text/plain' });
    expect(plain.body.name).toBe('plain.txt');
    expect(plain.body).not.toHaveProperty('encrypted');
    expect(plain.body).not.toHaveProperty('encryptedMetadata');
  });

  it('neither the stored blob nor the database holds the plaintext, its name or the key', async () => {
    const app = (t = await makeHttp());
    const token = await app.userToken('alice');
    const { key, fileId } = await encryptedUpload(app, token);
    const stored = (await app.ports.files.findById(fileId))!;
    const blob: Buffer[] = [];
    for await (const chunk of await app.ports.blobs.read(stored.blobKey)) blob.push(Buffer.from(chunk));
    const blobText = Buffer.concat(blob).toString('latin1');
    const database = databaseText(app.ports);
    // The walk does reach the records: the file's id and its placeholder name are in it.
    expect(database).toContain(`encrypted-${fileId}`);
    for (const haystack of [blobText, database]) {
      expect(haystack).not.toContain(PLAIN.slice(0, 20));
      expect(haystack).not.toContain('quarterly-merger');
      expect(haystack).not.toContain('text/plain');
      for (const form of formsOf(key)) expect(haystack).not.toContain(form);
    }
  });

  it('a multipart upload with encryptedMetadata is encrypted the same way', async () => {
    const app = (t = await makeHttp());
    const token = await app.userToken('alice');
    const key = newFileKey();
    const sealed = await encryptBytes(key, new TextEncoder().encode(PLAIN));
    const form = new FormData();
    form.set('encryptedMetadata', await sealMetadata(key, { name: NAME, type: 'text/plain', size: PLAIN.length }));
    form.set('file', new Blob([sealed], { type: 'text/plain' }), NAME);
    const res = await app.request('POST', '/api/file', { token, body: form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: `encrypted-${res.body.id}`, mime: 'application/octet-stream', encrypted: true, size: String(sealed.length) });
  });

  it('shares of encrypted files keep their password and limits', async () => {
    const app = (t = await makeHttp());
    const token = await app.userToken('alice');
    const { shareId } = await encryptedUpload(app, token, `,password ${b64('open sesame')},maxDownloads ${b64('1')}`);
    expect((await app.request('GET', `/api/share/${shareId}`)).body.error).toBe('share_password_required');
    expect((await app.request('GET', `/s/${shareId}/content`)).status).toBe(401);
    const unlocked = await app.request('POST', `/s/${shareId}/unlock`, { json: { password: 'open sesame' } });
    expect(unlocked.body).toMatchObject({ protected: true, maxDownloads: 1, file: { encrypted: true } });
    const cookie = (unlocked.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await app.request('GET', `/s/${shareId}/content`, { headers: { cookie } })).status).toBe(200);
    expect((await app.request('GET', `/s/${shareId}/content`, { headers: { cookie } })).status).not.toBe(200);
  });

  it('refuses a malformed metadata object, a clear name beside it, and either in a file request', async () => {
    const app = (t = await makeHttp());
    const token = await app.userToken('alice');
    const create = (metadata: string) =>
      app.request('POST', '/api/upload/tus', { token, headers: { ...TUS, 'upload-length': '40', 'upload-metadata': metadata } });
    const bad = await create(`encryptedMetadata ${b64('not base64url!')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'bad_request', field: 'encryptedMetadata' });
    expect((await create(`encryptedMetadata ${b64('A'.repeat(4097))}`)).status).toBe(400);
    const named = await create(`encryptedMetadata ${b64('AAAA')},name ${b64('secret.txt')}`);
    expect(named.status).toBe(400);
    expect(named.body).toMatchObject({ field: 'name' });
    const inRequest = await app.request('POST', '/api/upload/tus', {
      headers: { ...TUS, 'upload-length': '40', 'upload-metadata': `requestId ${b64('AAAAAAAAAAAAAAAAAAAAAA')},encryptedMetadata ${b64('AAAA')}` },
    });
    expect(inRequest.status).toBe(400);
    // Nothing was started by any of them.
    expect(databaseText(app.ports)).not.toContain('encrypted-');
  });
});

describe('end-to-end encrypted pastes', () => {
  it('are stored as ciphertext under a placeholder name, shared, read with the key, never edited', async () => {
    const { sealPaste, openPaste } = await import('../../web/src/common/e2e/paste.js');
    const app = (t = await makeHttp());
    const token = await app.userToken('alice');
    const key = newFileKey();
    const content = await sealPaste(key, { name: 'launch-codes', type: 'markdown', content: PLAIN });
    const made = await app.request('POST', '/api/paste', { token, json: { content, encrypted: true, share: true } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: `encrypted-${made.body.id}`, type: 'text', content, encrypted: true });
    const share = await app.request('GET', `/api/share/${made.body.shareId}`);
    expect(share.body.paste).toMatchObject({ encrypted: true, content });
    expect(await openPaste(key, share.body.paste.content)).toEqual({ name: 'launch-codes', type: 'markdown', content: PLAIN });

    const database = databaseText(app.ports);
    expect(database).toContain(`encrypted-${made.body.id}`);
    expect(database).not.toContain(PLAIN.slice(0, 20));
    expect(database).not.toContain('launch-codes');
    for (const form of formsOf(key)) expect(database).not.toContain(form);

    const edit = await app.request('PATCH', `/api/paste/${made.body.id}`, { token, json: { content: 'AAAA' } });
    expect(edit.status).toBe(400);
    expect((await app.request('POST', '/api/paste', { token, json: { content, encrypted: true, name: 'clear' } })).body).toMatchObject({ field: 'name' });
    expect((await app.request('POST', '/api/paste', { token, json: { content: 'not base64url!', encrypted: true } })).body).toMatchObject({ field: 'content' });
    // A plain paste has no flag.
    expect((await app.request('POST', '/api/paste', { token, json: { content: 'hi' } })).body).not.toHaveProperty('encrypted');
  });
});
