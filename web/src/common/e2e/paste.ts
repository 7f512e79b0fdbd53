import { fromBase64Url, toBase64Url } from './base64url.js';
import { EceError } from './ece.js';
import { decryptBytes, encryptBytes } from './whole.js';

/** What an encrypted paste holds: its name, its syntax type and its text. */
export interface PastePlain {
  name: string;
  type: string;
  content: string;
}

/** The paste as UTF-8 JSON, one aes128gcm message under the paste's key, as base64url: the `content` the server keeps. */
export async function sealPaste(key: Uint8Array, paste: PastePlain): Promise<string> {
  const json = JSON.stringify({ name: paste.name, type: paste.type, content: paste.content });
  return toBase64Url(await encryptBytes(key, new TextEncoder().encode(json)));
}

export async function openPaste(key: Uint8Array, sealed: string): Promise<PastePlain> {
  const bytes = fromBase64Url(sealed);
  if (!bytes) throw new EceError('The paste is not base64url');
  const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await decryptBytes(key, bytes)));
  const { name, type, content } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || typeof type !== 'string' || typeof content !== 'string') {
    throw new EceError('The paste lacks a name, a type or its text');
  }
  return { name, type, content };
}
