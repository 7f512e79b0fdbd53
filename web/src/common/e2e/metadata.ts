import { fromBase64Url, toBase64Url } from './base64url.js';
import { EceError } from './ece.js';
import { decryptBytes, encryptBytes } from './whole.js';

/** What an encrypted file's metadata object holds: its real name, type and plaintext size. */
export interface FileMetadata {
  name: string;
  type: string;
  size: number;
}

/** The most characters of base64url the server keeps for a metadata object (the server's bound as well). */
export const METADATA_MAX_CHARS = 4096;

/** The metadata as UTF-8 JSON, encrypted as its own aes128gcm message (its own salt) under the file's key. */
export async function sealMetadata(key: Uint8Array, metadata: FileMetadata): Promise<string> {
  const json = JSON.stringify({ name: metadata.name, type: metadata.type, size: metadata.size });
  return toBase64Url(await encryptBytes(key, new TextEncoder().encode(json)));
}

export async function openMetadata(key: Uint8Array, sealed: string): Promise<FileMetadata> {
  const bytes = fromBase64Url(sealed);
  if (!bytes) throw new EceError('The metadata is not base64url');
  const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await decryptBytes(key, bytes)));
  if (typeof parsed !== 'object' || parsed === null) throw new EceError('The metadata is not an object');
  const { name, type, size } = parsed as Record<string, unknown>;
  if (typeof name !== 'string' || typeof type !== 'string' || typeof size !== 'number') {
    throw new EceError('The metadata lacks a name, a type or a size');
  }
  return { name, type, size };
}
