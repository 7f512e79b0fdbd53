import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { encodedFilename, multipartBody, MULTIPART_TYPE } from '../support/multipart.js';
import { entryNames, readLocalHeaders, readZip } from '../support/zip-reader.js';

/**
 * APPNOTE 4.4.17.1, checked here without the service's own code: a relative path, `/` its only separator, no drive or
 * device letter (no `:` at all), no control character, no `.`, `..` or empty segment, and no segment of dots and
 * spaces alone (Windows trims those to nothing or to `..`).
 */
function appnoteProblem(name: string): string | null {
  if (name.startsWith('/')) return 'a leading slash';
  if (name.includes('\\')) return 'a backslash';
  if (name.includes(':')) return 'a drive letter or stream name';
  if (/\p{Cc}/u.test(name)) return 'a control character';
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.some((s) => s === '' || /^[.\s]+$/u.test(s))) return 'an empty, `.`, `..` or dots-only segment';
  return null;
}

/** Every shape APPNOTE forbids, as a name that arrives whole (the `name` field, a rename, tus `filename`). */
const SHAPES: Array<[shape: string, sent: string, stored: string, entry: string]> = [
  ['drive and backslash', 'C:\\win.txt', 'C:_win.txt', 'C__win.txt'],
  ['a bare drive', 'D:', 'D:', 'D_'],
  ['an alternate data stream', 'a:b', 'a:b', 'a_b'],
  ['a legitimate colon', 'Meeting 10:30.txt', 'Meeting 10:30.txt', 'Meeting 10_30.txt'],
  ['a leading slash', '/etc/passwd', '_etc_passwd', '_etc_passwd'],
  ['one dot', '.', '_', '_'],
  ['two dots', '..', '__', '__'],
  ['dots and a space', '. .', '. .', '_ _'],
  ['control characters', 'bell\u0007\u001b[31m\u0000\t\u007f\u0085.txt', 'bell[31m.txt', 'bell[31m.txt'],
];

/** The same shapes as a multipart filename: the parser keeps the last path segment, `.` and `..` become untitled. */
const FILENAME_SHAPES: Array<[shape: string, sent: string, stored: string, entry: string]> = [
  ['drive and backslash', 'C:\\win.txt', 'win.txt', 'win.txt'],
  ['a bare drive', 'D:', 'D:', 'D_'],
  ['an alternate data stream', 'a:b', 'a:b', 'a_b'],
  ['a drive inside the last segment', 'x\\C:evil.txt', 'C:evil.txt', 'C_evil.txt'],
  ['a legitimate colon', 'Meeting 10:30.txt', 'Meeting 10:30.txt', 'Meeting 10_30.txt'],
  ['a leading slash', '/etc/passwd', 'passwd', 'passwd'],
  ['two dots', '..', 'untitled', 'untitled'],
  ['dots and a space', '. .', '. .', '_ _'],
  ['control characters', 'bell\u0007\u001b[31m\u0000\t\r\n\u007f\u0085.txt', 'bell[31m.txt', 'bell[31m.txt'],
];

/** Folders, by creation and by rename: `C:\dir` with a file inside, and a `..` below it with another. */
const FOLDER_SHAPES: Array<[sent: string, entry: string]> = [
  ['C:\\dir', 'C__dir'],
  ['..', '__'],
];

let t: HttpTest;
let token: string;
beforeAll(async () => {
  t = await makeHttp();
  token = await t.userToken('alice');
});
afterAll(() => t.close());

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function folder(name: string, parentId: string | null = null): Promise<string> {
  const res = await t.request('POST', '/api/folder', { token, json: { name, parentId } });
  expect(res.status, name).toBe(201);
  return res.body.id;
}

/** Uploads `content` by one route under the hostile name `sent`; answers the file's id and stored name. */
type Route = (sent: string, content: string, folderId: string) => Promise<{ id: string; name: string }>;

const ROUTES: Record<string, { shapes: typeof SHAPES; send: Route }> = {
  'the multipart name field': {
    shapes: SHAPES,
    send: async (sent, content, folderId) => {
      const res = await t.upload(token, content, { name: sent, folderId, filename: 'ignored.txt' });
      expect(res.status, sent).toBe(201);
      return res.body;
    },
  },
  'the multipart filename': {
    shapes: FILENAME_SHAPES,
    send: async (sent, content, folderId) => {
      const res = await t.request('POST', '/api/file', {
        token,
        body: multipartBody([
          { disposition: 'name="folderId"', content: folderId },
          { disposition: encodedFilename(sent), type: 'text/plain', content },
        ]),
        headers: { 'content-type': MULTIPART_TYPE },
      });
      expect(res.status, sent).toBe(201);
      return res.body;
    },
  },
  'a rename (PATCH)': {
    shapes: SHAPES,
    send: async (sent, content, folderId) => {
      const uploaded = await t.upload(token, content, { folderId, filename: 'plain.txt' });
      const res = await t.request('PATCH', `/api/file/${uploaded.body.id}`, { token, json: { name: sent } });
      expect(res.status, sent).toBe(200);
      return res.body;
    },
  },
  'the tus metadata filename': {
    shapes: SHAPES,
    send: async (sent, content, folderId) => {
      const res = await t.request('POST', '/api/upload/tus', {
        token,
        headers: {
          'tus-resumable': '1.0.0',
          'content-type': 'application/offset+octet-stream',
          'upload-length': String(Buffer.byteLength(content)),
          'upload-metadata': `filename ${b64(sent)},folderId ${b64(folderId)}`,
        },
        body: content,
      });
      expect(res.status, sent).toBe(201);
      const file = await t.request('GET', `/api/file/${res.headers.get('x-file-id')}`, { token });
      return file.body;
    },
  },
};

