import { afterEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/adapters/http/routes/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const TUS = { 'tus-resumable': '1.0.0' };
const STREAM = { ...TUS, 'content-type': 'application/offset+octet-stream' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const SHARED = `filename ${b64('report.txt')},filetype ${b64('text/plain')},share ${b64('true')}`;

function pageData(html: string): unknown {
  const block = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html);
  return JSON.parse(block![1]!);
}

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** An app, alice's session token and an uploader (API) token of hers: what a script or ShareX holds. */
async function withUploader(options: Parameters<typeof makeHttp>[0] = {}) {
  const app = (t = await makeHttp(options));
  const session = await app.userToken('alice');
  const created = await app.request('POST', '/api/token', { token: session, json: { name: 'script' } });
  expect(created.status).toBe(201);
  const token = created.body.token as string;
  const create = async (length: number, metadata: string, extra: Record<string, string> = {}) => {
    const res = await app.request('POST', '/api/upload/tus', {
      token,
      headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': metadata, ...extra },
    });
    expect(res.status).toBe(201);
    return res;
  };
  const patch = (location: string, offset: number, body: string, extra: Record<string, string> = {}) =>
    app.request('PATCH', location, { token, headers: { ...STREAM, 'upload-offset': String(offset), ...extra }, body });
  const head = (location: string, extra: Record<string, string> = {}) =>
    app.request('HEAD', location, { token, headers: { ...TUS, ...extra } });
  return { app, session, token, create, patch, head };
}

describe('a tus upload that asked for a share names it', () => {
  it('the completing PATCH and a later HEAD give an uploader token the share and its page, which opens', async () => {
    const { app, session, token, create, patch, head } = await withUploader();
    const location = (await create(11, SHARED)).headers.get('location')!;
    const started = await patch(location, 0, 'hello ');
    expect(started.status).toBe(204);
    expect(started.headers.get('x-share-id')).toBeNull();
    expect((await head(location)).headers.get('x-share-id')).toBeNull();

    const done = await patch(location, 6, 'world');
    expect(done.status).toBe(204);
    const fileId = done.headers.get('x-file-id')!;
    const shareId = done.headers.get('x-share-id')!;
    const url = done.headers.get('x-share-url')!;
    expect(fileId).toBeTruthy();
    expect(shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(url).toBe(`${app.url}/s/${shareId}`);

    // The token cannot list shares: these headers are how it learns its link.
    expect((await app.request('GET', '/api/share', { token })).status).toBe(403);
    // The link is the share's page, readable by anyone, showing the uploaded file; its bytes come through it.
    const page = await app.request('GET', new URL(url).pathname);
    expect(page.status).toBe(200);
    expect(pageData(page.text)).toMatchObject({ state: 'open', share: { id: shareId, url, file: { id: fileId } } });
    expect((await app.request('GET', `/s/${shareId}/content`)).text).toBe('hello world');
    const api = await app.request('GET', `/api/share/${shareId}`);
    expect(api.body).toMatchObject({ id: shareId, type: 'file', url, file: { id: fileId, name: 'report.txt' } });

    // HEAD of the completed upload says the same, as long as the file is there.
    const after = await head(location);
    expect(after.status).toBe(200);
    expect(after.headers.get('upload-offset')).toBe('11');
    expect(after.headers.get('x-file-id')).toBe(fileId);
    expect(after.headers.get('x-share-id')).toBe(shareId);
    expect(after.headers.get('x-share-url')).toBe(url);

    // A share deleted since is no longer named; a file deleted since makes the upload unknown.
    expect((await app.request('DELETE', `/api/share/${shareId}`, { token: session })).status).toBe(204);
    const unshared = await head(location);
    expect(unshared.headers.get('x-file-id')).toBe(fileId);
    expect(unshared.headers.get('x-share-id')).toBeNull();
    expect(unshared.headers.get('x-share-url')).toBeNull();
    expect((await app.request('DELETE', `/api/file/${fileId}`, { token: session })).status).toBe(204);
    expect((await head(location)).status).toBe(404);
  });

  it('an upload without a share gets no share headers, on its PATCH nor its HEAD', async () => {
    const { create, patch, head } = await withUploader();
    const location = (await create(3, `filename ${b64('plain.txt')}`)).headers.get('location')!;
    const done = await patch(location, 0, 'abc');
    expect(done.status).toBe(204);
    expect(done.headers.get('x-file-id')).toBeTruthy();
    const after = await head(location);
    for (const res of [done, after]) {
      expect(res.headers.get('x-share-id')).toBeNull();
      expect(res.headers.get('x-share-url')).toBeNull();
    }
  });

  it('an empty upload is complete at creation: the POST names its share', async () => {
    const { app, create } = await withUploader();
    const res = await create(0, SHARED);
    const shareId = res.headers.get('x-share-id')!;
    expect(res.headers.get('x-file-id')).toBeTruthy();
    expect(res.headers.get('x-share-url')).toBe(`${app.url}/s/${shareId}`);
    expect((await app.request('GET', `/api/share/${shareId}`)).status).toBe(200);
  });

  it('the link honours PUBLIC_URL', async () => {
    const { create, patch, head } = await withUploader({ publicUrl: 'https://files.example.org' });
    const location = (await create(2, SHARED)).headers.get('location')!;
    const done = await patch(location, 0, 'hi');
    const shareId = done.headers.get('x-share-id')!;
    expect(done.headers.get('x-share-url')).toBe(`https://files.example.org/s/${shareId}`);
    expect((await head(location)).headers.get('x-share-url')).toBe(`https://files.example.org/s/${shareId}`);
  });

  it('the link honours the trusted proxy (TRUST_PROXY), and only it', async () => {
    const forwarded = { 'x-forwarded-host': 'coffer.example.net', 'x-forwarded-proto': 'https' };
    const trusting = await withUploader({ trustProxy: 1 });
    const location = (await trusting.create(2, SHARED)).headers.get('location')!;
    const done = await trusting.patch(location, 0, 'hi', forwarded);
    expect(done.headers.get('x-share-url')).toBe(`https://coffer.example.net/s/${done.headers.get('x-share-id')}`);
    await t!.close();
    t = undefined;

    const direct = await withUploader();
    const there = (await direct.create(2, SHARED)).headers.get('location')!;
    const plain = await direct.patch(there, 0, 'hi', forwarded);
    expect(plain.headers.get('x-share-url')).toBe(`${direct.app.url}/s/${plain.headers.get('x-share-id')}`);
  });
});

it('the OpenAPI document names both headers on every answer that can complete an upload', () => {
  type Operation = { responses: Record<string, { headers: Record<string, unknown> }> };
  const paths = buildOpenApiDocument({ web: false }).paths as Record<string, Record<string, Operation>>;
  const answers = [
    paths['/api/upload/tus']!['post']!.responses['201'],
    paths['/api/upload/tus/{id}']!['head']!.responses['200'],
    paths['/api/upload/tus/{id}']!['patch']!.responses['204'],
  ];
  for (const answer of answers) {
    expect(Object.keys(answer!.headers)).toEqual(expect.arrayContaining(['X-File-Id', 'X-Share-Id', 'X-Share-Url']));
  }
});

describe("an uploader token learns nothing of the user's other files through HEAD", () => {
  it('answers 404 for a file it did not upload, even one its user shared', async () => {
    const { app, session, head } = await withUploader();
    const other = await app.upload(session, 'made in the browser', { filename: 'private.txt' });
    expect(other.status).toBe(201);
    const shared = await app.request('POST', '/api/share', { token: session, json: { type: 'file', id: other.body.id } });
    expect(shared.status).toBe(201);
    const probe = await head(`/api/upload/tus/${other.body.id}`);
    expect(probe.status).toBe(404);
    expect(probe.headers.get('x-share-id')).toBeNull();
    // Its user's session still learns the file and its share that way.
    const own = await app.request('HEAD', `/api/upload/tus/${other.body.id}`, { token: session, headers: TUS });
    expect(own.status).toBe(200);
    expect(own.headers.get('x-share-id')).toBe(shared.body.id);
  });
});
