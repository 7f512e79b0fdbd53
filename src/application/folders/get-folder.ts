import type { Folder, StoredFile } from '../../domain/index.js';
import { MAX_STORED_DEPTH, MAX_TREE_ENTRIES, badRequest, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { authorizeRead } from '../shares/share-access.js';
import type { FolderView } from '../views.js';
import { fileView, folderView } from '../views.js';
import { byName } from './subtree.js';

type Port = Core['getFolder'];
type Deps = Pick<Ports, 'folders' | 'files' | 'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'clock' | 'secrets'>;

/**
 * The folder with its whole subtree nested, read with a fixed number of queries whatever its shape, and refused
 * beyond MAX_TREE_ENTRIES entries (the client then reads the subfolders one by one).
 */
export class GetFolder implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ access, id }: Parameters<Port['execute']>[0]) {
    const folder = await this.p.folders.findById(id);
    // A missing folder goes through the same checks as a foreign one (no owner matches ''), so the answer
    // (unauthorized, forbidden or not_found) never reveals whether it exists.
    const through = await authorizeRead(this.p, access, {
      what: 'Folder',
      ownerId: folder?.ownerId ?? '',
      action: 'folder.read',
      describe: async () => ({ kind: 'folder', folderId: id, folderChain: await this.p.folders.chain(id) }),
    });
    if (!folder) throw notFound('Folder');

    const descendants = await this.p.folders.listSubtree(folder.ownerId, id, MAX_TREE_ENTRIES + 1);
    if (descendants.length > MAX_TREE_ENTRIES) throw tooLarge();
    const folderIds = [id, ...descendants.map((f) => f.id)];
    const room = MAX_TREE_ENTRIES + 1 - descendants.length;
    const files = await this.p.files.listInFolders(folder.ownerId, folderIds, room);
    if (descendants.length + files.length > MAX_TREE_ENTRIES) throw tooLarge();

    const [folderShares, fileShares] = await Promise.all([
      this.p.shares.idsForItems('folder', folderIds),
      this.p.shares.idsForItems('file', files.map((f) => f.id)),
    ]);
    // Who sent a file through a file request is its owner's to know, not a share reader's.
    const seen = through ? files.map((file) => ({ ...file, request: null })) : files;
    const tree = new TreeBuilder(descendants, seen, folderShares, fileShares).build(folder);
    // The shared folder's parent lies outside the share; every other id in the tree lies inside it.
    return through?.itemId === folder.id ? { ...tree, parentId: null } : tree;
  }
}

function tooDeep() {
  return badRequest(
    `This folder nests more than ${MAX_STORED_DEPTH} levels deep; read its subfolders one at a time`,
    { maxDepth: MAX_STORED_DEPTH },
  );
}

function tooLarge() {
  return badRequest(
    `This folder holds more than ${MAX_TREE_ENTRIES} files and folders; read its subfolders one at a time`,
    { maxEntries: MAX_TREE_ENTRIES },
  );
}

/** Nests flat listings: children grouped by parent, each level in name order. */
class TreeBuilder {
  private readonly childFolders = new Map<string | null, Folder[]>();
  private readonly childFiles = new Map<string | null, StoredFile[]>();

  constructor(
    folders: readonly Folder[],
    files: readonly StoredFile[],
    private readonly folderShares: Map<string, string>,
    private readonly fileShares: Map<string, string>,
  ) {
    for (const folder of [...folders].sort(byName)) push(this.childFolders, folder.parentId, folder);
    // Files arrive in name order already; grouping keeps it.
    for (const file of files) push(this.childFiles, file.folderId, file);
  }

  /** Recursion stops at MAX_STORED_DEPTH, so no stored shape can exhaust the stack. */
  build(folder: Folder, depth = 0): FolderView {
    if (depth > MAX_STORED_DEPTH) throw tooDeep();
    const files = (this.childFiles.get(folder.id) ?? []).map((f) => fileView(f, this.fileShares.get(f.id) ?? null));
    const folders = (this.childFolders.get(folder.id) ?? []).map((child) => this.build(child, depth + 1));
    return folderView(folder, this.folderShares.get(folder.id) ?? null, files, folders);
  }
}

function push<T>(groups: Map<string | null, T[]>, key: string | null, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}
