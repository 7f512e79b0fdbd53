import { badRequest } from './errors.js';

export interface Collection {
  id: string;
  ownerId: string;
  name: string;
  /** Ids of the owner's files, in the order they were added. */
  fileIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_COLLECTION_FILES = 10_000;

export function assertRoomInCollection(collection: Collection): void {
  if (collection.fileIds.length >= MAX_COLLECTION_FILES) {
    throw badRequest(`A collection holds at most ${MAX_COLLECTION_FILES} files`);
  }
}
