/** What the archive writer needs to know of one entry before its bytes. */
export interface ZipItem {
  /** '/'-separated; a directory's ends with '/'. */
  path: string;
  size: number;
  modified: Date;
}

/** One entry's place in the archive, all of it known before the first byte is written. */
export interface PlacedEntry extends ZipItem {
  name: Buffer;
  directory: boolean;
  /** Sizes or offset past 32 bits: the entry carries ZIP64 fields. */
  zip64: boolean;
  offset: number;
}

const MAX32 = 0xffffffff;
export const LOCAL_HEADER = 30;
export const CENTRAL_HEADER = 46;
export const END_RECORD = 22;
export const ZIP64_END = 56 + 20; // the ZIP64 end record and its locator
/** A local ZIP64 extra field: both sizes (zero there; the descriptor holds them). */
export const LOCAL_ZIP64_EXTRA = 20;

export const descriptorLength = (entry: PlacedEntry) => (entry.directory ? 0 : entry.zip64 ? 24 : 16);
export const localLength = (entry: PlacedEntry) =>
  LOCAL_HEADER + entry.name.length + (entry.zip64 ? LOCAL_ZIP64_EXTRA : 0);
/** The central ZIP64 extra: header, then both sizes and the offset. */
export const centralExtraLength = (entry: PlacedEntry) => (entry.zip64 ? 4 + 24 : 0);
export const centralLength = (entry: PlacedEntry) => CENTRAL_HEADER + entry.name.length + centralExtraLength(entry);

export interface Layout {
  entries: PlacedEntry[];
  centralOffset: number;
  centralSize: number;
  /** The end needs ZIP64 records: too many entries, or the directory lies or reaches past 32 bits. */
  zip64End: boolean;
  /** The archive's exact length. */
  total: number;
}

// APPNOTE 4.4.17.1: a relative path, `/` its only separator, no drive or device letter (no `:` at all: NTFS reads
// `a:b` as a stream), no control character; and no `.`, `..` or empty segment, which an extractor could climb with.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\\:\u0000-\u001f\u007f-\u009f]/;

/**
 * Refuses an entry name APPNOTE 4.4.17 forbids. The core hands out clean paths (archive-paths.ts); reaching this is a
 * bug, stopped here before a byte of the archive is written.
 */
export function assertEntryName(path: string): void {
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (FORBIDDEN.test(path) || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`not a zip entry name (APPNOTE 4.4.17): ${JSON.stringify(path)}`);
  }
}

/**
 * Places every entry: stored (no compression), so each one's length and offset, the central directory's and the
 * archive's own are known up front. That is what lets the response carry an exact Content-Length.
 */
export function layOut(items: readonly ZipItem[], forceZip64 = false): Layout {
  let offset = 0;
  const entries = items.map((item): PlacedEntry => {
    assertEntryName(item.path);
    const directory = item.path.endsWith('/');
    const zip64 = forceZip64 || item.size >= MAX32 || offset >= MAX32;
    const entry = { ...item, name: Buffer.from(item.path, 'utf8'), directory, zip64, offset };
    offset += localLength(entry) + entry.size + descriptorLength(entry);
    return entry;
  });
  const centralSize = entries.reduce((sum, entry) => sum + centralLength(entry), 0);
  const zip64End = forceZip64 || entries.length >= 0xffff || offset >= MAX32 || offset + centralSize >= MAX32;
  const total = offset + centralSize + (zip64End ? ZIP64_END : 0) + END_RECORD;
  return { entries, centralOffset: offset, centralSize, zip64End, total };
}
