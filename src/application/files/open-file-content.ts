import { dispositionFor, isActiveContent } from '../../domain/index.js';
import type { Core, FileContent } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { readableFile } from './readable-file.js';

type Port = Core['openFileContent'];

export class OpenFileContent implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'folders' | 'collections' | 'shares' | 'hasher' | 'blobs'>) {}

  async execute({ access, id }: Parameters<Port['execute']>[0]): Promise<FileContent> {
    const file = await readableFile(this.p, access, id);
    const { blobs } = this.p;
    return {
      name: file.name,
      mime: file.mime,
      size: file.size,
      // The key names bytes that never change, so it is a strong validator; renames do not touch the bytes.
      etag: `"${file.blobKey}"`,
      lastModified: file.createdAt,
      disposition: dispositionFor(file.mime, file.name),
      active: isActiveContent(file.mime, file.name),
      open: (range) => blobs.read(file.blobKey, range),
    };
  }
}
