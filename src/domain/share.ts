export const SHARE_TYPES = ['file', 'folder', 'collection', 'paste'] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

/** What a share's readers use up: views of the share, downloads of its bytes. */
export type ShareCounter = 'views' | 'downloads';

/** The lifetime and maxima an owner sets on a share; null means none. */
export interface ShareLimits {
  expiresAt: Date | null;
  maxViews: number | null;
  maxDownloads: number | null;
}

export interface Share extends ShareLimits {
  /** The public link id: at least 128 bits from a CSPRNG, URL-safe. */
  id: string;
  ownerId: string;
  type: ShareType;
  itemId: string;
  /** argon2 hash of the share password, or null when the share is open. */
  passwordHash: string | null;
  views: number;
  downloads: number;
  createdAt: Date;
  /**
   * The owner's username, kept on the share (usernames never change) so a public read need not look the owner up.
   * Absent on shares made before it was kept.
   */
  ownerName?: string;
}

export function isShareType(value: string): value is ShareType {
  return (SHARE_TYPES as readonly string[]).includes(value);
}

/** A maximum of views or downloads: a whole number of at least one. */
export function isShareMaximum(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * `active`: its public reads are served. `expired`: `expiresAt` has come (the instant itself included).
 * `exhausted`: its views or its downloads reached their maximum. Either way every public read is `gone`; the owner
 * can lift the limit and the share is active again.
 */
export type ShareState = 'active' | 'expired' | 'exhausted';

export function shareState(share: Share, now: Date): ShareState {
  if (share.expiresAt !== null && share.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (share.maxViews !== null && share.views >= share.maxViews) return 'exhausted';
  if (share.maxDownloads !== null && share.downloads >= share.maxDownloads) return 'exhausted';
  return 'active';
}

export function isShareActive(share: Share, now: Date): boolean {
  return shareState(share, now) === 'active';
}

/** What a read through a share wants to reach. */
export type ShareTarget =
  | { kind: 'file'; fileId: string; folderChain: readonly string[]; collectionIds: readonly string[] }
  | { kind: 'folder'; folderId: string; folderChain: readonly string[] }
  | { kind: 'collection'; collectionId: string }
  | { kind: 'paste'; pasteId: string };

/**
 * The share rule: a file share reaches that file; a folder share reaches the folder and everything below it;
 * a collection share reaches the collection and the files in it; a paste share reaches that paste.
 * `folderChain` is the target's folder ancestry, root first, ending with the folder itself (for a file: its folder's).
 */
export function shareReaches(share: Share, target: ShareTarget): boolean {
  switch (target.kind) {
    case 'file':
      return (
        (share.type === 'file' && share.itemId === target.fileId) ||
        (share.type === 'folder' && target.folderChain.includes(share.itemId)) ||
        (share.type === 'collection' && target.collectionIds.includes(share.itemId))
      );
    case 'folder':
      return share.type === 'folder' && target.folderChain.includes(share.itemId);
    case 'collection':
      return share.type === 'collection' && share.itemId === target.collectionId;
    case 'paste':
      return share.type === 'paste' && share.itemId === target.pasteId;
  }
}
