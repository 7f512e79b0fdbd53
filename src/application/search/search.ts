import { assertMay, badRequest } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { FolderRef, Ports } from '../ports/index.js';
import { fileViews } from '../files/file-views.js';
import { folderHits } from '../folders/folder-views.js';
import { SUBTREE_SCAN_LIMIT } from '../folders/subtree.js';
import { owned } from '../owned.js';
import { hitPaths } from './hit-paths.js';

type Port = Core['search'];

/** At most this many files and this many folders per search, each in name order. */
export const SEARCH_LIMIT = 500;
export const QUERY_MAX = 256;

/**
 * Case-insensitive substring match on names: in the whole account, or among the direct children of one of the
 * owner's folders, or anywhere below it with `recursive`. An empty query matches everything in scope. Each hit names
 * the folders it sits in, from the top level down (`path`), so a person can tell two hits of one name apart.
 */
export class Search implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'folders' | 'shares'>) {}

  async execute({ actor, query, folderId, recursive }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'search');
    // Names are stored NFC-normalized, so the query is too; otherwise it is matched literally.
    const text = query.normalize('NFC').trim();
    if ([...text].length > QUERY_MAX) {
      throw badRequest(`query must be at most ${QUERY_MAX} characters`, { field: 'query', maxLength: QUERY_MAX });
    }
    const scope = folderId === null ? null : await this.scope(actor.userId, folderId, recursive);
    const [files, folders] = await Promise.all([
      this.p.files.search(actor.userId, text, scope, SEARCH_LIMIT),
      this.p.folders.search(actor.userId, text, scope, SEARCH_LIMIT),
    ]);
    const holders = [...files.map((file) => file.folderId), ...folders.map((folder) => folder.parentId)];
    const [fileList, folderList, pathOf] = await Promise.all([
      fileViews(this.p, files),
      folderHits(this.p, actor.userId, folders),
      hitPaths(this.p, actor.userId, folders, holders),
    ]);
    return {
      files: fileList.map((file) => ({ ...file, path: pathOf(file.folderId) })),
      folders: folderList.map((folder) => ({ ...folder, path: pathOf(folder.parentId) })),
    };
  }

  /** The folders whose direct children are searched: the folder itself, plus its descendants when recursive. */
  private async scope(ownerId: string, folderId: string, recursive: boolean): Promise<FolderRef[]> {
    owned(await this.p.folders.findById(folderId), ownerId, 'Folder');
    if (!recursive) return [folderId];
    const descendants = await this.p.folders.listSubtree(ownerId, folderId, SUBTREE_SCAN_LIMIT);
    return [folderId, ...descendants.map((folder) => folder.id)];
  }
}
