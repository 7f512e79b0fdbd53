import { assertMay, type Folder, type StoredFile } from '../../domain/index.js';
import { owned } from '../owned.js';
import type { Core } from '../contract.js';
import { parseRootCursor, rootCursor, type RootPosition } from '../paging/cursor.js';
import { cut, pageSize } from '../paging/page-size.js';
import { sortName, type NameKey, type Ports } from '../ports/index.js';
import { fileViews } from '../files/file-views.js';
import { folderHits } from './folder-views.js';

type Port = Core['listRoot'];

const keyOf = (item: { name: string; id: string }): NameKey => ({ lower: sortName(item.name), id: item.id });

/**
 * The account's top level, one keyset page at a time: folders as hits (with child counts, no nested content) in name
 * order, then files in name order. The cursor says which of the two sequences it is in and the last key handed out,
 * so walking every page returns each folder and each file once. A page may hold the last folders and the first files.
 * With `folderId`, the same for the direct children of one of the caller's folders (WebDAV's listings page so).
 */
export class ListRoot implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'folders' | 'shares'>) {}

  async execute({ actor, limit, cursor, folderId = null }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.list');
    if (folderId !== null) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
    const size = pageSize(limit);
    const at = parseRootCursor(cursor);
    const owner = actor.userId;
    let folders: Folder[] = [];
    let next: RootPosition | null = null;
    if (at === null || at.kind === 'folders') {
      const page = cut(await this.p.folders.pageChildren(owner, folderId, at?.after ?? null, size + 1), size);
      folders = page.items;
      if (page.more) next = { kind: 'folders', after: keyOf(folders.at(-1)!) };
    }
    let files: StoredFile[] = [];
    if (next === null) {
      const room = size - folders.length;
      const after = at?.kind === 'files' ? at.after : null;
      const page = cut(await this.p.files.pageInFolder(owner, folderId, after, room + 1), room);
      files = page.items;
      // A page that the folders filled exactly goes on with the first file, if there is one.
      if (page.more) next = { kind: 'files', after: files.length > 0 ? keyOf(files.at(-1)!) : after };
    }
    const [folderViews, fileViewList] = await Promise.all([
      folderHits(this.p, owner, folders),
      fileViews(this.p, files),
    ]);
    return { files: fileViewList, folders: folderViews, nextCursor: next === null ? null : rootCursor(next) };
  }
}
