import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { removeFiles } from '../remove-files.js';
import { owned } from '../owned.js';

type Port = Core['deleteFile'];

/** Deletes the file with its bytes, its share and its place in collections. */
export class DeleteFile implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'shares' | 'collections' | 'blobs' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.delete');
    const file = owned(await this.p.files.findById(id), actor.userId, 'File');
    await removeFiles(this.p, [file]);
  }
}
