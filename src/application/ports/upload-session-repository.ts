export const UploadSessionRepository = Symbol('UploadSessionRepository');

/** One stretch of a resumable upload's bytes: an ordinary blob, written by one append. */
export interface UploadPart {
  key: string;
  size: number;
}

/** The share a resumable upload makes once complete; its password is hashed when the upload is created. */
export interface PendingShare {
  passwordHash: string | null;
  expiresAt?: Date | null;
  maxViews?: number | null;
  maxDownloads?: number | null;
}

/**
 * A resumable upload under way. Its id is also the id of its usage hold and of the file it becomes. Its state lives
 * in the database, so any instance can resume it.
 */
export interface UploadSession {
  id: string;
  ownerId: string;
  uploaderTokenId: string | null;
  /** The whole upload's size in bytes, fixed at creation. */
  length: number;
  /** Bytes received and committed so far: the sum of the parts' sizes. */
  offset: number;
  /** In order; together they hold bytes 0..offset. */
  parts: UploadPart[];
  folderId: string | null;
  name: string | null;
  filename: string;
  mime: string | null;
  share: PendingShare | null;
  /**
   * An upload through a file request: the request, who sends it and their note. Its whole length was taken of the
   * request's room at creation, and goes back if the upload ends without a file. Absent or null otherwise.
   */
  request?: { id: string; uploaderName: string | null; note: string | null } | null;
  /** An end-to-end encrypted upload's sealed metadata object; absent or null otherwise. */
  encryptedMetadata?: string | null;
  createdAt: Date;
  /** Idle expiry: every append moves it. */
  expiresAt: Date;
}

/**
 * The most parts one upload may have: each is a blob and a line of its session record, and a client sending a byte per
 * request must not grow either without bound. Chunks of a MiB reach 9.7 GiB, real tus clients send far larger ones.
 */
export const MAX_UPLOAD_PARTS = 10_000;

export interface UploadSessionRepository {
  insert(session: UploadSession): Promise<void>;
  findById(id: string): Promise<UploadSession | null>;
  /** The session holding the blob `key` as a part, if any (an append cut short after its commit is found so). */
  findByPart(key: string): Promise<UploadSession | null>;
  /**
   * Adds one part, in ONE conditional update: only while the session's offset is still `from`, it has not expired at
   * `now`, the part fits within its length and the session has fewer than MAX_UPLOAD_PARTS parts. Returns the session as changed, or null when any condition failed
   * (another append came first, the session expired, ended or never existed).
   */
  append(id: string, from: number, part: UploadPart, expiresAt: Date, now: Date): Promise<UploadSession | null>;
  /**
   * Keeps only the first `keep` parts (offset their sum), in ONE conditional update: only while the session's parts
   * are still exactly `seen` (its last part the last seen and no more; parts only grow at the end and keys are never
   * reused, so that is the whole list), so a size check acts only on the parts it checked. Returns the session as
   * changed, or null when it changed or went meanwhile. Expiry is left alone: a cut is not the client's activity.
   */
  cutBack(id: string, seen: readonly UploadPart[], keep: number): Promise<UploadSession | null>;
  /** Deletes the session and returns it as it was, or null when it was already gone (so only one caller acts). */
  take(id: string): Promise<UploadSession | null>;
  /** As take, but only while the session has expired at `now` (an append that renewed it meanwhile wins). */
  takeExpired(id: string, now: Date): Promise<UploadSession | null>;
  /** The ids of the owner's sessions (an account's deletion ends them all). */
  idsByOwner(ownerId: string): Promise<string[]>;
  /** The ids of sessions that have expired at `now`, at most `limit`. */
  expiredIds(now: Date, limit: number): Promise<string[]>;
  /** The keys among `blobKeys` that some session holds as a part (the sweep of orphan bytes asks in batches). */
  referencedPartKeys(blobKeys: readonly string[]): Promise<Set<string>>;
}

/** A cut names the parts it saw and keeps fewer of them; anything else is a caller's bug. */
export function assertCut(seen: readonly UploadPart[], keep: number): void {
  if (seen.length === 0 || !Number.isSafeInteger(keep) || keep < 0 || keep >= seen.length) {
    throw new RangeError(`Cannot keep ${keep} of ${seen.length} parts`);
  }
}
