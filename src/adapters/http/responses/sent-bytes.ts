import { Readable } from 'node:stream';
import type { Context } from 'koa';

/**
 * The body as a stream that counts what it hands on, and tells `sent` once the response is over: finished (every
 * byte written) or closed before (the client went away, a read failed). The count is what was handed to the
 * connection; a cut connection may have lost what its socket still buffered.
 */
export function countedBody(
  ctx: Context,
  bytes: AsyncIterable<Uint8Array>,
  sent: (bytes: number, complete: boolean) => void,
): Readable {
  let count = 0;
  async function* counting() {
    for await (const chunk of bytes) {
      count += chunk.byteLength;
      yield chunk;
    }
  }
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    sent(count, ctx.res.writableFinished);
  };
  ctx.res.once('finish', tell);
  ctx.res.once('close', tell);
  return Readable.from(counting(), { objectMode: false });
}
