import { cleanName } from '../../../domain/index.js';

export const DAV_ROOT = '/dav';

export class DavPathError extends Error {}

/**
 * The names a request path under /dav/ walks, percent-decoded one segment at a time (so a name may hold an encoded
 * '/'... which no stored name does: such a segment simply finds nothing). Empty segments (a trailing slash, '//')
 * count for nothing; '.' and '..' and malformed escapes are refused. Names are taken in NFC, as they are stored.
 */
export function segmentsOf(rawPath: string): string[] {
  const rest = rawPath === DAV_ROOT ? '' : rawPath.slice(DAV_ROOT.length + 1);
  const names: string[] = [];
  for (const raw of rest.split('/')) {
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      throw new DavPathError('The path holds a malformed percent-escape');
    }
    if (name === '.' || name === '..') throw new DavPathError('The path may not hold . or .. segments');
    // Stored names are NFC; macOS sends decomposed (NFD) names. Both spellings name the same item.
    names.push(name.normalize('NFC'));
  }
  return names;
}

/** Whether a name can be stored exactly as it is: what the domain's name rules keep unchanged, and non-empty. */
export function storable(name: string): boolean {
  return name !== '' && cleanName(name) === name;
}

/** Every byte outside the unreserved set is percent-encoded, so any stored name comes back as it went in. */
const encode = (name: string) => encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The href of the item at `names`: collections end with '/'. */
export function hrefOf(names: readonly string[], collection: boolean): string {
  const path = names.map(encode).join('/');
  if (names.length === 0) return `${DAV_ROOT}/`;
  return `${DAV_ROOT}/${path}${collection ? '/' : ''}`;
}

/** The key locks are stored under: the names joined by '/', beginning with '/'. */
export function lockPath(names: readonly string[]): string {
  return `/${names.join('/')}`;
}

/** The path of an absolute or relative URL (Destination, a tagged If list) if it lies under /dav/; else null. */
export function davPathOf(url: string): string | null {
  let path: string;
  try {
    path = new URL(url, 'http://placeholder').pathname;
  } catch {
    return null;
  }
  return path === DAV_ROOT || path.startsWith(`${DAV_ROOT}/`) ? path : null;
}
