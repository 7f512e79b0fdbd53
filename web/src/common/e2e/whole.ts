import { decryptStream, encryptStream, type EncryptOptions } from './ece.js';

/** Runs bytes through a transform: for small things only (the metadata object, a paste, tests). */
async function through(bytes: Uint8Array, transform: TransformStream<Uint8Array, Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  const reader = source.pipeThrough(transform).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const encryptBytes = (ikm: Uint8Array, plain: Uint8Array, options?: EncryptOptions) =>
  through(plain, encryptStream(ikm, options));

export const decryptBytes = (ikm: Uint8Array, message: Uint8Array) => through(message, decryptStream(ikm));
