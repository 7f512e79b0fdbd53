import type { StoredFile } from '../domain/index.js';
import { dispositionFor, isActiveContent } from '../domain/index.js';
import type { FileContent } from './contract.js';
import type { Ports } from './ports/index.js';

/** The one mapping from a stored file to what serving its bytes needs; owner reads and share reads both use it. */
export function fileContent(p: Pick<Ports, 'blobs'>, file: StoredFile): FileContent {
  return {
    name: file.name,
    mime: file.mime,
    size: file.size,
    // Blob keys are never reused and blobs are immutable, so the key is a strong validator.
    etag: `"${file.blobKey}"`,
    lastModified: file.createdAt,
    disposition: dispositionFor(file.mime, file.name),
    active: isActiveContent(file.mime, file.name),
    open: (range) => p.blobs.read(file.blobKey, range),
  };
}
