export const SHARE_TYPES = ['file', 'folder', 'collection', 'paste'] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

export interface Share {
  /** The public link id: at least 128 bits from a CSPRNG, URL-safe. */
  id: string;
  ownerId: string;
  type: ShareType;
  itemId: string;
  /** argon2 hash of the share password, or null when the share is open. */
  passwordHash: string | null;
  views: number;
  createdAt: Date;
}

export function isShareType(value: string): value is ShareType {
  return (SHARE_TYPES as readonly string[]).includes(value);
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
