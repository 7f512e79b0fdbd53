import type { LimitKind, Usage } from '../../domain/index.js';

export const UsageCounter = Symbol('UsageCounter');

/**
 * Counts an unfinished create holds, tagged with the id of the record it will make. The tag is written in the same
 * atomic update as the counter, so a crash between reserving and recording leaves a trace the sweep can act on.
 * `at` is when the hold last grew: an upload still streaming keeps its hold fresh. `by` is the instance doing the
 * work (`Instance.id()`): once that instance is gone, any other may finish or undo it, whatever its age.
 */
export interface Hold {
  id: string;
  at: Date;
  by: string;
  /**
   * A blob the work is about to write (a key from BlobStore.newKey), listed among the blobs the hold may leave behind
   * in the same atomic update: from before its first byte, the blob is known from the database.
   */
  blob?: string;
  /** The work the hold stands for, written with it when a `reserve` (a create of a small record) or `openHold` creates it. */
  task?: Task;
}

/** The records whose create and delete are tasks of their own (a hold named by the record's id). */
export type RecordKind = 'folder' | 'paste' | 'share' | 'collection' | 'token' | 'request';

/**
 * Unfinished work a hold stands for other than an upload (which is a hold without a task): a removal, begun with an
 * empty hold that names its instance, so that any instance can finish it once that one is gone.
 */
export type Task =
  /** Removing the files claimed under the hold's id (FileRepository.claim); once fixed, the hold holds their counts. */
  | { kind: 'files' }
  /** Deleting a folder with everything below it; the folders claimed under the hold's id are counted once fixed. */
  | { kind: 'tree'; folderId: string }
  /** Deleting the account whose counters hold it. */
  | { kind: 'user' }
  /**
   * Creating the record named by the hold's id, which holds its counts until the record exists: written by the very
   * `reserve` that takes the count.
   */
  | { kind: 'create'; record: RecordKind }
  /**
   * Deleting the record named by the hold's id (beginDrop), which holds what the deletion gives back: the counts go
   * back in the step that ends it. Fixed from the start, or (a paste, collection or share, whose shares the deletion
   * claims) once the claimed shares are counted in (fixHeld).
   */
  | {
      kind: 'drop';
      record: RecordKind;
      /**
       * The delete claims shares (a paste's, a collection's, or the share itself) and adds their count once it knows
       * it (fixHeld): the hold was begun not fixed. Absent on a drop hold of an older version, which held the share
       * count it guessed from the start.
       */
      claims?: true;
    }
  /**
   * Rewriting the content of the paste `pasteId` to another size, under a hold of its own id (not the paste's). A
   * growing rewrite's hold holds the growth it reserved, a shrinking one's (beginTask) the bytes it will give back;
   * the rewrite names its hold on the paste it writes (`Paste.rewrites`), so whether it landed is known from the
   * paste: landed, a growth is kept (settled) and a shrinkage given back (released); not landed, the other way round.
   */
  | { kind: 'rewrite'; pasteId: string; grows: boolean }
  /**
   * New bytes for the file `fileId` (ReplaceFileContent), under a hold opened as an upload's (its slot, its metered
   * storage, its new blob), which names the bytes the file had (`blobKey`, `size`). Whether the swap landed is known
   * from the file: not landed, the hold is given back and its blob goes; landed, the hold is fixed to hold the old
   * bytes' size and blob (fixHeld), whose release gives them back.
   */
  | { kind: 'replace'; fileId: string; blobKey: string; size: number };

export interface HeldAmounts {
  userId: string;
  holdId: string;
  amounts: Partial<Record<LimitKind, number>>;
  at: Date;
  /** The instance doing the work; null for a hold written before holds named one (only its age tells). */
  by: string | null;
  /** What the hold stands for besides counts; null for an upload. */
  task: Task | null;
  /** Whether the amounts of a task are fixed (fixHeld): from then on they are exactly what its end gives back. */
  fixed: boolean;
  /** Blobs the work may leave behind: once it is over, those no record names are deleted. */
  blobs: string[];
}

