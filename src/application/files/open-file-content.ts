import type { Core, FileContent } from '../contract.js';
import { fileContent } from './file-content.js';
import type { Ports } from '../ports/index.js';
import { countingDownloads } from '../shares/share-access.js';
import { readableFile } from './readable-file.js';

type Port = Core['openFileContent'];

export class OpenFileContent implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'files' | 'folders' | 'collections' | 'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'blobs' | 'clock' | 'secrets'
    >,
  ) {}

  /** Read through a share (file, folder or collection), opening the bytes from byte 0 counts a download. */
  async execute({ access, id }: Parameters<Port['execute']>[0]): Promise<FileContent> {
    const { file, through } = await readableFile(this.p, access, id);
    const content = fileContent(this.p, file);
    return through ? countingDownloads(this.p, content, through, access.actor, access.share ?? {}, file.id) : content;
  }
}
