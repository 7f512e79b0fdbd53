import { badRequest } from './errors.js';

/** The most base64url characters a sealed metadata object may take (a name of a few hundred bytes fits many times). */
export const ENCRYPTED_METADATA_MAX = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** An encrypted paste's content: base64url of its aes128gcm message, which the server cannot open. */
export function checkEncryptedContent(value: string): string {
  if (!BASE64URL.test(value) || value.length % 4 === 1) {
    throw badRequest('An encrypted paste\'s content must be base64url', { field: 'content' });
  }
  return value;
}

/** The name an encrypted file carries where a name must be: the real one is in its sealed metadata only. */
export const encryptedName = (id: string) => `encrypted-${id}`;

/**
 * A sealed metadata object as the server keeps it: base64url, bounded. The server cannot open it; anything that is
 * not so shaped is refused rather than stored.
 */
export function checkEncryptedMetadata(value: string): string {
  if (!BASE64URL.test(value) || value.length > ENCRYPTED_METADATA_MAX || value.length % 4 === 1) {
    throw badRequest(`encryptedMetadata must be base64url of at most ${ENCRYPTED_METADATA_MAX} characters`, {
      field: 'encryptedMetadata',
    });
  }
  return value;
}
