import { Upload, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { cuttingRelay, sampleBytes, sha256 } from '../support/tus-client.js';

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

const TUS = { 'Tus-Resumable': '1.0.0' };
const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`).join(',');

/** tus-js-client with no credential at all, as an uploader's browser; resolves with the file id and each HEAD's offset. */
function uploaderUpload(base: string, data: Buffer, metadata: Record<string, string>, password?: string) {
  const resumedAt: number[] = [];
  return new Promise<{ fileId: string; resumedAt: number[] }>((resolve, reject) => {
    new Upload(data, {
      endpoint: `${base}/api/upload/tus`,
      chunkSize: 64 * 1024,
      headers: password ? { 'X-Request-Password': password } : {},
      metadata: { filetype: 'application/octet-stream', ...metadata },
      retryDelays: [0, 100, 300, 1000],
      storeFingerprintForResuming: false,
      onAfterResponse: (req: HttpRequest, res: HttpResponse) => {
        if (req.getMethod() === 'HEAD') resumedAt.push(Number(res.getHeader('Upload-Offset')));
      },
      onSuccess: ({ lastResponse }) => resolve({ fileId: lastResponse.getHeader('X-File-Id') ?? '', resumedAt }),
      onError: reject,
    }).start();
  });
}

describe('tus into a file request', () => {
  it('needs no credential, is cut and resumed, and lands in the owner\'s folder with the uploader\'s name', async () => {
    const request = (await t.request('POST', '/api/request', { token: alice, json: { name: 'big', password: 'pass-word', maxBytes: '400000' } })).body;
    const data = sampleBytes(300_000);
    const relay = await cuttingRelay(t.url, 150_000);
    try {
      const { fileId, resumedAt } = await uploaderUpload(relay.url, data, { filename: 'big.bin', requestId: request.id, uploaderName: 'Zoe' }, 'pass-word');
      expect(relay.cuts).toBe(1);
      expect(resumedAt.length).toBeGreaterThan(0);
      const file = (await t.request('GET', `/api/file/${fileId}`, { token: alice })).body;
      expect(file).toMatchObject({ folderId: request.folderId, size: '300000', request: { id: request.id, uploaderName: 'Zoe' } });
      const bytes = (await t.request('GET', `/api/file/${fileId}/content`, { token: alice })).bytes;
      expect(sha256(bytes)).toBe(sha256(data));
      expect((await t.request('GET', `/api/request/${request.id}`, { token: alice })).body).toMatchObject({ files: 1, bytes: '300000' });
      expect((await t.request('GET', '/api/usage/stats', { token: alice })).body).toMatchObject({ files: { current: 1 }, storage: { current: '300000' } });
      // The request's activity has the file it received, as a multipart upload's.
      const activity = (await t.request('GET', `/api/request/${request.id}/activity`, { token: alice })).body;
      expect(activity).toMatchObject([{ kind: 'received', requestId: request.id, fileId, bytes: '300000', complete: true }]);
    } finally {
      await relay.close();
    }
  });

  it('refuses at creation what the request does not take; DELETE of the uploader\'s own upload gives the room back', async () => {
    const request = (await t.request('POST', '/api/request', { token: alice, json: { name: 'r', maxFiles: 1, maxFileBytes: '100', allowedTypes: ['.txt'] } })).body;
    const start = (length: number, pairs: Record<string, string>) =>
      t.request('POST', '/api/upload/tus', { headers: { ...TUS, 'Upload-Length': String(length), 'Upload-Metadata': meta({ requestId: request.id, ...pairs }) } });
    expect((await start(10, { filename: 'a.exe' })).status).toBe(415);
    expect((await start(101, { filename: 'a.txt' })).status).toBe(413);
    expect((await start(10, { filename: 'a.txt', folderId: request.folderId })).status).toBe(400);
    const created = await start(10, { filename: 'a.txt' });
    expect(created.status).toBe(201);
    expect((await start(10, { filename: 'b.txt' })).status).toBe(410);
    const location = created.headers.get('location')!;
    expect((await t.request('HEAD', location, { headers: TUS })).headers.get('upload-offset')).toBe('0');
    expect((await t.request('DELETE', location, { headers: TUS })).status).toBe(204);
    expect((await t.request('GET', `/api/request/${request.id}`, { token: alice })).body).toMatchObject({ files: 0, bytes: '0' });
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.files.current).toBe(0);
    expect((await start(10, { filename: 'b.txt' })).status).toBe(201);
  });

  it('opens no other upload without a credential, and a closed request ends its uploads', async () => {
    const own = await t.request('POST', '/api/upload/tus', { token: alice, headers: { ...TUS, 'Upload-Length': '5', 'Upload-Metadata': meta({ filename: 'x' }) } });
    const ownLocation = own.headers.get('location')!;
    expect((await t.request('HEAD', ownLocation, { headers: TUS })).status).toBe(401);
    expect((await t.request('DELETE', ownLocation, { headers: TUS })).status).toBe(401);
    expect((await t.request('HEAD', '/api/upload/tus/AAAAAAAAAAAAAAAAAAAAAA', { headers: TUS })).status).toBe(401);
    const request = (await t.request('POST', '/api/request', { token: alice, json: { name: 'r' } })).body;
    const created = await t.request('POST', '/api/upload/tus', { headers: { ...TUS, 'Upload-Length': '4', 'Upload-Metadata': meta({ requestId: request.id, filename: 'a' }) } });
    await t.request('PATCH', `/api/request/${request.id}`, { token: alice, json: { closed: true } });
    const append = await t.request('PATCH', created.headers.get('location')!, {
      headers: { ...TUS, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: 'abcd',
    });
    expect(append.status).toBe(410);
    expect((await t.request('GET', `/api/request/${request.id}`, { token: alice })).body).toMatchObject({ files: 0, bytes: '0' });
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.files.current).toBe(1);
  });
});
