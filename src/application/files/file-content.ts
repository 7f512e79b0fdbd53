import type { StoredFile } from '../../domain/index.js';
import { dispositionFor, isActiveContent, isCodeType, servedType } from '../../domain/index.js';
import type { FileContent } from '../contract.js';
import type { Ports } from '../ports/index.js';

/** The one mapping from a stored file to what serving its bytes needs; owner reads and share reads both use it. */
export function fileContent(p: Pick<Ports, 'blobs'>, file: StoredFile): FileContent {
  return {
    name: file.name,
    // Scripts, WebAssembly and style sheets go out as text/plain attachments; the File view keeps the stored type.
    mime: servedType(file.mime),
    charset: file.charset,
    size: file.size,
    // A file's bytes never change and ids are never reused, so the id is a strong validator; the blob key would
    // do as well but is storage detail no client may see.
    // A replaced file (WebDAV PUT) has other bytes under the same id: its revision keeps the validator strong.
    etag: etagOf(file),
    lastModified: file.revision ? file.updatedAt : file.createdAt,
    disposition: isCodeType(file.mime) ? 'attachment' : dispositionFor(file.mime, file.name),
    active: isActiveContent(file.mime, file.name),
    open: (range) => p.blobs.read(file.blobKey, range),
  };
}

/** The file's strong validator: a replaced file (WebDAV PUT) has other bytes under the same id, and its revision. */
export function etagOf(file: { id: string; revision?: number }): string {
  return file.revision ? `"${file.id}-${file.revision}"` : `"${file.id}"`;
}
