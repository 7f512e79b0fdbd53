import type { FileRequest, RequestRoom } from '../../domain/index.js';
import type { CreatedKey } from './page-keys.js';

export const RequestRepository = Symbol('RequestRepository');

/** What an owner changes; absent fields stay as they are. */
export type RequestPatch = Partial<
  Pick<
    FileRequest,
    | 'name'
    | 'message'
    | 'folderId'
    | 'passwordHash'
    | 'expiresAt'
    | 'maxFiles'
    | 'maxBytes'
    | 'maxFileBytes'
    | 'allowedTypes'
    | 'requireName'
    | 'closed'
  >
> & { updatedAt: Date };

export interface RequestRepository {
  insert(request: FileRequest): Promise<void>;
  findById(id: string): Promise<FileRequest | null>;
  /** One keyset page of the owner's requests: by createdAt then id, strictly after `after` (null: the start). */
  pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<FileRequest[]>;
  /** Every request of the owner (an account's removal, reconciling). */
  listByOwner(ownerId: string): Promise<FileRequest[]>;
  /** The request after the change, or null when there is none. Never touches `files` or `bytes`. */
  update(id: string, patch: RequestPatch): Promise<FileRequest | null>;
  /** Returns the deleted request, or null when it was already gone (so its count is given back exactly once). */
  delete(id: string): Promise<FileRequest | null>;
  /**
   * Takes room for an upload in ONE conditional update: adds `room` to `files` and `bytes` only while the request is
   * not closed, has not expired at `now`, and each kind with a positive amount stays within its maximum (`files +
   * room.files <= maxFiles`, `bytes + room.bytes <= maxBytes`; a null maximum bounds nothing). Returns the request
   * after the change, or null when any condition failed (nothing changed).
   */
  takeRoom(id: string, room: RequestRoom, now: Date): Promise<FileRequest | null>;
  /** Gives room back (an upload failed or ended), in one update, never below zero; a missing request is no error. */
  giveBack(id: string, room: RequestRoom): Promise<void>;
}
