import { DomainError, badRequest } from './errors.js';

/**
 * A file request: a link (`/r/{id}`) through which people without an account send files into one folder of its
 * owner, within the request's limits and the owner's maxima. Uploaders read nothing back.
 */
export interface FileRequest {
  /** The public link id: at least 128 bits from a CSPRNG, URL-safe, as share ids. */
  id: string;
  ownerId: string;
  /** The owner's username, kept on the request (usernames never change) so the public read needs no lookup. */
  ownerName: string;
  name: string;
  /** Shown to uploaders; null when none. */
  message: string | null;
  /** Where everything received lands. */
  folderId: string;
  /** argon2 hash of the request password, or null when the request is open. */
  passwordHash: string | null;
  expiresAt: Date | null;
  maxFiles: number | null;
  maxBytes: number | null;
  maxFileBytes: number | null;
  /** MIME types (`image/png`), patterns (`image/*`) and extensions (`.pdf`); empty: any type. */
  allowedTypes: string[];
  requireName: boolean;
  closed: boolean;
  /** Files taken in (and under way) and their bytes: what maxFiles and maxBytes bound. */
  files: number;
  bytes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What one upload into a request takes of its room, in one conditional update. */
export interface RequestRoom {
  files: number;
  bytes: number;
}

/** What a received file records of how it came. */
export interface ReceivedFrom {
  requestId: string;
  uploaderName: string | null;
  note: string | null;
  receivedAt: Date;
}

/**
 * `closed`: its owner closed it. `expired`: `expiresAt` has come (the instant included). `full`: it received
 * `maxFiles` files or `maxBytes` bytes. Otherwise `active`. Only an active request takes files.
 */
export type RequestState = 'active' | 'expired' | 'full' | 'closed';

export function requestState(request: FileRequest, now: Date): RequestState {
  if (request.closed) return 'closed';
  if (request.expiresAt !== null && request.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (request.maxFiles !== null && request.files >= request.maxFiles) return 'full';
  if (request.maxBytes !== null && request.bytes >= request.maxBytes) return 'full';
  return 'active';
}

export const requestGone = (state: RequestState) =>
  new DomainError('gone', GONE_MESSAGES[state === 'active' ? 'full' : state], { state });

const GONE_MESSAGES: Record<Exclude<RequestState, 'active'>, string> = {
  closed: 'This request has been closed and takes no more files',
  expired: 'This request has expired and takes no more files',
  full: 'This request has received all the files it takes',
};

export const REQUEST_MESSAGE_MAX = 2000;
export const UPLOADER_NAME_MAX = 100;
export const UPLOADER_NOTE_MAX = 1000;
export const ALLOWED_TYPES_MAX = 50;

const MIME_ENTRY = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/([a-z0-9][a-z0-9!#$&^_.+-]{0,126}|\*)$/;
const EXT_ENTRY = /^\.[a-z0-9][a-z0-9_+-]{0,15}$/;

/** The allowed types as stored: trimmed, lower case, each a MIME type, a `type/*` pattern or an `.ext`; no repeats. */
export function normalizeAllowedTypes(raw: readonly string[]): string[] {
  if (raw.length > ALLOWED_TYPES_MAX) {
    throw badRequest(`allowedTypes holds at most ${ALLOWED_TYPES_MAX} entries`, { field: 'allowedTypes' });
  }
  const out: string[] = [];
  for (const entry of raw) {
    const value = entry.trim().toLowerCase();
    if (!MIME_ENTRY.test(value) && !EXT_ENTRY.test(value)) {
      throw badRequest(
        `allowedTypes entries are MIME types (image/png), patterns (image/*) or extensions (.pdf): ${JSON.stringify(entry)} is none`,
        { field: 'allowedTypes' },
      );
    }
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

/** Common extensions and the type they stand for: what a name's extension says its bytes are. */
const EXTENSION_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp',
  '.avif': 'image/avif', '.heic': 'image/heic', '.heif': 'image/heif', '.bmp': 'image/bmp', '.tif': 'image/tiff',
  '.tiff': 'image/tiff', '.svg': 'image/svg+xml', '.ico': 'image/vnd.microsoft.icon',
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.mov': 'video/quicktime', '.webm': 'video/webm', '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo', '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.wav': 'audio/wav', '.ogg': 'audio/ogg',
  '.flac': 'audio/flac', '.opus': 'audio/opus',
  '.pdf': 'application/pdf', '.txt': 'text/plain', '.md': 'text/markdown', '.csv': 'text/csv', '.json': 'application/json',
  '.xml': 'application/xml', '.html': 'text/html', '.htm': 'text/html', '.css': 'text/css', '.js': 'text/javascript',
  '.zip': 'application/zip', '.gz': 'application/gzip', '.tar': 'application/x-tar', '.7z': 'application/x-7z-compressed',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel', '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text', '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.rtf': 'application/rtf', '.epub': 'application/epub+zip',
};

/** The extension of a name (`.pdf`, lower case), or null. */
export function extensionOf(name: string): string | null {
  const match = /(\.[A-Za-z0-9_+-]{1,16})$/.exec(name);
  return match ? match[1]!.toLowerCase() : null;
}

const matchesType = (entry: string, type: string) =>
  entry.endsWith('/*') ? type.startsWith(entry.slice(0, -1)) : entry === type;

/** Types a browser or client sends when it does not know: they say nothing for or against a file. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream']);

/**
 * Whether a file may come in. Both its name and its declared type must pass, so neither a renamed file nor a false
 * type slips through: the name passes when its extension is listed, or when the type its extension stands for is
 * (or matches a pattern); the declared type passes when it says nothing (absent, octet-stream), when it is listed
 * (or matches a pattern), or when it is exactly what the name's extension stands for. An empty list allows anything.
 */
export function typeAllowed(allowed: readonly string[], name: string, declared: string): boolean {
  if (allowed.length === 0) return true;
  const ext = extensionOf(name);
  const nameType = ext === null ? null : (EXTENSION_TYPES[ext] ?? null);
  const mimes = allowed.filter((entry) => entry.includes('/'));
  const byName = (ext !== null && allowed.includes(ext)) || (nameType !== null && mimes.some((m) => matchesType(m, nameType)));
  if (!byName) return false;
  const type = declared.split(';')[0]!.trim().toLowerCase();
  return GENERIC_TYPES.has(type) || mimes.some((m) => matchesType(m, type)) || type === nameType;
}

export const typeRefused = (allowed: readonly string[]) =>
  new DomainError('unsupported_media_type', `This request takes only these types: ${allowed.join(', ')}`, {
    allowedTypes: [...allowed],
  });
