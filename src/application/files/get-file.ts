import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { seenThrough } from '../views.js';
import { fileViewOf } from './file-views.js';
import { readableFile } from './readable-file.js';

type Port = Core['getFile'];

export class GetFile implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'files' | 'folders' | 'collections' | 'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'clock' | 'secrets'
    >,
  ) {}

  async execute({ access, id }: Parameters<Port['execute']>[0]) {
    const { file, through } = await readableFile(this.p, access, id);
    return seenThrough(await fileViewOf(this.p, file), through);
  }
}
