import type { Folder } from '../../domain/index.js';
import { lowerName } from './named-query.js';

export interface FolderDoc {
  _id: string;
  ownerId: string;
  parentId: string | null;
  /** Ids from the top-level ancestor down to the parent (root first), so chains and subtrees are one query. */
  ancestors: string[];
  name: string;
  nameLower: string;
  createdAt: Date;
  updatedAt: Date;
}

export function toFolderDoc(folder: Folder, ancestors: readonly string[]): FolderDoc {
  return {
    _id: folder.id,
    ownerId: folder.ownerId,
    parentId: folder.parentId,
    ancestors: [...ancestors],
    name: folder.name,
    nameLower: lowerName(folder.name),
    createdAt: new Date(folder.createdAt),
    updatedAt: new Date(folder.updatedAt),
  };
}

export function toFolder(doc: FolderDoc): Folder {
  return {
    id: doc._id,
    ownerId: doc.ownerId,
    parentId: doc.parentId ?? null,
    name: doc.name,
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}
