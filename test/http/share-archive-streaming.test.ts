import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/ports/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The blob store, except that the read of `held()` waits until `release` is called. */
function holdingOneBlob(held: () => string | null, released: Promise<void>) {
  return (ports: Ports): Ports => ({
    ...ports,
    // The store's other methods, through its prototype (a spread would drop a class's methods).
    blobs: Object.assign(Object.create(ports.blobs) as Ports['blobs'], {
      read: async (key: string, range?: Parameters<Ports['blobs']['read']>[1]) => {
        if (key === held()) await released;
        return ports.blobs.read(key, range);
      },
    }),
  });
}

/** The first `atLeast` bytes of a response (as they came, maybe more), and the request to end it with. */
function firstBytes(
  url: string,
  atLeast: number,
): Promise<{ status: number; length: string | undefined; chunk: Buffer; end(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const take = (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received < atLeast) return;
        res.off('data', take);
        const length = res.headers['content-length'];
        resolve({ status: res.statusCode!, length, chunk: Buffer.concat(chunks), end: () => res.destroy() });
      };
      res.on('data', take);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a share archive is streamed as it is built', () => {
  it('sends the first file while the last one has not been opened yet', async () => {
    let heldKey: string | null = null;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const http = await makeHttp({ wrapPorts: holdingOneBlob(() => heldKey, released) });
    t = http;
    const token = await http.userToken('alice');
    const folder = (await http.request('POST', '/api/folder', { token, json: { name: 'Big' } })).body.id as string;
    const first = await http.upload(token, 'a'.repeat(200_000), { filename: 'a.txt', folderId: folder });
    const last = await http.upload(token, 'z'.repeat(10), { filename: 'z.txt', folderId: folder });
    expect([first.status, last.status]).toEqual([201, 201]);
    heldKey = (await http.ports.files.findById(last.body.id))!.blobKey;
    const share = await http.request('POST', '/api/share', { token, json: { type: 'folder', id: folder } });

    const res = await firstBytes(`${http.url}/s/${share.body.id}/archive`, 4096);
    expect(res.status).toBe(200);
    expect(Number(res.length)).toBeGreaterThan(200_010);
    // Local headers (the top directory's, then a.txt's) and a.txt's bytes: the archive was under way before z.txt's
    // bytes could be read.
    expect(res.chunk.readUInt32LE(0)).toBe(0x04034b50);
    expect(res.chunk.includes(Buffer.from('Big/a.txt'))).toBe(true);
    expect(res.chunk.includes(Buffer.from('a'.repeat(1000)))).toBe(true);
    release();
    res.end();
  });
});
