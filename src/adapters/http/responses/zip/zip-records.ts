import {
  CENTRAL_HEADER,
  centralExtraLength,
  END_RECORD,
  type Layout,
  LOCAL_HEADER,
  LOCAL_ZIP64_EXTRA,
  type PlacedEntry,
} from './zip-layout.js';

// APPNOTE.TXT 4.4: general purpose flags, bit 3 (sizes and CRC follow the data) and bit 11 (UTF-8 names).
const DESCRIPTOR_FLAG = 0x0008;
const UTF8_FLAG = 0x0800;
const MAX32 = 0xffffffff;
// Made by Unix (3), so the external attributes carry Unix modes; version 4.5 is the one that knows ZIP64.
const MADE_BY = (3 << 8) | 45;
const FILE_MODE = 0o100644;
const DIRECTORY_MODE = 0o40755;

/** MS-DOS date and time (UTC), the only timestamp every zip reader knows; before 1980 it is 1980. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

const version = (entry: PlacedEntry) => (entry.zip64 ? 45 : 20);
const flags = (entry: PlacedEntry) => UTF8_FLAG | (entry.directory ? 0 : DESCRIPTOR_FLAG);

export function localHeader(entry: PlacedEntry): Buffer {
  const header = Buffer.alloc(LOCAL_HEADER + entry.name.length + (entry.zip64 ? LOCAL_ZIP64_EXTRA : 0));
  const { time, date } = dosDateTime(entry.modified);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(version(entry), 4);
  header.writeUInt16LE(flags(entry), 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  // CRC and sizes: 0 here, in the descriptor after the data (bit 3); 0xFFFFFFFF sizes point at the ZIP64 extra.
  if (entry.zip64) {
    header.writeUInt32LE(MAX32, 18);
    header.writeUInt32LE(MAX32, 22);
  }
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(entry.zip64 ? LOCAL_ZIP64_EXTRA : 0, 28);
  entry.name.copy(header, LOCAL_HEADER);
  if (entry.zip64) {
    const extra = LOCAL_HEADER + entry.name.length;
    header.writeUInt16LE(0x0001, extra);
    header.writeUInt16LE(16, extra + 2);
  }
  return header;
}

export function descriptor(entry: PlacedEntry, crc: number): Buffer {
  const record = Buffer.alloc(entry.zip64 ? 24 : 16);
  record.writeUInt32LE(0x08074b50, 0);
  record.writeUInt32LE(crc, 4);
  if (entry.zip64) {
    record.writeBigUInt64LE(BigInt(entry.size), 8);
    record.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    record.writeUInt32LE(entry.size, 8);
    record.writeUInt32LE(entry.size, 12);
  }
  return record;
}

export function centralHeader(entry: PlacedEntry, crc: number): Buffer {
  const extraLength = centralExtraLength(entry);
  const header = Buffer.alloc(CENTRAL_HEADER + entry.name.length + extraLength);
  const { time, date } = dosDateTime(entry.modified);
  const small = (value: number) => (entry.zip64 ? MAX32 : value);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(version(entry), 6);
  header.writeUInt16LE(flags(entry), 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(crc, 16);
  header.writeUInt32LE(small(entry.size), 20);
  header.writeUInt32LE(small(entry.size), 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extraLength, 30);
  const mode = entry.directory ? DIRECTORY_MODE : FILE_MODE;
  header.writeUInt32LE(((mode << 16) | (entry.directory ? 0x10 : 0)) >>> 0, 38);
  header.writeUInt32LE(small(entry.offset), 42);
  entry.name.copy(header, CENTRAL_HEADER);
  if (entry.zip64) {
    const extra = CENTRAL_HEADER + entry.name.length;
    header.writeUInt16LE(0x0001, extra);
    header.writeUInt16LE(24, extra + 2);
    header.writeBigUInt64LE(BigInt(entry.size), extra + 4);
    header.writeBigUInt64LE(BigInt(entry.size), extra + 12);
    header.writeBigUInt64LE(BigInt(entry.offset), extra + 20);
  }
  return header;
}

/** The end of the archive: the ZIP64 end record and locator when needed, then the classic end record. */
export function endRecords(layout: Layout): Buffer {
  const { entries, centralOffset, centralSize, zip64End } = layout;
  const parts: Buffer[] = [];
  if (zip64End) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(MADE_BY, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(entries.length), 24);
    record.writeBigUInt64LE(BigInt(entries.length), 32);
    record.writeBigUInt64LE(BigInt(centralSize), 40);
    record.writeBigUInt64LE(BigInt(centralOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(centralOffset + centralSize), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(END_RECORD);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64End ? 0xffff : entries.length, 8);
  end.writeUInt16LE(zip64End ? 0xffff : entries.length, 10);
  end.writeUInt32LE(zip64End ? MAX32 : centralSize, 12);
  end.writeUInt32LE(zip64End ? MAX32 : centralOffset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
