export const InstanceLeases = Symbol('InstanceLeases');

/**
 * A running instance's claim to be alive: renewed every few seconds, it runs out soon after the instance dies. Its
 * end is written with the holder's clock and compared with the reader's (instances keep their clocks in sync).
 */
export interface InstanceLease {
  /** The instance's id: the unfinished work it starts names it. */
  id: string;
  /**
   * The process holding it, as its host knows it (opaque here): lets an instance on the same host tell at once that
   * a predecessor died, without waiting for its lease to run out.
   */
  process: string;
  until: Date;
}

/** Where instances keep their leases: one record per instance, every change one atomic step. */
export interface InstanceLeases {
  /** Takes a new lease; false, changing nothing, when a lease with this id exists already. */
  take(lease: InstanceLease): Promise<boolean>;
  /**
   * Moves the lease's end to `until`, in one conditional step, only while it has not run out at `now`. False when it
   * has run out, was ended or never existed: others may have taken it for dead and undone its work, so its id must not
   * be used for new work again.
   */
  renew(id: string, until: Date, now: Date): Promise<boolean>;
  /** Ends the lease at once (a clean stop): whatever work it left is anyone's to finish. Idempotent. */
  end(id: string): Promise<void>;
  /** The leases of those of `ids` that have one (run out or not), in no particular order. */
  find(ids: readonly string[]): Promise<InstanceLease[]>;
}
