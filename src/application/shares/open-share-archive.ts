import type { Folder, Share, StoredFile } from '../../domain/index.js';
import { MAX_TREE_ENTRIES, badRequest, notFound } from '../../domain/index.js';
import type { ArchiveEntry, Core, ShareArchive } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { assertActive, countUse, countsFor, findShare, unlockShare } from './share-access.js';
import { limitReachedBy, note, shareTarget } from '../activity/note.js';
import { UniquePaths, folderPaths, segment } from './archive-paths.js';
import { folderInShare } from './folder-in-share.js';

type Port = Core['openShareArchive'];
type Deps = Pick<
  Ports,
  'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'clock' | 'secrets' | 'folders' | 'files' | 'collections' | 'blobs'
>;

function tooLarge() {
  return badRequest(`This share holds more than ${MAX_TREE_ENTRIES} files and folders to put in one archive`, {
    maxEntries: MAX_TREE_ENTRIES,
  });
}

/**
 * A shared folder (its whole subtree, or a folder's below it) or collection as the list of what one archive holds,
 * all under one top-level directory named after the folder or collection. The listing is read first and bounded,
 * then one download is counted, so a refused archive uses up nothing; the bytes are read only as it is streamed.
 */
export class OpenShareArchive implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id, folderId, ...key }: Parameters<Port['execute']>[0]): Promise<ShareArchive> {
    const share = await findShare(this.p, id, key.client);
    assertActive(this.p, share, actor, key.reader);
    await unlockShare(this.p, share, key, actor);
    const archive = await this.list(share, folderId);
    if (key.peek) return archive;
    const counted = await countUse(this.p, share, 'downloads', actor, key.reader);
    if (!countsFor(share, actor)) return archive;
    const limitReached = limitReachedBy(counted, ['downloads']);
    let told = false;
    const sent = (bytes: number, complete: boolean) => {
      if (told) return;
      told = true;
      note(this.p, shareTarget(share), 'archive', key.reader, { bytes, complete, limitReached });
    };
    return { ...archive, sent };
  }

  private async list(share: Share, folderId: string | undefined): Promise<ShareArchive> {
    if (folderId !== undefined) return this.folder(share, await folderInShare(this.p, share, folderId));
    if (share.type === 'folder') return this.folder(share, await this.sharedFolder(share));
    if (share.type === 'collection') return this.collection(share);
    throw badRequest('Only folder and collection shares download as an archive');
  }

  private async sharedFolder(share: Share): Promise<Folder> {
    const root = await this.p.folders.findById(share.itemId);
    if (!root || root.ownerId !== share.ownerId) throw notFound('Share');
    return root;
  }

  /**
   * `root` and everything below it, inside one top-level directory named after `root`: extracting the archive makes
   * one folder, never a spill of loose files.
   */
  private async folder(share: Share, root: Folder): Promise<ShareArchive> {
    const descendants = await this.p.folders.listSubtree(share.ownerId, root.id, MAX_TREE_ENTRIES + 1);
    if (descendants.length > MAX_TREE_ENTRIES) throw tooLarge();
    const unique = new UniquePaths();
    const paths = folderPaths(root.id, descendants, unique);
    const room = MAX_TREE_ENTRIES + 1 - descendants.length;
    const files = await this.p.files.listInFolders(share.ownerId, [...paths.keys()], room);
    if (descendants.length + files.length > MAX_TREE_ENTRIES) throw tooLarge();
    const folders = [...paths.values()].filter((path) => path !== '');
    const entries = files.map((file) =>
      this.entry(file, unique.claim(`${paths.get(file.folderId ?? '')}${segment(file.name)}`)),
    );
    return inOneDirectory(segment(root.name), folders, entries);
  }

  private async collection(share: Share): Promise<ShareArchive> {
    const collection = await this.p.collections.findById(share.itemId);
    if (!collection || collection.ownerId !== share.ownerId) throw notFound('Share');
    const files = collection.fileIds.length === 0 ? [] : await this.p.files.findByIds(collection.fileIds);
    const unique = new UniquePaths();
    // In the order they were added, whatever order the store hands them back in: the first of two files of one
    // name keeps it in every archive.
    const position = new Map(collection.fileIds.map((id, i) => [id, i]));
    const entries = files
      .filter((file) => file.ownerId === share.ownerId)
      .sort((a, b) => position.get(a.id)! - position.get(b.id)!)
      .map((file) => this.entry(file, unique.claim(segment(file.name))));
    return inOneDirectory(segment(collection.name), [], entries);
  }

  private entry(file: StoredFile, path: string): ArchiveEntry {
    return { path, size: file.size, modified: file.createdAt, open: () => this.p.blobs.read(file.blobKey) };
  }
}

/** The archive `name`, everything below its one directory `name/` (an entry of its own: it is there empty too). */
function inOneDirectory(name: string, folders: string[], files: ArchiveEntry[]): ShareArchive {
  const top = `${name}/`;
  return {
    name,
    folders: [top, ...folders.map((path) => `${top}${path}`)],
    files: files.map((file) => ({ ...file, path: `${top}${file.path}` })),
  };
}
