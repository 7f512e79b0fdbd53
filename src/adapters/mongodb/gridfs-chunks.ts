import type { Binary, Collection, ObjectId } from 'mongodb';

export interface ChunkDoc {
  _id: ObjectId;
  files_id: string;
  n: number;
  data: Binary;
}

/** What a read needs of a GridFS file document, read once by the caller. */
export interface StoredFile {
  _id: string;
  length: number;
  chunkSize: number;
}

/**
 * The bytes `start` to `end` (exclusive) of a GridFS file, straight from its chunks: the caller already holds the
 * file document, so the driver's download stream, which reads that document again, is not needed. Only the chunks
 * the range touches are asked for. A missing or short chunk is an error, never silently shorter content.
 */
export async function* readChunks(
  chunks: Collection<ChunkDoc>,
  file: StoredFile,
  start: number,
  end: number,
): AsyncGenerator<Uint8Array> {
  if (start >= end) return;
  const { chunkSize } = file;
  const first = Math.floor(start / chunkSize);
  const last = Math.floor((end - 1) / chunkSize);
  const cursor = chunks.find({ files_id: file._id, n: { $gte: first, $lte: last } }).sort({ n: 1 });
  let expected = first;
  try {
    for await (const chunk of cursor) {
      if (chunk.n !== expected) throw new Error(`GridFS chunk ${expected} of ${file._id} is missing`);
      const offset = chunk.n * chunkSize;
      const bytes = chunk.data.buffer.subarray(0, chunk.data.length());
      const wanted = Math.min(chunkSize, file.length - offset);
      if (bytes.byteLength !== wanted) throw new Error(`GridFS chunk ${chunk.n} of ${file._id} has the wrong size`);
      yield bytes.subarray(Math.max(0, start - offset), Math.min(bytes.byteLength, end - offset));
      expected++;
    }
  } finally {
    await cursor.close();
  }
  if (expected !== last + 1) throw new Error(`GridFS chunk ${expected} of ${file._id} is missing`);
}
