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
