import { createHash } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { Upload, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { ADMIN } from '../mongodb/mongo-app.js';

export const MIB = 1024 * 1024;

/** Deterministic bytes that are not one repeated pattern, so a misplaced stretch would change the digest. */
export function sampleBytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i += 4) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Streams a file's content and hashes it, never holding it whole. */
export async function downloadSha256(url: string, fileId: string, token: string): Promise<{ hash: string; size: number }> {
  const res = await fetch(`${url}/api/file/${fileId}/content`, { headers: { authorization: `token ${token}` } });
  if (res.status !== 200 || !res.body) throw new Error(`download answered ${res.status}`);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { hash: hash.digest('hex'), size };
}

/**
 * A TCP relay in front of the server that closes the connection carrying byte `cutAt` of the client's traffic, once:
 * a client cut off mid-request, as a dropped network or a proxy timeout does it.
 */
export async function cuttingRelay(target: string, cutAt: number): Promise<{ url: string; cuts: number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let sent = 0;
  const state = { cuts: 0 };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    let severed = false;
    client.on('data', (chunk: Buffer) => {
      // A cut connection forwards nothing more: its last write may still wait on a busy upstream, and bytes read
      // meanwhile would land after a hole (the cut chunk's rest), which no real network delivers.
      if (severed) return;
      sent += chunk.length;
      if (state.cuts === 0 && sent >= cutAt) {
        state.cuts++;
        severed = true;
        client.pause();
        const keep = chunk.length - (sent - cutAt);
        upstream.write(chunk.subarray(0, keep), () => {
          client.destroy();
          upstream.destroy();
        });
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => {
      if (!severed) client.resume();
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get cuts() {
      return state.cuts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface TusResult {
  fileId: string;
  /** Upload-Offset of every HEAD the client made (each resumption asks the server where to go on). */
  resumedAt: number[];
}

/** Uploads `data` with tus-js-client, retrying after failures as a real client does; resolves with the file's id. */
export function tusUpload(
  baseUrl: string,
  token: string,
  data: Buffer,
  options: { chunkSize: number; filename?: string; metadata?: Record<string, string> },
): Promise<TusResult> {
  const resumedAt: number[] = [];
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: `${baseUrl}/api/upload/tus`,
      chunkSize: options.chunkSize,
      headers: { authorization: `token ${token}` },
      metadata: { filename: options.filename ?? 'big.bin', filetype: 'application/octet-stream', ...options.metadata },
      retryDelays: [0, 100, 300, 1000, 2000],
      storeFingerprintForResuming: false,
      onAfterResponse: (req: HttpRequest, res: HttpResponse) => {
        if (req.getMethod() === 'HEAD') resumedAt.push(Number(res.getHeader('Upload-Offset')));
      },
      onSuccess: ({ lastResponse }) => resolve({ fileId: lastResponse.getHeader('X-File-Id') ?? '', resumedAt }),
      onError: reject,
    });
    upload.start();
  });
}

/** A session of the configured admin of a service started with the test's ADMIN. */
export async function adminLogin(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await res.json()) as { token: string }).token;
}

/** The storage and file counters of the token's user. */
export async function usageOf(url: string, token: string): Promise<{ storage: string; files: number }> {
  const res = await fetch(`${url}/api/usage/stats`, { headers: { authorization: `token ${token}` } });
  const body = (await res.json()) as { storage: { current: string }; files: { current: number } };
  return { storage: body.storage.current, files: body.files.current };
}