async function share(type: 'folder' | 'collection', id: string): Promise<Buffer> {
  const created = await t.request('POST', '/api/share', { token, json: { type, id } });
  expect(created.status).toBe(201);
  const archive = await t.request('GET', `/s/${created.body.id}/archive`);
  expect(archive.status).toBe(200);
  return archive.bytes;
}

/**
 * The archive's entries (central directory and local headers agreeing) with their bytes, each checked against
 * APPNOTE, keyed by the path below the shared item: an archive may put everything below one top-level folder named
 * after the shared item, so `top/` is taken off when every entry starts with it.
 */
function entriesBelow(zip: Buffer, top: string): Map<string, string> {
  const names = entryNames(zip);
  for (const name of names) expect(appnoteProblem(name), JSON.stringify(name)).toBeNull();
  expect(readLocalHeaders(zip).every((header) => (header.flags & 0x0800) !== 0)).toBe(true);
  const nested = names.every((name) => name.startsWith(`${top}/`));
  const bytes = new Map(readZip(zip).map((entry) => [entry.name, entry.bytes.toString()]));
  return new Map(
    names
      .filter((name) => !nested || name !== `${top}/`)
      .map((name) => [nested ? name.slice(top.length + 1) : name, bytes.get(name)!]),
  );
}

describe('zip entry names follow APPNOTE 4.4.17, central directory and local headers alike', () => {
  it.each(Object.keys(ROUTES))('for names that arrive through %s, in a folder and a collection', async (route) => {
    const { shapes, send } = ROUTES[route]!;
    const root = await folder(`by ${route}`);
    const collection = await t.request('POST', '/api/collection', { token, json: { name: `by ${route}` } });
    const expected = new Map<string, string>();
    for (const [shape, sent, stored, entry] of shapes) {
      const content = `${route}: ${shape}`;
      const file = await send(sent, content, root);
      // The display name keeps its colon; only the archive's entry name changes.
      expect(file.name, shape).toBe(stored);
      expect((await t.request('PUT', `/api/collection/${collection.body.id}/file/${file.id}`, { token })).status).toBe(200);
      expected.set(entry, content);
    }
    expect(entriesBelow(await share('folder', root), `by ${route}`)).toEqual(expected);
    expect(entriesBelow(await share('collection', collection.body.id), `by ${route}`)).toEqual(expected);
  });

  it('for folders named like drives and parents, created or renamed, with files inside', async () => {
    const root = await folder('Folders');
    const [[driveName, driveEntry], [dotsName, dotsEntry]] = FOLDER_SHAPES as [[string, string], [string, string]];
    const drive = await folder(driveName, root);
    const dots = await folder(dotsName, drive);
    const renamed = await folder('plain', root);
    const rename = await t.request('PATCH', `/api/folder/${renamed}`, { token, json: { name: 'E:' } });
    expect(rename.body.name).toBe('E:');
    await t.upload(token, 'inner', { folderId: drive, filename: 'inner.txt' });
    await t.upload(token, 'deep', { folderId: dots, filename: 'deep.txt' });
    await t.upload(token, 'renamed', { folderId: renamed, filename: 'D:' });
    expect(entriesBelow(await share('folder', root), 'Folders')).toEqual(
      new Map([
        [`${driveEntry}/`, ''],
        [`${driveEntry}/${dotsEntry}/`, ''],
        ['E_/', ''],
        [`${driveEntry}/inner.txt`, 'inner'],
        [`${driveEntry}/${dotsEntry}/deep.txt`, 'deep'],
        ['E_/D_', 'renamed'],
      ]),
    );
  });

  it('the check above catches each forbidden shape (it can fail)', () => {
    for (const name of ['C:/win.txt', 'D:', 'a:b', '/etc/passwd', 'dir\\x', '../x', 'a/./b', 'a//b', 'x\u0007', '. ./x']) {
      expect(appnoteProblem(name), name).not.toBeNull();
    }
    for (const name of ['C__win.txt', 'D_', 'dir/', 'dir/a_b', '...x', '_ _/x']) expect(appnoteProblem(name), name).toBeNull();
  });
});
