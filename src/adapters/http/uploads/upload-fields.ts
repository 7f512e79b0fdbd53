import { z } from 'zod';
import { badRequest } from '../../../domain/index.js';
import type { ShareOptions } from '../../../application/contract.js';
import { id, parseField, parseId, shareMaximum, timestamp } from '../validation.js';

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');
const formInteger = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a whole number')
  .transform(Number)
  .pipe(shareMaximum);

/** The form fields an upload understands, as the OpenAPI document describes them (POST /api/file, routes/files.ts). */
export const UPLOAD_FORM = z.object({
  folderId: id,
  name: z.string(),
  share: flag,
  password: z.string(),
  expiresAt: timestamp,
  maxViews: formInteger,
  maxDownloads: formInteger,
  encryptedMetadata: z.string(),
});
const form = UPLOAD_FORM.shape;

/**
 * The options an upload takes besides its bytes, as text: multipart form fields and tus `Upload-Metadata` alike.
 * An empty value counts as absent.
 */
export const UPLOAD_FIELDS = {
  folderId: (value: string) => parseId(value, 'folderId'),
  name: (value: string) => value,
  // One request that uploads and shares (ShareX and scripts cannot chain a second request).
  share: (value: string) => parseField(form.share, value, 'share'),
  password: (value: string) => value,
  expiresAt: (value: string) => parseField(form.expiresAt, value, 'expiresAt'),
  maxViews: (value: string) => parseField(form.maxViews, value, 'maxViews'),
  maxDownloads: (value: string) => parseField(form.maxDownloads, value, 'maxDownloads'),
  // End to end encrypted: the sealed metadata object (checked by the core: base64url, bounded).
  encryptedMetadata: (value: string) => value,
} satisfies Record<keyof typeof form, (value: string) => unknown>;
export type UploadFieldName = keyof typeof UPLOAD_FIELDS;
export type UploadFields = { [K in UploadFieldName]: ReturnType<(typeof UPLOAD_FIELDS)[K]> | null };
const SHARE_OPTIONS = ['password', 'expiresAt', 'maxViews', 'maxDownloads'] as const;

export const isUploadField = (name: string): name is UploadFieldName => Object.hasOwn(UPLOAD_FIELDS, name);

export const noUploadFields = (): UploadFields => ({
  folderId: null,
  name: null,
  share: null,
  password: null,
  expiresAt: null,
  maxViews: null,
  maxDownloads: null,
  encryptedMetadata: null,
});

/** Parses one field into `fields`; a field given twice would silently let one value win, so it is refused. */
export function setUploadField(fields: UploadFields, name: UploadFieldName, value: string): void {
  if (fields[name] !== null) throw badRequest(`Field ${name} is given twice`, { field: name });
  (fields as Record<string, unknown>)[name] = value === '' ? null : UPLOAD_FIELDS[name](value);
}

/** The share options sent, as the core takes them; options without `share=true` would be dropped, so they are refused. */
export function shareOptionsOf(fields: UploadFields): ShareOptions | null {
  const named = SHARE_OPTIONS.filter((option) => fields[option] !== null);
  if (fields.share !== true) {
    if (named.length > 0) throw badRequest(`${named.join(', ')} take effect only with share=true`, { field: named[0] });
    return null;
  }
  return Object.fromEntries(named.map((option) => [option, fields[option]]));
}
