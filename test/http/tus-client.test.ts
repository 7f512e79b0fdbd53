import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { MIB, cuttingRelay, downloadSha256, sampleBytes, sha256, tusUpload } from '../support/tus-client.js';

describe('tus-js-client against the filesystem store', () => {
  let t: HttpTest;
  afterEach(() => t.close());

  it('uploads 64 MiB in 8 MiB chunks, is cut off mid-chunk, resumes where the server says, and the bytes match', async () => {
    t = await makeHttp({ blobs: 'fs', maxUploadBytes: 128 * MIB, limits: { storage: 256 * MIB } });
    const token = await t.userToken('alice');
    const data = sampleBytes(64 * MIB);
    // Cut inside the third chunk's request.
    const relay = await cuttingRelay(t.url, 20 * MIB + 12345);
    try {
      const { fileId, resumedAt } = await tusUpload(relay.url, token, data, { chunkSize: 8 * MIB });
      expect(relay.cuts).toBe(1);
      // The client asked where to go on, and the server kept what arrived before the cut (past two whole chunks).
      expect(resumedAt.length).toBeGreaterThan(0);
      expect(Math.max(...resumedAt)).toBeGreaterThanOrEqual(16 * MIB);
      expect(await downloadSha256(t.url, fileId, token)).toEqual({ hash: sha256(data), size: data.length });
      const usage = await t.request('GET', '/api/usage/stats', { token });
      expect(usage.body.storage.current).toBe(String(data.length));
    } finally {
      await relay.close();
    }
  }, 120_000);
});
