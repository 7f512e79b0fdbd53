import type { Folder } from '../../domain/index.js';
import { lowerName } from './named-query.js';

export interface FolderDoc {
  _id: string;
  ownerId: string;
  parentId: string | null;
  name: string;
  nameLower: string;
  createdAt: Date;
  updatedAt: Date;
  /** Set while a delete of this folder (or of a folder above it) runs: the folder is gone for reads and writes. */
  deleting?: true;
  /** The removal that claimed the folder once marked (indexed, sparse): only that removal counts it. */
  claim?: string;
}

export function toFolderDoc(folder: Folder): FolderDoc {
  return {
    _id: folder.id,
    ownerId: folder.ownerId,
    parentId: folder.parentId,
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
