import { randomBytes } from 'node:crypto';

export interface MultipartFrame {
  contentType: string;
  /** The fields and the file part's headers: everything before the file's bytes. */
  head: Buffer;
  /** The closing boundary after the file's bytes. */
  tail: Buffer;
}

/** A multipart/form-data frame with `fields` first (Coffer wants them before the file) and one `file` part. */
export function multipartFrame(fields: Record<string, string>, filename: string, mime: string): MultipartFrame {
  const boundary = `----coffer-bench-${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n`;
  head += `Content-Type: ${mime}\r\n\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(head, 'utf8'),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  };
}

/** A small upload's whole body. */
export function smallMultipart(fields: Record<string, string>, filename: string, content: Buffer) {
  const frame = multipartFrame(fields, filename, 'text/plain');
  return { contentType: frame.contentType, body: Buffer.concat([frame.head, content, frame.tail]) };
}

/**
 * `size` bytes generated on the fly from one random MiB repeated, so a 1 GiB upload costs the bench 1 MiB of memory
 * and no disk reads that would compete with the server's writes.
 */
export async function* generatedBytes(size: number): AsyncGenerator<Buffer> {
  const block = randomBytes(1024 * 1024);
  let left = size;
  while (left > 0) {
    const n = Math.min(left, block.length);
    yield n === block.length ? block : block.subarray(0, n);
    left -= n;
  }
}

/** The multipart body of a generated file of `size` bytes, streamed, with its exact length. */
export function streamedMultipart(fields: Record<string, string>, filename: string, size: number) {
  const frame = multipartFrame(fields, filename, 'application/octet-stream');
  async function* body(): AsyncGenerator<Buffer> {
    yield frame.head;
    yield* generatedBytes(size);
    yield frame.tail;
  }
  return { contentType: frame.contentType, length: frame.head.length + size + frame.tail.length, body };
}
