import { fromBase64Url, toBase64Url } from './base64url.js';

/** A file's key: 16 random bytes, the input keying material of its aes128gcm messages. */
export const KEY_BYTES = 16;

export function newFileKey(): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(KEY_BYTES));
}

/** The fragment a share link carries its key in: `#k=<base64url key>`; never sent to the server. */
export const keyFragment = (key: Uint8Array) => `#k=${toBase64Url(key)}`;

/** The key in a link's fragment (`#k=…`, among other `&`-separated parts), or null when there is none or it is malformed. */
export function keyFromFragment(hash: string): Uint8Array<ArrayBuffer> | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const encoded = params.get('k');
  const key = encoded === null ? null : fromBase64Url(encoded);
  return key && key.length === KEY_BYTES ? key : null;
}
