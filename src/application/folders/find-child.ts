import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { fileViewOf } from '../files/file-views.js';
import { owned } from '../owned.js';
import { sortName, type NameKey, type Ports } from '../ports/index.js';
import { folderHits } from './folder-views.js';

type Port = Core['findChild'];

// Names equal but for case sit together in name order; a batch this size almost always holds every one of them.
const BATCH = 32;

/**
 * Looks a name up among a folder's children through the keyset listings, starting right where that name sorts: what a
 * path (WebDAV's) needs, at the cost of one small page per kind. Names are display names, so two items may share one;
 * the first in name order (then id) answers for it.
 */
export class FindChild implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'folders' | 'shares'>) {}

  async execute({ actor, parentId, name }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.list');
    if (parentId !== null) owned(await this.p.folders.findById(parentId), actor.userId, 'Folder');
    const owner = actor.userId;
    const [folder, file] = await Promise.all([
      first(name, (after) => this.p.folders.pageChildren(owner, parentId, after, BATCH)),
      first(name, (after) => this.p.files.pageInFolder(owner, parentId, after, BATCH)),
    ]);
    return {
      folder: folder ? (await folderHits(this.p, owner, [folder]))[0]! : null,
      file: file ? await fileViewOf(this.p, file) : null,
    };
  }
}

async function first<T extends { id: string; name: string }>(
  name: string,
  page: (after: NameKey) => Promise<T[]>,
): Promise<T | null> {
  const lower = sortName(name);
  // Every id sorts after the empty one, so the walk starts with the first record of this sort name.
  let after: NameKey = { lower, id: '' };
  for (;;) {
    const items = await page(after);
    for (const item of items) {
      if (sortName(item.name) !== lower) return null;
      if (item.name === name) return item;
    }
    if (items.length < BATCH) return null;
    after = { lower, id: items.at(-1)!.id };
  }
}
