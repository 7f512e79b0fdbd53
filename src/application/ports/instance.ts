export const Instance = Symbol('Instance');

/**
 * The running instance, as the core needs it: a name for the unfinished work it starts (holds, intents), and a way to
 * tell whether the instances named on unfinished work are gone, so that their work can be finished or undone. Work
 * of an instance still running is never touched, however old.
 */
export interface Instance {
  /** This instance's id. It changes only if its lease ran out while it ran (others may have undone its work). */
  id(): string;
  /**
   * Those of `ids` known to be gone: their lease ran out (or ended, or never existed), or their process on this host
   * no longer runs. This instance's current id never is.
   */
  gone(ids: readonly string[]): Promise<Set<string>>;
}
