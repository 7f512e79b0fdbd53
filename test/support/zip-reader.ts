import { crc32 } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Stored (0) or deflated (8). */
  method: number;
  bytes: Buffer;
}

/**
 * Reads a whole zip from its central directory (what an unzip tool trusts), checking each entry's CRC-32 against
 * its bytes. Enough for the archives under test: stored entries, no ZIP64, no encryption.
 */
export function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central header at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const [nameLength, extraLength, commentLength] = [28, 30, 32].map((o) => zip.readUInt16LE(at + o)) as [
      number,
      number,
      number,
    ];
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const bytes = zip.subarray(dataAt, dataAt + size);
    if (method === 0 && crc32(bytes) >>> 0 !== crc) throw new Error(`CRC mismatch in ${name}`);
    entries.push({ name, method, bytes });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export interface LocalHeader {
  offset: number;
  name: string;
  /** General purpose flags: bit 3, sizes in a descriptor after the data; bit 11, a UTF-8 name. */
  flags: number;
}

/**
 * Walks the local headers from the archive's first byte to its central directory, as a streaming extractor reads
 * them, without looking at the central directory. An entry whose sizes follow its data (bit 3) ends at the first
 * data descriptor whose recorded size reaches back exactly to the entry's data. Stored entries, no ZIP64.
 */
export function readLocalHeaders(zip: Buffer): LocalHeader[] {
  const headers: LocalHeader[] = [];
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const flags = zip.readUInt16LE(at + 6);
    const nameLength = zip.readUInt16LE(at + 26);
    const dataAt = at + 30 + nameLength + zip.readUInt16LE(at + 28);
    headers.push({ offset: at, name: zip.subarray(at + 30, at + 30 + nameLength).toString('utf8'), flags });
    if ((flags & 0x0008) === 0) {
      at = dataAt + zip.readUInt32LE(at + 18);
      continue;
    }
    let descriptor = dataAt - 1;
    do {
      descriptor = zip.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]), descriptor + 1);
      if (descriptor < 0) throw new Error(`no data descriptor after the local header at ${at}`);
    } while (zip.readUInt32LE(descriptor + 8) !== descriptor - dataAt);
    at = descriptor + 16;
  }
  if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`neither a local header nor the central directory at ${at}`);
  return headers;
}

/** Each entry's name as the central directory and its local header give it; throws where the two disagree. */
export function entryNames(zip: Buffer): string[] {
  const central = readZip(zip).map((entry) => entry.name);
  const local = readLocalHeaders(zip).map((header) => header.name);
  if (JSON.stringify(central) !== JSON.stringify(local)) {
    throw new Error(`central directory ${JSON.stringify(central)} and local headers ${JSON.stringify(local)} differ`);
  }
  return central;
}