/** One user's unfinished work named by some instances: which of them the user's counters name, and their holds. */
export interface WritersWork {
  userId: string;
  writers: string[];
  holds: HeldAmounts[];
}

/**
 * A condition on the hold: the change applies only while the hold still names `by` and, with `kind`, still stands for
 * a task of that kind (a create's hold and a delete's share the record's id).
 */
export interface WhileBy {
  by?: string;
  kind?: Task['kind'];
}

/** One `reserve` as data: `amount` of `kind`, within `max`. */
export interface Reservation {
  kind: LimitKind;
  amount: number;
  max: number;
}

/** How many holds released with the mark `given back` a user's counters remember, newest last. */
export const GIVEN_BACK_KEPT = 16;

/** Hold ids become field names in MongoDB, so they are limited to what ids.newId() yields (base64url: no '.' or '$'). */
export const HOLD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Per-user counters. Every change is one atomic operation: never read-then-write. */
export interface UsageCounter {
  /**
   * Adds `amount` to the counter if the result stays within `max`, in one atomic step; false otherwise. With a hold,
   * the same step adds the amount to the hold.
   */
  reserve(userId: string, kind: LimitKind, amount: number, max: number, hold?: Hold): Promise<boolean>;
  /**
   * Opens an empty hold that reservations then add to (an upload's), in one atomic step, unless the user already has
   * `maxOpen` opened holds or this hold exists; false then. An opened hold counts until it is settled or released
   * (by the sweep too), which bounds the uploads one user runs at once across every instance on one database. A hold
   * that `reserve` creates by itself is not counted.
   */
  openHold(userId: string, hold: Hold, maxOpen: number): Promise<boolean>;
  /**
   * openHold and a first `reserve` into the new hold, in one atomic step (one command instead of two). False when
   * either would refuse, or the user has no counters yet: nothing changed, and the caller takes the two steps, which
   * tell which one refuses.
   */
  openHoldReserving(userId: string, hold: Hold, maxOpen: number, first: Reservation): Promise<boolean>;
  /** Takes `amount` off the counter, never below zero. */
  release(userId: string, kind: LimitKind, amount: number): Promise<void>;
  /**
   * Forgets a hold and leaves the counters alone: its counts now belong to a stored record. Returns what the hold
   * held (null when there was none), so the caller can tell whether all of its reservations are still counted.
   */
  settleHold(userId: string, holdId: string, when?: WhileBy): Promise<Partial<Record<LimitKind, number>> | null>;
  /**
   * In one atomic step, takes the hold's amounts off the counters (never below zero) and forgets the hold: the
   * create failed or died. A hold that is gone already (or no longer names `when.by`) changes nothing; true when this
   * call released it.
   */
  releaseHold(userId: string, holdId: string, when?: WhileBy, mark?: 'given back'): Promise<boolean>;
  /**
   * Whether the hold was released with the mark `given back` (the user's last GIVEN_BACK_KEPT such holds are kept):
   * the work it stood for ended by giving its counts back. The sweep of gone instances so marks a create it found
   * without its record, and a record's delete that removed the record marks its own release. An instance taken for
   * dead while it stalled, which then finds its create's hold gone, learns so whether its record is counted (settled:
   * the sweep found it) or not; the sweep finishing a delete whose record is gone learns whether another delete of
   * the record gave its counts back already.
   */
  wasGivenBack(userId: string, holdId: string): Promise<boolean>;
  /**
   * Names `by` as the hold's instance and adds `blobs` to the blobs it may leave behind, in one atomic step, only while
   * the hold exists; false otherwise. The instance that finishes a resumable upload (whichever created it) takes its
   * hold so, with the parts it is about to consume.
   */
  claimHold(userId: string, holdId: string, by: string, blobs?: readonly string[]): Promise<boolean>;
  /**
   * Stops the hold naming an instance, only while it names `by`; the hold then lives as long as what it belongs to (a
   * resumable upload whose creating instance died lives on). False when it names another or is gone.
   */
  disownHold(userId: string, holdId: string, by: string): Promise<boolean>;
  /**
   * In one atomic step, forgets the opened hold `from`, which must hold exactly `amount` of `kind`, and adds that
   * amount to the existing hold `to` (freshening its `at`); the counters stay as they are. A resumable upload's
   * append meters its bytes under a hold of its own and hands them to the upload's hold once they are committed.
   * False, changing nothing, when `to` does not exist or `from` is not as described.
   */
  moveHeld(userId: string, from: string, to: Pick<Hold, 'id' | 'at'>, kind: LimitKind, amount: number): Promise<boolean>;
  /**
   * In one atomic step, takes `amount` of `kind` off the hold and off the counter, only when the hold holds at least
   * that much; false, changing nothing, otherwise. A resumable upload whose parts were cut back gives their bytes back.
   */
  releaseHeld(userId: string, holdId: string, kind: LimitKind, amount: number): Promise<boolean>;
  /**
   * Opens a hold for a task (not an upload slot), naming its instance, in one atomic step; creates the user's counters
   * if they have none. An id already held changes nothing. Empty, or holding `amounts` from the start (fixed; the
   * counters are left alone): what its release will give back (a shrinking paste rewrite's bytes).
   */
  beginTask(userId: string, hold: Hold, task: Task, amounts?: Partial<Record<LimitKind, number>>): Promise<void>;
  /**
   * Sets a task's amounts (leaving the counters alone) and the blobs it may leave behind, replacing any the hold had,
   * in one atomic step, once:
   * false, changing nothing, when the hold is gone or its amounts were fixed already. Releasing the hold then gives
   * back exactly these amounts. The same step forgets the holds `forget` names that are a create's, a delete's or an
   * upload's (of the records the task counted, whose counts are now the task's to give back: a file whose upload never
   * settled its hold, its instance killed after the insert; a share whose delete was killed after its intent), leaving
   * the counters alone; an upload's slot comes back with it.
   */
  fixHeld(
    userId: string,
    holdId: string,
    amounts: Partial<Record<LimitKind, number>>,
    blobs: readonly string[],
    forget?: readonly string[],
  ): Promise<boolean>;
  /**
   * Opens the hold of a record's delete (task `drop`, named by the record's id), holding `amounts` (fixed: what the
   * delete gives back), naming its instance, in one atomic step; only while no other work holds that id, or only the
   * record's own create, whose hold this one replaces (the caller found the record, so the create's counts are the
   * record's now, and the delete's to give back). False, changing nothing, when another delete of the record holds it.
   * `claims`: the delete also claims shares, whose count it adds once it knows it (fixHeld, which then fixes the
   * hold); the hold is begun not fixed, its task marked `claims`. Until the fix the hold holds `amounts`, and its
   * not being fixed tells a recovery that no claimed share is deleted yet.
   */
  beginDrop(
    userId: string,
    hold: Hold,
    record: RecordKind,
    amounts: Partial<Record<LimitKind, number>>,
    claims?: boolean,
  ): Promise<boolean>;
  /** Takes `amount` of `kind` off the hold only (not off the counter), only while it holds that much; false otherwise. */
  trimHeld(userId: string, holdId: string, kind: LimitKind, amount: number): Promise<boolean>;
  /** The user's holds. */
  holdsOf(userId: string): Promise<HeldAmounts[]>;
  /** Every hold that last grew before `olderThan`, across users. */
  staleHolds(olderThan: Date): Promise<HeldAmounts[]>;
  /**
   * Every instance some user's counters name as having worked on them. A user's counters name each instance that
   * opened or grew a hold there (in the same atomic update) until `forgetWriters`, so nothing a dead instance left can
   * be missed.
   */
  writers(): Promise<string[]>;
  /** The users whose counters name any of `writers`, with the holds that name them. */
  workOf(writers: readonly string[]): Promise<WritersWork[]>;
  /** Stops the user's counters naming these instances (once their work there is finished or undone). */
  forgetWriters(userId: string, writers: readonly string[]): Promise<void>;
  /** Current counters (zeros for a user with none yet). */
  get(userId: string): Promise<Usage>;
  /** Overwrites the counters and forgets the user's holds (reconciling only: the counts then match the records). */
  set(userId: string, usage: Usage): Promise<void>;
  remove(userId: string): Promise<void>;
}
