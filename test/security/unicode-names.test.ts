import contentDisposition from 'content-disposition';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredFile } from '../../src/domain/index.js';
import { bytes } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { encodedFilename, multipartBody, MULTIPART_TYPE } from '../support/multipart.js';

let t: HttpTest;
let token: string;
let userId: string;
beforeEach(async () => {
  t = await makeHttp();
  ({ token, userId } = await t.user('alice'));
});
afterEach(() => t.close());

const LONE = 'report\ud800.txt';
// Invisible format characters (Unicode category Cf) and the tag block: none may survive into a stored name.
const INVISIBLE: Array<[string, string]> = [
  ['soft hyphen', '\u00ad'],
  ['Arabic letter mark', '\u061c'],
  ['Mongolian vowel separator', '\u180e'],
  ['word joiner', '\u2060'],
  ['interlinear annotation', '\ufff9'],
  ['language tag', '\u{E0001}'],
  ['tag letters', '\u{E0065}\u{E006E}'],
  ['cancel tag', '\u{E007F}'],
];
const UNSAFE = /[\p{Cc}\p{Cf}\u{E0000}-\u{E007F}]/u;

/** A record written straight into the repository, as a version that still accepted lone surrogates stored it. */
async function storedRaw(name: string): Promise<StoredFile> {
  const blob = await t.ports.blobs.write(bytes('payload'));
  const file: StoredFile = {
    id: `raw-${Math.random().toString(36).slice(2)}`,
    ownerId: userId,
    folderId: null,
    name,
    mime: 'text/plain',
    size: blob.size,
    blobKey: blob.key,
    uploaderTokenId: null,
    charset: null,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
  };
  await t.ports.files.insert(file);
  return file;
}

const savedName = (header: string | null) => contentDisposition.parse(header!).parameters['filename'];

describe('a lone surrogate in a name', () => {
  it('is refused with 400 when a file is renamed, and the name stays', async () => {
    const file = (await t.upload(token, 'x', { name: 'report.txt' })).body;
    const res = await t.request('PATCH', `/api/file/${file.id}`, { token, json: { name: LONE } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request', field: 'name' });
    expect((await t.request('GET', `/api/file/${file.id}`, { token })).body.name).toBe('report.txt');
    const download = await t.request('GET', `/api/file/${file.id}/content`, { token });
    expect(download.status).toBe(200);
  });

  it('is refused with 400 as the name of an upload', async () => {
    const { core } = t;
    const actor = await core.authenticate.execute({ token });
    await expect(
      core.uploadFile.execute({ actor, folderId: null, name: LONE, filename: 'a.txt', mime: undefined, content: bytes('x') }),
    ).rejects.toMatchObject({ code: 'bad_request', details: { field: 'name' } });
    expect((await t.request('GET', '/api/usage/stats', { token })).body.files.current).toBe(0);
  });

  it('is refused with 400 in folder, collection, paste and token names', async () => {
    const folder = (await t.request('POST', '/api/folder', { token, json: { name: 'ok' } })).body;
    const attempts = [
      t.request('POST', '/api/folder', { token, json: { name: LONE } }),
      t.request('PATCH', `/api/folder/${folder.id}`, { token, json: { name: LONE } }),
      t.request('POST', '/api/collection', { token, json: { name: LONE } }),
      t.request('POST', '/api/paste', { token, json: { name: LONE, content: 'x' } }),
      t.request('POST', '/api/token', { token, json: { name: LONE } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'bad_request', field: 'name' });
    }
  });

  it('cannot arrive through a multipart filename: malformed UTF-8 becomes U+FFFD', async () => {
    // %ED%A0%80 is U+D800 written as if it were a character; no UTF-8 decoder yields a lone surrogate from it.
    const res = await t.request('POST', '/api/file', {
      token,
      body: multipartBody([{ disposition: `name="file"; filename*=UTF-8''report%ED%A0%80.txt`, content: 'x' }]),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toMatch(/^report\ufffd+\.txt$/);
  });
});

describe('a name already stored with a lone surrogate', () => {
  it('still downloads, for the owner, with HEAD and through a share, with U+FFFD in its place', async () => {
    const file = await storedRaw(LONE);
    const owner = await t.request('GET', `/api/file/${file.id}/content`, { token });
    expect(owner.status).toBe(200);
    expect(owner.text).toBe('payload');
    expect(savedName(owner.headers.get('content-disposition'))).toBe('report\ufffd.txt');
    expect((await t.request('HEAD', `/api/file/${file.id}/content`, { token })).status).toBe(200);
    expect((await t.request('GET', `/api/file/${file.id}`, { token })).status).toBe(200);

    const share = await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } });
    expect(share.status).toBe(201);
    const shared = await t.request('GET', `/api/share/${share.body.id}/content`);
    expect(shared.status).toBe(200);
    expect(shared.text).toBe('payload');
  });

  it('can be renamed to a well-formed name', async () => {
    const file = await storedRaw(LONE);
    const res = await t.request('PATCH', `/api/file/${file.id}`, { token, json: { name: 'fixed.txt' } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('fixed.txt');
  });
});

describe('invisible format characters', () => {
  it('are stripped from upload filenames, upload names, renames and folder names', async () => {
    for (const [what, chars] of INVISIBLE) {
      const name = `in${chars}voice.pdf`;
      const viaFilename = await t.request('POST', '/api/file', {
        token,
        body: multipartBody([{ disposition: encodedFilename(name), content: 'x' }]),
        headers: { 'content-type': MULTIPART_TYPE },
      });
      const viaName = await t.upload(token, 'x', { name });
      const renamed = await t.request('PATCH', `/api/file/${viaName.body.id}`, { token, json: { name: `re${name}` } });
      const folder = await t.request('POST', '/api/folder', { token, json: { name } });
      expect(viaFilename.body.name, what).toBe('invoice.pdf');
      expect(viaName.body.name, what).toBe('invoice.pdf');
      expect(renamed.body.name, what).toBe('reinvoice.pdf');
      expect(folder.body.name, what).toBe('invoice.pdf');
      for (const reply of [viaFilename, viaName, renamed, folder]) expect(reply.body.name).not.toMatch(UNSAFE);
    }
  });

  it('that are all a name leave nothing: 400 for an explicit name', async () => {
    const res = await t.request('POST', '/api/folder', { token, json: { name: '\u00ad\u061c\u{E0001}' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request', field: 'name' });
  });
});
