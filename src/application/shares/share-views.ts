import type { Share } from '../../domain/index.js';
import { shareState } from '../../domain/index.js';
import { isoTime } from '../iso-time.js';
import type { Ports } from '../ports/index.js';
import { encryptedFields, type ShareView } from '../views.js';

type Deps = Pick<Ports, 'users' | 'files' | 'folders' | 'collections' | 'pastes' | 'clock'>;
type Item = Pick<ShareView, 'file' | 'folder' | 'collection' | 'paste'>;
type OwnFields = Omit<ShareView, 'owner' | keyof Item>;

/** The fields a share carries itself, its state at `now` included: what changes when a read counts. */
export function shareFields(share: Share, now: Date): OwnFields {
  return {
    id: share.id,
    ownerId: share.ownerId,
    type: share.type,
    createdAt: isoTime(share.createdAt),
    expiresAt: share.expiresAt && isoTime(share.expiresAt),
    views: share.views,
    maxViews: share.maxViews,
    downloads: share.downloads,
    maxDownloads: share.maxDownloads,
    state: shareState(share, now),
    protected: share.passwordHash !== null,
  };
}

/**
 * The view of a share with exactly the one item object its type names, or null when the item (or its owner)
 * is gone: a share of nothing is treated as no share at all.
 */
export async function shareView(p: Deps, share: Share): Promise<ShareView | null> {
  const [username, item] = await Promise.all([ownerName(p, share), itemOf(p, share)]);
  if (username === null || !item) return null;
  return { ...shareFields(share, p.clock.now()), owner: { id: share.ownerId, username }, ...item };
}

/** The name kept on the share; a share from before it was kept looks its owner up. Null when the owner is gone. */
async function ownerName(p: Deps, share: Share): Promise<string | null> {
  if (share.ownerName !== undefined) return share.ownerName;
  return (await p.users.findById(share.ownerId))?.username ?? null;
}

/** The record when it belongs to the share's owner. (Not a closure made per read: tsx wraps each in its `__name`.) */
function ownedBy<T extends { ownerId: string }>(share: Share, x: T | null): T | null {
  return x && x.ownerId === share.ownerId ? x : null;
}

async function itemOf(p: Deps, share: Share): Promise<Item | null> {
  switch (share.type) {
    case 'file': {
      const file = ownedBy(share, await p.files.findById(share.itemId));
      return file && { file: { id: file.id, name: file.name, size: String(file.size), mime: file.mime, ...encryptedFields(file) } };
    }
    case 'folder': {
      const folder = ownedBy(share, await p.folders.findById(share.itemId));
      if (!folder) return null;
      const [files, folders] = await Promise.all([
        p.files.countInFolders(share.ownerId, [folder.id]),
        p.folders.countChildren(share.ownerId, [folder.id]),
      ]);
      return {
        folder: {
          id: folder.id,
          name: folder.name,
          fileCount: files.get(folder.id) ?? 0,
          folderCount: folders.get(folder.id) ?? 0,
        },
      };
    }
    case 'collection': {
      const collection = ownedBy(share, await p.collections.findById(share.itemId));
      if (!collection) return null;
      const files = collection.fileIds.length === 0 ? [] : await p.files.findByIds(collection.fileIds);
      const fileCount = files.filter((f) => f.ownerId === share.ownerId).length;
      return { collection: { id: collection.id, name: collection.name, fileCount } };
    }
    case 'paste': {
      const paste = ownedBy(share, await p.pastes.findById(share.itemId));
      return paste && { paste: { id: paste.id, name: paste.name, type: paste.type, content: paste.content, ...(paste.encrypted ? { encrypted: true as const } : {}) } };
    }
  }
}
