import type { Context } from 'koa';

type Write = typeof import('node:http').ServerResponse.prototype.write;

/**
 * Counts the body bytes written to this response and tells `sent` once it is over: finished (every byte written) or
 * closed before (the client went away, a read failed). It counts at the response's own `write`, so the body stream
 * stays the one the store handed over (no extra stream layer on every download). The count is what was handed to the
 * connection; a cut connection may have lost what its socket still buffered.
 */
export function countSent(ctx: Context, sent: (bytes: number, complete: boolean) => void): void {
  const res = ctx.res;
  let count = 0;
  const write = res.write as Write;
  res.write = function (this: typeof res, chunk: unknown, ...rest: unknown[]) {
    count += typeof chunk === 'string' ? Buffer.byteLength(chunk) : ((chunk as Uint8Array | undefined)?.byteLength ?? 0);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Write;
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    sent(count, res.writableFinished);
  };
  res.once('finish', tell);
  res.once('close', tell);
}
