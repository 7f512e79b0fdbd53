import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { encodedFilename, multipartBody, MULTIPART_TYPE } from '../support/multipart.js';

const HOSTILE: Array<[string, string]> = [
  ['parent traversal', '../../../etc/passwd'],
  ['backslash traversal', '..\\..\\windows\\system32\\config'],
  ['absolute path', '/etc/shadow'],
  ['drive path', 'C:\\boot.ini'],
  ['only dots', '..'],
  ['one dot', '.'],
  ['NUL', 'report\u0000.pdf.exe'],
  ['control characters', 'bell\u0007\u001b[31mred\u007f.txt'],
  ['CR and LF', 'two\r\nlines.txt'],
  ['right-to-left override', 'invoice\u202Efdp.exe'],
  ['bidi isolates and zero width', '\u2066a\u2069\u200bb\ufeff.txt'],
  ['1000 ASCII bytes', 'x'.repeat(1000)],
  ['1000 UTF-8 bytes', 'é'.repeat(500)],
  ['percent-encoded traversal, kept literally', '%2e%2e%2fsecret'],
];

// Characters no stored name may hold: controls, separators, bidi and invisible format characters.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f/\\\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

function expectSafe(name: string, what: string): void {
  expect(name, what).not.toMatch(UNSAFE);
  expect([...name].length, what).toBeLessThanOrEqual(255);
  expect(name.length, what).toBeGreaterThan(0);
  expect(['.', '..'], what).not.toContain(name);
}

let t: HttpTest;
let token: string;
beforeEach(async () => {
  t = await makeHttp({ blobs: 'fs' });
  token = await t.userToken('alice');
});
afterEach(() => t.close());

/** Every entry under the store's directory, relative to it: what client names could have touched. */
async function storeEntries(): Promise<string[]> {
  const root = join((t.ports.blobs as unknown as { blobsDir: string }).blobsDir, '..');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.map((e) => relative(root, join(e.parentPath, e.name)));
}

describe('hostile file names', () => {
  it('are stored as cleaned display names and never reach the file system', async () => {
    const stored: Array<{ id: string; content: string }> = [];
    for (const [what, filename] of HOSTILE) {
      const content = `bytes of ${what}`;
      const res = await t.request('POST', '/api/file', {
        token,
        body: multipartBody([{ disposition: encodedFilename(filename), type: 'text/plain', content }]),
        headers: { 'content-type': MULTIPART_TYPE },
      });
      expect(res.status, what).toBe(201);
      expectSafe(res.body.name, what);
      stored.push({ id: res.body.id, content });
    }

    // Only server-generated names exist on disk: blobs/<2 hex>/<32 hex>, and an empty tmp/.
    const entries = await storeEntries();
    for (const entry of entries) expect(entry).toMatch(/^(blobs|tmp|blobs\/[0-9a-f]{2}|blobs\/([0-9a-f]{2})\/\2[0-9a-f]{30})$/);
    expect(entries.filter((e) => e.split('/').length === 3)).toHaveLength(HOSTILE.length);
    for (const { id, content } of stored) {
      expect((await t.ports.files.findById(id))!.blobKey).toMatch(/^[0-9a-f]{32}$/);
      expect((await t.request('GET', `/api/file/${id}/content`, { token })).text).toBe(content);
    }
  });

  it('keep what is readable: paths shrink to their last segment, long names are cut at 255 characters', async () => {
    const upload = async (filename: string) =>
      (
        await t.request('POST', '/api/file', {
          token,
          body: multipartBody([{ disposition: encodedFilename(filename), content: 'x' }]),
          headers: { 'content-type': MULTIPART_TYPE },
        })
      ).body.name;
    // the multipart parser keeps only the last path segment of a filename; cleanName then guards the rest.
    expect(await upload('../../../etc/passwd')).toBe('passwd');
    expect(await upload('..\\..\\boot.ini')).toBe('boot.ini');
    expect(await upload('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(await upload('é'.repeat(500))).toBe('é'.repeat(255));
    expect(await upload('\u0000\u0007')).toBe('untitled');
  });

  it('given as the name field, in a rename, or for folders, collections and pastes, are cleaned too', async () => {
    for (const [what, name] of HOSTILE) {
      const file = await t.upload(token, 'x', { name: name.replace(/\r|\n/g, '') || 'x' });
      if (file.status === 201) expectSafe(file.body.name, `${what} (name field)`);
      else expect(file.status, what).toBe(400);
      const replies = [
        await t.request('POST', '/api/folder', { token, json: { name } }),
        await t.request('POST', '/api/collection', { token, json: { name } }),
        await t.request('POST', '/api/paste', { token, json: { name, content: 'x' } }),
        await t.request('PATCH', `/api/file/${(await t.upload(token, 'y')).body.id}`, { token, json: { name } }),
      ];
      for (const reply of replies) {
        // A name that cleans down to nothing is refused rather than stored empty.
        if (reply.status === 400) continue;
        expect(reply.status, what).toBeLessThan(300);
        expectSafe(reply.body.name, what);
      }
    }
    expect((await storeEntries()).every((e) => /^(blobs|tmp)(\/|$)/.test(e))).toBe(true);
  });
});
