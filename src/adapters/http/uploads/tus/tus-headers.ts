import { DomainError, badRequest } from '../../../../domain/index.js';
import { isUploadField, noUploadFields, setUploadField, shareOptionsOf } from '../upload-fields.js';
import { parseId } from '../../validation.js';
import type { ShareOptions } from '../../../../application/contract.js';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,creation-with-upload,termination,expiration,checksum';
export const TUS_CHECKSUMS = 'sha1';
/** The body type of every PATCH (and of a POST that carries the first bytes). */
export const OFFSET_STREAM = 'application/offset+octet-stream';

const BYTES = /^\d{1,16}$/;

/** A byte count header (Upload-Length, Upload-Offset): digits only, within what a number holds exactly. */
export function byteCount(raw: string | undefined, header: string): number {
  const value = raw !== undefined && BYTES.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) throw badRequest(`${header} must be a whole number of bytes`, { header });
  return value;
}

export interface UploadMetadata {
  filename: string;
  mime: string | undefined;
  folderId: string | null;
  name: string | null;
  share: ShareOptions | null;
  encryptedMetadata: string | null;
  /**
   * An upload into a file request (`requestId`, with `uploaderName` and `note`): the uploader chooses no folder, name
   * or share, so those keys are refused beside it.
   */
  request: { id: string; uploaderName: string | null; note: string | null } | null;
}

const REQUEST_KEYS = ['requestId', 'uploaderName', 'note'] as const;
const NOT_WITH_REQUEST = ['folderId', 'name', 'share', 'password', 'expiresAt', 'maxViews', 'maxDownloads', 'encryptedMetadata'] as const;

/** Whether raw `Upload-Metadata` names a file request (looked at before any credential is asked for). */
export const namesRequest = (raw: string | undefined): boolean => /(^|,)\s*requestId /.test(raw ?? '');

const METADATA_KEY = /^[\x21-\x2b\x2d-\x7e]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `Upload-Metadata`: comma-separated `key base64value` pairs. `filename` and `filetype` name the file; the other
 * keys are the single-request upload's fields (folderId, name, share and its options), parsed the same way. Keys
 * the service does not know are ignored: tus clients attach their own (Uppy sends `relativePath`, `type`).
 */
export function uploadMetadata(raw: string | undefined): UploadMetadata {
  const pairs = new Map<string, string>();
  for (const item of (raw ?? '').split(',')) {
    const trimmed = item.trim();
    if (trimmed === '') continue;
    const [key = '', encoded = '', ...rest] = trimmed.split(' ');
    if (!METADATA_KEY.test(key) || !BASE64.test(encoded) || encoded.length % 4 !== 0 || rest.length > 0) {
      throw badRequest('Upload-Metadata must be comma-separated "key base64value" pairs', { header: 'Upload-Metadata' });
    }
    if (pairs.has(key)) throw badRequest(`Upload-Metadata names ${key} twice`, { header: 'Upload-Metadata' });
    pairs.set(key, decodeText(encoded, key));
  }
  const fields = noUploadFields();
  for (const [key, value] of pairs) if (isUploadField(key)) setUploadField(fields, key, value);
  const requestId = pairs.get('requestId');
  if (requestId === undefined) {
    const stray = REQUEST_KEYS.find((key) => pairs.has(key));
    if (stray) throw badRequest(`Upload-Metadata ${stray} goes only with requestId`, { header: 'Upload-Metadata' });
  } else {
    const chosen = NOT_WITH_REQUEST.find((key) => pairs.has(key));
    if (chosen) throw badRequest(`Upload-Metadata ${chosen} cannot go with requestId`, { header: 'Upload-Metadata' });
  }
  return {
    filename: pairs.get('filename') ?? '',
    mime: pairs.get('filetype') || undefined,
    folderId: fields.folderId,
    name: fields.name,
    share: shareOptionsOf(fields),
    encryptedMetadata: fields.encryptedMetadata,
    request:
      requestId === undefined
        ? null
        : {
            id: parseId(requestId, 'requestId'),
            uploaderName: pairs.get('uploaderName') || null,
            note: pairs.get('note') || null,
          },
  };
}

function decodeText(encoded: string, key: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    throw badRequest(`Upload-Metadata ${key} is not UTF-8 text`, { header: 'Upload-Metadata' });
  }
}

/** `Upload-Checksum: sha1 <base64 digest>`; other algorithms are refused, as the extension asks. */
export function uploadChecksum(raw: string | undefined): Buffer | null {
  if (raw === undefined) return null;
  const [algorithm, encoded = '', ...rest] = raw.trim().split(' ');
  if (algorithm !== 'sha1' || rest.length > 0 || !BASE64.test(encoded)) {
    throw badRequest(`Upload-Checksum must be "sha1 <base64 digest>" (supported: ${TUS_CHECKSUMS})`, {
      header: 'Upload-Checksum',
    });
  }
  const digest = Buffer.from(encoded, 'base64');
  if (digest.length !== 20) throw badRequest('Upload-Checksum holds no SHA-1 digest', { header: 'Upload-Checksum' });
  return digest;
}

export const checksumMismatch = () =>
  new DomainError('checksum_mismatch', 'The bytes received do not match Upload-Checksum; nothing was stored');
