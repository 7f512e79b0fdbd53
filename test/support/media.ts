import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG of one colour, made here: 8-bit RGB, every row unfiltered. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Reads an EBML variable-length integer (an element size): its value and its length in bytes. */
function readVint(bytes: Buffer, at: number): { value: number; length: number } {
  const first = bytes[at]!;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + bytes[at + i]!;
  return { value, length };
}

/** An 8-byte EBML size. */
function sizeVint(value: number): Buffer {
  const out = Buffer.alloc(8);
  out[0] = 0x01;
  out.writeUIntBE(value, 2, 6);
  return out;
}

const ID_LENGTH = (first: number) => (first & 0x80 ? 1 : first & 0x40 ? 2 : first & 0x20 ? 3 : 4);

/**
 * A recorder's WebM has no Duration, so a player cannot seek in it: write one into its Segment Info (ms, as the
 * default TimecodeScale of 1 ms counts). The Segment's size is "unknown" in such files, so nothing else moves.
 */
export function withDuration(webm: Buffer, ms: number): Buffer {
  const header = readVint(webm, 4);
  let at = 4 + header.length + header.value; // past the EBML header
  at += 4; // the Segment's id
  at += readVint(webm, at).length;
  while (at < webm.length) {
    const idLength = ID_LENGTH(webm[at]!);
    const id = webm.readUIntBE(at, idLength);
    const size = readVint(webm, at + idLength);
    const dataAt = at + idLength + size.length;
    if (id === 0x1549a966) {
      const duration = Buffer.alloc(11);
      duration.set([0x44, 0x89, 0x88], 0);
      duration.writeDoubleBE(ms, 3);
      const info = Buffer.concat([webm.subarray(dataAt, dataAt + size.value), duration]);
      return Buffer.concat([
        webm.subarray(0, at + idLength),
        sizeVint(info.length),
        info,
        webm.subarray(dataAt + size.value),
      ]);
    }
    at = dataAt + size.value;
  }
  throw new Error('no Segment Info in this WebM');
}

/**
 * A short, real VP8 video, recorded by Chromium itself from a canvas whose colour changes every frame (there is no
 * encoder on this machine, and a hand-made one would need a hand-made VP8 bitstream). Made on a blank page.
 */
export async function recordWebm(browser: Browser, seconds = 3): Promise<Buffer> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const script = `(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    document.body.append(canvas);
    const draw = canvas.getContext('2d');
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' });
    const chunks = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    const start = performance.now();
    let frame = 0;
    await new Promise((resolve) => {
      const tick = () => {
        draw.fillStyle = 'hsl(' + (frame++ * 12) % 360 + ', 80%, 50%)';
        draw.fillRect(0, 0, 64, 48);
        if (performance.now() - start < ${seconds * 1000}) setTimeout(tick, 40);
        else resolve();
      };
      tick();
    });
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return { data: btoa(text), ms: performance.now() - start };
  })()`;
  const { data, ms } = await page.evaluate<{ data: string; ms: number }>(script);
  await context.close();
  return withDuration(Buffer.from(data, 'base64'), Math.round(ms));
}
