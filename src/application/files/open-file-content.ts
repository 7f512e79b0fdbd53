import type { Core, FileContent } from '../contract.js';
import { fileContent } from '../file-content.js';
import type { Ports } from '../ports/index.js';
import { readableFile } from './readable-file.js';

type Port = Core['openFileContent'];

export class OpenFileContent implements Port {
  constructor(
    private readonly p: Pick<Ports, 'files' | 'folders' | 'collections' | 'shares' | 'hasher' | 'throttle' | 'blobs'>,
  ) {}

  async execute({ access, id }: Parameters<Port['execute']>[0]): Promise<FileContent> {
    return fileContent(this.p, (await readableFile(this.p, access, id)).file);
  }
}
