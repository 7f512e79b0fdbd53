import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

const TUS = { 'tus-resumable': '1.0.0' };
const STREAM = { ...TUS, 'content-type': 'application/offset+octet-stream' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const sha1 = (text: string) => createHash('sha1').update(text).digest('base64');

describe('the tus 1.0 endpoint', () => {
  let t: HttpTest;
  let token: string;
  beforeEach(async () => {
    t = await makeHttp({ maxUploadBytes: 1000, limits: { storage: 600 } });
    token = await t.userToken('alice');
  });
  afterEach(() => t.close());

  const create = async (length: number, metadata = `filename ${b64('notes.txt')},filetype ${b64('text/plain')}`) => {
    const res = await t.request('POST', '/api/upload/tus', {
      token,
      headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': metadata },
    });
    expect(res.status).toBe(201);
    return res.headers.get('location')!;
  };
  const patch = (location: string, offset: number, body: string, headers: Record<string, string> = {}) =>
    t.request('PATCH', location, { token, headers: { ...STREAM, 'upload-offset': String(offset), ...headers }, body });
  const head = (location: string) => t.request('HEAD', location, { token, headers: TUS });

  it('announces its version, extensions, maximum size and checksum algorithm', async () => {
    const res = await t.request('OPTIONS', '/api/upload/tus');
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination,expiration,checksum');
    expect(res.headers.get('tus-max-size')).toBe('1000');
    expect(res.headers.get('tus-checksum-algorithm')).toBe('sha1');
  });

  it('creates, reports, appends and completes an upload into a file', async () => {
    const location = await create(11);
    expect(location).toMatch(/^\/api\/upload\/tus\/[A-Za-z0-9_-]+$/);
    const state = await head(location);
    expect(state.status).toBe(200);
    expect(state.headers.get('tus-resumable')).toBe('1.0.0');
    expect(state.headers.get('upload-offset')).toBe('0');
    expect(state.headers.get('upload-length')).toBe('11');
    expect(state.headers.get('cache-control')).toBe('no-store');
    expect(new Date(state.headers.get('upload-expires')!).getTime()).toBeGreaterThan(t.clock.now().getTime());

    const first = await patch(location, 0, 'hello ');
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('6');
    const last = await patch(location, 6, 'world');
    expect(last.status).toBe(204);
    const fileId = last.headers.get('x-file-id')!;
    expect(location.endsWith(fileId)).toBe(true);
    const file = await t.request('GET', `/api/file/${fileId}`, { token });
    expect(file.body).toMatchObject({ name: 'notes.txt', mime: 'text/plain', size: '11', shareId: null });
    expect((await t.request('GET', `/api/file/${fileId}/content`, { token })).text).toBe('hello world');
    // Whole: HEAD says so, and the upload takes no more bytes.
    expect((await head(location)).headers.get('upload-offset')).toBe('11');
    expect((await patch(location, 11, 'more')).status).toBe(413);
  });

  it('answers 409 with the offset it holds to an append at the wrong offset, storing nothing of it', async () => {
    const location = await create(10);
    await patch(location, 0, 'abcd');
    const wrong = await patch(location, 2, 'XXXXXX');
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ error: 'conflict', offset: 4 });
    expect(wrong.headers.get('tus-resumable')).toBe('1.0.0');
    expect((await head(location)).headers.get('upload-offset')).toBe('4');
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body.storage.current).toBe('4');
  });

  it('answers 412 with the version it speaks to a request without Tus-Resumable', async () => {
    for (const [method, path] of [
      ['POST', '/api/upload/tus'],
      ['HEAD', `/api/upload/tus/${'a'.repeat(22)}`],
      ['PATCH', `/api/upload/tus/${'a'.repeat(22)}`],
      ['DELETE', `/api/upload/tus/${'a'.repeat(22)}`],
    ] as const) {
      const res = await t.request(method, path, { token, headers: { 'upload-length': '5' } });
      expect(res.status, `${method} ${path}`).toBe(412);
      expect(res.headers.get('tus-version')).toBe('1.0.0');
      if (method !== 'HEAD') expect(res.body.error).toBe('precondition_failed');
    }
  });

  it('refuses at creation an Upload-Length past the upload cap (413) or the storage left (403), holding nothing', async () => {
    const big = await t.request('POST', '/api/upload/tus', { token, headers: { ...TUS, 'upload-length': '1001' } });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'payload_too_large', maxBytes: 1000 });
    const full = await t.request('POST', '/api/upload/tus', { token, headers: { ...TUS, 'upload-length': '601' } });
    expect(full.status).toBe(403);
    expect(full.body).toMatchObject({ error: 'limit_reached', limit: 'storage' });
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body.files.current).toBe(0);
  });

  it('ends an upload whose bytes meet the storage limit midway (403), giving back all it held', async () => {
    const location = await create(500);
    expect((await t.upload(token, 'x'.repeat(200))).status).toBe(201);
    const refused = await patch(location, 0, 'y'.repeat(500));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'limit_reached', limit: 'storage' });
    expect((await head(location)).status).toBe(404);
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body).toMatchObject({ storage: { current: '200' }, files: { current: 1 } });
  });

  it('terminates an upload: 204, then 404 to its HEAD, PATCH and DELETE, its bytes and counts given back', async () => {
    const location = await create(10);
    await patch(location, 0, 'abc');
    const gone = await t.request('DELETE', location, { token, headers: TUS });
    expect(gone.status).toBe(204);
    expect((await patch(location, 3, 'defg')).status).toBe(404);
    expect((await head(location)).status).toBe(404);
    expect((await t.request('DELETE', location, { token, headers: TUS })).status).toBe(404);
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body).toMatchObject({ storage: { current: '0' }, files: { current: 0 } });
  });

  it('answers 410 once the upload expired', async () => {
    const location = await create(10);
    t.clock.advance(25 * 3_600_000);
    expect((await patch(location, 0, 'abc')).status).toBe(410);
    expect((await head(location)).status).toBe(410);
  });

  it('checks Upload-Checksum: a mismatch is 460 and stores nothing', async () => {
    const location = await create(10);
    const bad = await patch(location, 0, 'abcde', { 'upload-checksum': `sha1 ${sha1('abcdX')}` });
    expect(bad.status).toBe(460);
    expect(bad.body.error).toBe('checksum_mismatch');
    expect((await head(location)).headers.get('upload-offset')).toBe('0');
    const good = await patch(location, 0, 'abcde', { 'upload-checksum': `sha1 ${sha1('abcde')}` });
    expect(good.status).toBe(204);
    expect(good.headers.get('upload-offset')).toBe('5');
    const md5 = await patch(location, 5, 'fghij', { 'upload-checksum': `md5 ${sha1('x')}` });
    expect(md5.status).toBe(400);
  });

  it('refuses a PATCH that is not application/offset+octet-stream (415)', async () => {
    const location = await create(10);
    const res = await t.request('PATCH', location, {
      token,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
  });

  it('takes the first bytes with the creation (creation-with-upload)', async () => {
    const res = await t.request('POST', '/api/upload/tus', {
      token,
      headers: { ...STREAM, 'upload-length': '8', 'upload-metadata': `filename ${b64('a.bin')}` },
      body: 'abcd',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('4');
    expect((await patch(res.headers.get('location')!, 4, 'efgh')).headers.get('x-file-id')).toBeTruthy();
  });

  it('reads the share and its options from Upload-Metadata, and refuses bad metadata', async () => {
    const metadata = `filename ${b64('s.txt')},share ${b64('true')},maxViews ${b64('3')},relativePath ${b64('x/s.txt')}`;
    const location = await create(3, metadata);
    const done = await patch(location, 0, 'abc');
    const file = await t.request('GET', `/api/file/${done.headers.get('x-file-id')}`, { token });
    const share = await t.request('GET', `/api/share/${file.body.shareId}`, { token });
    expect(share.body).toMatchObject({ type: 'file', maxViews: 3 });

    for (const bad of ['filename !!!', `maxViews ${b64('3')}`, `a ${b64('1')},a ${b64('2')}`]) {
      const res = await t.request('POST', '/api/upload/tus', {
        token,
        headers: { ...TUS, 'upload-length': '3', 'upload-metadata': bad },
      });
      expect(res.status, bad).toBe(400);
    }
  });

  it('works with an uploader API token, and not without a token', async () => {
    const api = await t.request('POST', '/api/token', { token, json: { name: 'cli' } });
    const res = await t.request('POST', '/api/upload/tus', {
      token: api.body.token,
      headers: { ...TUS, 'upload-length': '3' },
    });
    expect(res.status).toBe(201);
    const anonymous = await t.request('POST', '/api/upload/tus', { headers: { ...TUS, 'upload-length': '3' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('tus-resumable')).toBe('1.0.0');
  });
});
