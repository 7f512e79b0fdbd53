import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { fileViews } from '../files/file-views.js';
import { folderHits } from './folder-views.js';

type Port = Core['listRoot'];

/**
 * The root listing shows at most this many top-level folders and this many top-level files (each in name order).
 * Beyond that, search or folders reach the rest; a root this crowded is not browsed by scrolling anyway.
 */
export const ROOT_LIST_LIMIT = 1000;

/** The account's top level: folders as hits (with child counts, no nested content) and files. */
export class ListRoot implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'folders' | 'shares'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.list');
    const [folders, files] = await Promise.all([
      this.p.folders.listChildren(actor.userId, [null], ROOT_LIST_LIMIT),
      this.p.files.listInFolders(actor.userId, [null], ROOT_LIST_LIMIT),
    ]);
    const [folderViews, fileViewList] = await Promise.all([
      folderHits(this.p, actor.userId, folders),
      fileViews(this.p, files),
    ]);
    return { files: fileViewList, folders: folderViews };
  }
}
