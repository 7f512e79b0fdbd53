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
