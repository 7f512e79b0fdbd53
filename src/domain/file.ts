import type { ReceivedFrom } from './file-request.js';

export interface StoredFile {
  id: string;
  ownerId: string;
  folderId: string | null;
  name: string;
  mime: string;
  size: number;
  /** Server-generated key of the bytes in the blob store; never shown to clients. */
  blobKey: string;
  /** The uploader (API) token it was uploaded with; null when a session uploaded it. */
  uploaderTokenId: string | null;
  /** 'utf-8' when the type is text and every byte was valid UTF-8 (served with that charset); null otherwise. */
  charset: 'utf-8' | null;
  /** How many times its bytes were replaced (a WebDAV PUT onto it); absent or 0 while they are the first. */
  revision?: number;
  /** How it came when someone sent it through a file request; absent or null otherwise. */
  request?: ReceivedFrom | null;
  /**
   * End-to-end encrypted (RFC 8188 aes128gcm, key only in the share link): the client's sealed metadata object
   * (name, type, size), base64url; the bytes are ciphertext, `name` a placeholder and `mime` octet-stream. Absent
   * or null on any other file.
   */
  encryptedMetadata?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
export const DEFAULT_MIME = 'application/octet-stream';

/** Keeps the essence of a client-declared type (`type/subtype`, lower case) or falls back to octet-stream. */
export function normalizeMime(raw: string | undefined): string {
  const essence = (raw ?? '').split(';')[0]!.trim().toLowerCase();
  return MIME_PATTERN.test(essence) ? essence : DEFAULT_MIME;
}

const TEXTUAL_MIME = /^(text\/[a-z0-9.+-]+|application\/(json|javascript|ecmascript|xml|[a-z0-9.-]+\+(json|xml)))$/;

/** Types whose bytes are characters: they are served with a charset once the bytes are known to be valid UTF-8. */
export function isTextual(mime: string): boolean {
  return TEXTUAL_MIME.test(mime);
}

const ACTIVE_MIME = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[a-z0-9.+-]*\+xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript)$/;
const ACTIVE_EXTENSION = /\.(html?|xhtml|xht|shtml|svgz?|xml|xsl|xslt|mht|mhtml|js|mjs)$/i;
const INLINE_MIME = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+|text\/plain)$/;

/** Active content (HTML, SVG, XML, scripts), by type or by name, is never rendered by the browser. */
export function isActiveContent(mime: string, name: string): boolean {
  return ACTIVE_MIME.test(mime) || ACTIVE_EXTENSION.test(name);
}

/**
 * Only a short list of passive types is shown inline; everything else downloads as an attachment. PDF is not on it:
 * a browser's own PDF viewer runs the document's scripts (dialogs under our name), so the pages draw PDFs with
 * pdf.js from fetched bytes instead (docs/SECURITY.md, "Previews").
 */
export function dispositionFor(mime: string, name: string): 'inline' | 'attachment' {
  if (isActiveContent(mime, name)) return 'attachment';
  return INLINE_MIME.test(mime) ? 'inline' : 'attachment';
}
