import type { Share, StoredFile } from '../../domain/index.js';
import { MAX_TREE_ENTRIES, badRequest, notFound } from '../../domain/index.js';
import type { ArchiveEntry, Core, ShareArchive } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { assertActive, countUse, findShare, unlockShare } from '../share-access.js';
import { UniquePaths, folderPaths, segment } from './archive-paths.js';

type Port = Core['openShareArchive'];
type Deps = Pick<
  Ports,
  'shares' | 'hasher' | 'throttle' | 'clock' | 'secrets' | 'folders' | 'files' | 'collections' | 'blobs'
>;

function tooLarge() {
  return badRequest(`This share holds more than ${MAX_TREE_ENTRIES} files and folders to put in one archive`, {
    maxEntries: MAX_TREE_ENTRIES,
  });
}

/**
 * A shared folder (its whole subtree) or collection as the list of what one archive holds. The listing is read
 * first and bounded, then one download is counted, so a refused archive uses up nothing; the bytes are read only as
 * the archive is streamed.
 */
export class OpenShareArchive implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id, ...key }: Parameters<Port['execute']>[0]): Promise<ShareArchive> {
    const share = await findShare(this.p, id, key.client);
    assertActive(this.p, share, actor);
    await unlockShare(this.p, share, key, actor);
    const archive = await this.list(share);
    if (!key.peek) await countUse(this.p, share, 'downloads', actor);
    return archive;
  }

  private async list(share: Share): Promise<ShareArchive> {
    if (share.type === 'folder') return this.folder(share);
    if (share.type === 'collection') return this.collection(share);
    throw badRequest('Only folder and collection shares download as an archive');
  }

  private async folder(share: Share): Promise<ShareArchive> {
    const root = await this.p.folders.findById(share.itemId);
    if (!root || root.ownerId !== share.ownerId) throw notFound('Share');
    const descendants = await this.p.folders.listSubtree(share.ownerId, root.id, MAX_TREE_ENTRIES + 1);
    if (descendants.length > MAX_TREE_ENTRIES) throw tooLarge();
    const paths = folderPaths(root.id, descendants);
    const room = MAX_TREE_ENTRIES + 1 - descendants.length;
    const files = await this.p.files.listInFolders(share.ownerId, [...paths.keys()], room);
    if (descendants.length + files.length > MAX_TREE_ENTRIES) throw tooLarge();
    const unique = new UniquePaths();
    const folders = [...paths.values()].filter((path) => path !== '').map((path) => unique.claim(path));
    const entries = files.map((file) =>
      this.entry(file, unique.claim(`${paths.get(file.folderId ?? '')}${segment(file.name)}`)),
    );
    return { name: segment(root.name), folders, files: entries };
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
    return { name: segment(collection.name), folders: [], files: entries };
  }

  private entry(file: StoredFile, path: string): ArchiveEntry {
    return { path, size: file.size, modified: file.createdAt, open: () => this.p.blobs.read(file.blobKey) };
  }
}
