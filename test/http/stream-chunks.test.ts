import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamChunks } from '../../src/adapters/http/uploads/stream-chunks.js';

const KiB = 1024;
const chunk = (size: number, fill: number) => Buffer.alloc(size, fill);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('streamChunks', () => {
  it('yields every chunk in order, unjoined, and ends with the stream', async () => {
    const source = new PassThrough();
    const chunks = streamChunks(source);
    const written = [chunk(10, 1), chunk(64 * KiB, 2), chunk(3, 3)];
    for (const piece of written) source.write(piece);
    source.end();
    const read: Buffer[] = [];
    for await (const piece of chunks) read.push(Buffer.from(piece));
    expect(read).toEqual(written);
  });

  it('hands a chunk to a consumer already waiting for it', async () => {
    const source = new PassThrough();
    const chunks = streamChunks(source);
    const next = chunks.next();
    source.write(chunk(5, 7));
    await expect(next).resolves.toEqual({ done: false, value: chunk(5, 7) });
  });

  it('pauses the stream once 256 KiB wait unread, and resumes it when the consumer has taken them', async () => {
    const source = new PassThrough({ highWaterMark: 16 * KiB });
    const chunks = streamChunks(source);
    let accepted = 0;
    for (let i = 0; i < 16; i++) if (source.write(chunk(64 * KiB, i))) accepted++;
    await settle();
    expect(source.isPaused()).toBe(true);
    // The stream's own buffers fill behind the pause, so the writer sees backpressure.
    expect(accepted).toBeLessThan(16);
    for (let i = 0; i < 4; i++) expect((await chunks.next()).value?.[0]).toBe(i);
    expect(source.isPaused()).toBe(false);
    source.end();
    let rest = 0;
    for await (const piece of chunks) rest += piece.byteLength;
    expect(rest).toBe(12 * 64 * KiB);
  });

  it("rejects with the stream's error once the chunks before it are taken", async () => {
    const source = new PassThrough();
    const chunks = streamChunks(source);
    source.write(chunk(4, 1));
    await settle();
    source.destroy(new Error('cut'));
    await expect(chunks.next()).resolves.toEqual({ done: false, value: chunk(4, 1) });
    await expect(chunks.next()).rejects.toThrow('cut');
  });

  it('rejects a waiting consumer when the stream closes before its end', async () => {
    const source = new PassThrough();
    const chunks = streamChunks(source);
    const next = chunks.next();
    source.destroy();
    await expect(next).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('destroys the stream when the consumer stops early, unless told to leave it', async () => {
    const destroyed = new PassThrough();
    const kept = new PassThrough();
    for (const source of [destroyed, kept]) source.write(chunk(8, 1));
    const first = streamChunks(destroyed);
    const second = streamChunks(kept, { destroyOnReturn: false });
    for (const chunks of [first, second]) {
      for await (const piece of chunks) {
        expect(piece.byteLength).toBe(8);
        break;
      }
    }
    expect(destroyed.destroyed).toBe(true);
    expect(kept.destroyed).toBe(false);
    expect(await second.next()).toEqual({ done: true, value: undefined });
  });

  it('reads a Readable of many small chunks without losing or reordering a byte', async () => {
    const pieces = Array.from({ length: 2000 }, (_, i) => chunk(1 + (i % 97), i % 251));
    const total = Buffer.concat(pieces);
    const read: Buffer[] = [];
    for await (const piece of streamChunks(Readable.from(pieces))) read.push(Buffer.from(piece));
    expect(Buffer.concat(read).equals(total)).toBe(true);
  });
});
