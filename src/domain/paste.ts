import { badRequest, DomainError } from './errors.js';

export interface Paste {
  id: string;
  ownerId: string;
  name: string;
  /** A syntax label such as text, markdown or javascript. */
  type: string;
  content: string;
  /** UTF-8 byte length of content; counts toward storage. */
  size: number;
  /** The uploader (API) token that created it; null when a session did. */
  uploaderTokenId: string | null;
  /**
   * End-to-end encrypted: `content` is base64url of an aes128gcm message holding the JSON {name, type, content},
   * `name` is `encrypted-{id}` and `type` text. Absent or false on any other paste.
   */
  encrypted?: boolean;
  createdAt: Date;
  updatedAt: Date;
  /**
   * The holds of the last rewrites of its content that changed its size (newest last): a rewrite cut short by its
   * instance's death is known to have landed when its hold is named here. Absent until the first.
   */
  rewrites?: string[];
}

export const DEFAULT_PASTE_TYPE = 'text';
export const DEFAULT_PASTE_NAME = 'Untitled';
/** Pastes travel inside JSON bodies, so they stay well under the JSON body cap. */
export const MAX_PASTE_BYTES = 512 * 1024;
const PASTE_TYPE_PATTERN = /^[a-z0-9][a-z0-9+#._-]{0,31}$/;

export function normalizePasteType(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_PASTE_TYPE;
  const type = raw.trim().toLowerCase();
  if (!PASTE_TYPE_PATTERN.test(type)) {
    throw badRequest('type must be a syntax label such as text, markdown or javascript', { field: 'type' });
  }
  return type;
}

const encoder = new TextEncoder();

/** UTF-8 size of a paste's content, which counts toward storage; oversize content is refused. */
export function pasteSize(content: string): number {
  const size = encoder.encode(content).byteLength;
  if (size > MAX_PASTE_BYTES) {
    throw new DomainError('payload_too_large', `A paste holds at most ${MAX_PASTE_BYTES} bytes`);
  }
  return size;
}
