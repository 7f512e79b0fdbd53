import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { removeFiles } from '../remove-files.js';
import { owned } from '../usage-limits.js';
import { SUBTREE_SCAN_LIMIT } from './subtree.js';

type Port = Core['deleteFolder'];
type Deps = Pick<Ports, 'folders' | 'files' | 'shares' | 'collections' | 'blobs' | 'usage'>;

/** Files are listed and removed in pages, so a huge subtree never sits in memory at once. */
const FILE_PAGE = 1000;

/**
 * Deletes the folder and everything below it: files first (with their bytes, shares and collection entries), then
 * the folders' shares, then the folders. A failure half-way leaves a smaller tree that a retry finishes.
 */
export class DeleteFolder implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.delete');
    owned(await this.p.folders.findById(id), actor.userId, 'Folder');
    const descendants = await this.p.folders.listSubtree(actor.userId, id, SUBTREE_SCAN_LIMIT);
    const ids = [id, ...descendants.map((folder) => folder.id)];

    // Each page is gone once removed, so the next listing starts on fresh files; a short page was the last one, and
    // a page of which nothing could be removed stops the loop rather than spinning on it.
    for (;;) {
      const files = await this.p.files.listInFolders(actor.userId, ids, FILE_PAGE);
      const removed = files.length === 0 ? [] : await removeFiles(this.p, files);
      if (files.length < FILE_PAGE || removed.length === 0) break;
    }

    const shares = await this.p.shares.deleteByItems('folder', ids);
    for (const share of shares) await this.p.usage.release(share.ownerId, 'shares', 1);
    const deleted = await this.p.folders.deleteMany(ids);
    if (deleted > 0) await this.p.usage.release(actor.userId, 'folders', deleted);
  }
}
