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
   * room.files <= maxFiles`, `bytes + room.bytes <= maxBytes`; a null maximum bounds nothing). The same update adds
   * `room` to what the upload's hold `hold` (its id on the owner's counters) holds of the request, so that whoever
   * ends the upload, or the sweep of gone instances that ends its hold, gives exactly that back. Returns the request
   * after the change, or null when any condition failed (nothing changed).
   */
  takeRoom(id: string, room: RequestRoom, now: Date, hold: string): Promise<FileRequest | null>;
  /**
   * Gives back the room the upload's hold `hold` holds of whichever request it took it from, and forgets it, in one
   * conditional update that applies only while the request still holds it: at most once, however many try. False
   * when nothing was held (given back or settled already, never taken, or the request is gone).
   */
  giveBackHeld(hold: string): Promise<boolean>;
  /** The upload became a received file: its room stays taken, and the request forgets that `hold` held it. */
  settleHeld(hold: string): Promise<void>;
}
