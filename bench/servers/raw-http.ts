import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileWriteBack, writeAll } from '../../src/adapters/fs-blob-store/write-back.js';
import { STORAGE_BATCH } from '../../src/application/files/storage-meter.js';

/**
 * The ceiling: plain node:http with no framework, no validation and no persistence. It answers the share body
 * (as bare-koa does), echoes stored JSON fixtures (the floor of a search or folder read: the same bytes, serialized
 * per request), pipes an upload body to a file (into the page cache, or `?durable=1` onto the disk) and streams that
 * file back.
 */
const port = Number(process.env.PORT);
const host = process.env.HOST ?? '127.0.0.1';
const dir = process.env.BENCH_DIR ?? '';
const share = JSON.parse(process.env.SHARE_BODY ?? '{}') as Record<string, unknown>;
let uploads = 0;
/**
 * Each upload goes to a new file, as Coffer's do (overwriting one file in place measured faster on this machine's
 * virtual disk). The bench removes them with `DELETE /upload` after each round, outside any timed upload, as it
 * deletes Coffer's: removing the previous gigabyte at the start of the next upload put the unlink (and the discards
 * this disk's `discard` mount makes of it) inside the raw pipe's timed window, where Coffer's never was.
 */
let uploadPath = join(dir, 'raw-upload-0.bin');
const stored: string[] = [];
const fixtures = new Map<string, unknown>();
let views = 0;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  const length = Buffer.byteLength(text);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
  res.end(text);
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The body in batches of Coffer's write size (its storage meter gathers network chunks into STORAGE_BATCH and the file
 * store writes each batch with one writev, without copying), so both sides make the same writes: the ceiling is
 * fair both ways, neither flattered by fewer syscalls nor burdened by a copy Coffer does not make.
 */
async function* batched(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer[]> {
  let batch: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    batch.push(chunk);
    bytes += chunk.byteLength;
    if (bytes >= STORAGE_BATCH) {
      yield batch;
      [batch, bytes] = [[], 0];
    }
  }
  if (bytes > 0) yield batch;
}

/**
 * `durable`: the bytes are on the disk before the answer, by the same steps as Coffer's file store takes for a blob
 * of a single-request upload: write-back started every WRITE_BACK_BYTES while the body arrives, a flush at the end,
 * then the file renamed into place (here within one directory) and its directory flushed. It is the durable ceiling:
 * Coffer's way of making an upload durable, without the rest of Coffer. Every file made, finished or not, is listed
 * for `DELETE /upload`.
 */
async function upload(req: IncomingMessage, res: ServerResponse, durable: boolean): Promise<void> {
  const name = `raw-upload-${++uploads}.bin`;
  const done = join(dir, name);
  const writing = durable ? `${done}.part` : done;
  stored.push(writing);
  const out = await open(writing, 'wx');
  const writeBack = durable ? new FileWriteBack(out) : null;
  let size = 0;
  try {
    // The same few lines Coffer's file store writes with (a writev, again for what a short one left).
    for await (const batch of batched(req as AsyncIterable<Buffer>)) {
      const written = await writeAll(out, batch);
      size += written;
      writeBack?.wrote(written);
    }
    if (writeBack) {
      await writeBack.callOff();
      await out.sync();
    }
  } finally {
    await writeBack?.callOff();
    await out.close();
  }
  if (durable) {
    await rename(writing, done);
    stored[stored.indexOf(writing)] = done;
    const folder = await open(dir, 'r');
    await folder.sync().finally(() => folder.close());
  }
  uploadPath = done;
  json(res, 201, { size: String(size) });
}

async function download(res: ServerResponse): Promise<void> {
  const found = await stat(uploadPath).catch(() => null);
  if (!found) return json(res, 404, { error: 'no upload' });
  const { size } = found;
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
  await pipeline(createReadStream(uploadPath), res);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://raw');
  const fixture = /^\/fixture\/([\w-]+)$/.exec(url.pathname)?.[1];
  if (url.pathname === '/health') return json(res, 200, { status: 'ok' });
  if (req.method === 'GET' && url.pathname.startsWith('/api/share/')) {
    return json(res, 200, { ...share, views: ++views });
  }
  if (fixture && req.method === 'PUT') {
    fixtures.set(fixture, JSON.parse((await readAll(req)).toString('utf8')));
    return json(res, 200, { stored: fixture });
  }
  if (fixture && fixtures.has(fixture)) {
    await readAll(req);
    return json(res, 200, fixtures.get(fixture));
  }
  if (req.method === 'POST' && url.pathname === '/upload') {
    return upload(req, res, url.searchParams.get('durable') === '1');
  }
  if (req.method === 'GET' && url.pathname === '/download') return download(res);
  if (req.method === 'DELETE' && url.pathname === '/upload') {
    while (stored.length > 0) {
      await rm(stored[0]!, { force: true });
      stored.shift();
    }
    return json(res, 200, { removed: true });
  }
  json(res, 404, { error: 'not_found' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    if (!res.headersSent) json(res, 500, { error: String(err) });
    else res.destroy();
  });
});
server.requestTimeout = 0;
server.listen(port, host);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
