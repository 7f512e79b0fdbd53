import contentDisposition from 'content-disposition';
import { wellFormed } from '../../../domain/index.js';

/**
 * The plain `filename` for clients that ignore `filename*`: ASCII only, since raw latin1 in a header is read as
 * UTF-8 by some clients and mangled. Control characters become `?` as well, so nothing can end the header line.
 */
const asciiOnly = (name: string) => name.replace(/[^\x20-\x7e]/g, '?');

/**
 * `Content-Disposition` for any stored name (RFC 6266 `filename*`). A name stored before lone surrogates were refused
 * cannot be percent-encoded as it is (encodeURIComponent throws), so such halves go out as U+FFFD.
 */
export function contentDispositionOf(name: string, type: 'inline' | 'attachment'): string {
  const safe = wellFormed(name);
  return contentDisposition(safe, { type, fallback: asciiOnly(safe) });
}
