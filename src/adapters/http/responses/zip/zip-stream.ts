import { crc32 } from 'node:zlib';
import type { ArchiveEntry } from '../../../../application/contract.js';
import { centralHeader, descriptor, endRecords, localHeader } from './zip-records.js';
import { layOut, type Layout } from './zip-layout.js';

export interface ZipSource {
  folders: readonly string[];
  files: readonly ArchiveEntry[];
}

/**
 * A stored (uncompressed) zip, written as it is read: each file is opened only when the archive reaches it, its
 * bytes pass straight through with their CRC-32 taken on the way (zlib's, native: a JavaScript CRC was the
 * bottleneck), and nothing but the directory's few bytes per entry is held. A file that yields other than its
 * recorded size fails the stream rather than end in a broken archive.
 */
export class ZipStream {
  readonly layout: Layout;

  constructor(
    private readonly source: ZipSource,
    options: { forceZip64?: boolean; made?: Date } = {},
  ) {
    // Folders carry no bytes to date them by: they are dated when the archive is made.
    const modified = options.made ?? new Date();
    const folders = source.folders.map((path) => ({ path: `${path.replace(/\/$/, '')}/`, size: 0, modified }));
    this.layout = layOut([...folders, ...source.files], options.forceZip64);
  }

  async *bytes(): AsyncGenerator<Buffer> {
    const crcs: number[] = [];
    const files = new Map(this.source.files.map((file) => [file.path, file]));
    for (const entry of this.layout.entries) {
      yield localHeader(entry);
      if (entry.directory) {
        crcs.push(0);
        continue;
      }
      let crc = 0;
      let length = 0;
      for await (const chunk of await files.get(entry.path)!.open()) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        crc = crc32(bytes, crc);
        length += bytes.length;
        yield bytes;
      }
      if (length !== entry.size) throw new Error(`${entry.path}: read ${length} bytes, expected ${entry.size}`);
      crcs.push(crc);
      yield descriptor(entry, crc);
    }
    yield Buffer.concat(this.layout.entries.map((entry, i) => centralHeader(entry, crcs[i]!)));
    yield endRecords(this.layout);
  }
}
