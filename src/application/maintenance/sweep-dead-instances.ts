import type { Core, RecoveryReport } from '../contract.js';
import type { HeldAmounts, Ports } from '../ports/index.js';

type Port = Core['sweepDeadInstances'];
type Deps = Pick<Ports, 'usage' | 'files' | 'uploads' | 'instance' | 'blobs'>;
type Outcome = 'settled' | 'released' | 'kept';

/**
 * Finishes or undoes what instances that are gone left unfinished. Every piece of unfinished work names the instance
 * doing it, and a user's counters name every instance that worked on them, so the sweep asks which of those are gone
 * (their lease ran out, or their process on this host no longer runs) and handles exactly their work; the work of an
 * instance still running is never touched, however old. An upload's hold is settled if its file was recorded (the
 * counts now belong to the record), handed to its resumable upload if that still lives (its expiry decides), and
 * released otherwise: the counts and the upload slot come back. Temporary files of writers known gone go too. Each change applies only while the hold still names
 * the gone instance, so an instance that took the hold over meanwhile (completing a resumable upload) wins.
 */
export class SweepDeadInstances implements Port {
  constructor(private readonly p: Deps) {}

  async execute(): Promise<RecoveryReport> {
    const report: RecoveryReport = { instances: 0, settled: 0, released: 0, kept: 0, abandoned: 0, failed: 0 };
    // Cheap (no scan of stored blobs), and a dead writer's half-written bytes name no hold: looked for every time.
    report.abandoned = await this.p.blobs.purgeAbandoned().catch(() => (report.failed++, 0));
    const gone = await this.p.instance.gone(await this.p.usage.writers());
    report.instances = gone.size;
    if (gone.size === 0) return report;
    for (const { userId, writers, holds } of await this.p.usage.workOf([...gone])) {
      let finished = true;
      for (const hold of holds) {
        // One failing hold must not stop the rest; what stays is tried again on the next run.
        try {
          report[await this.recover(hold)]++;
        } catch {
          finished = false;
          report.failed++;
        }
      }
      if (finished) await this.p.usage.forgetWriters(userId, writers).catch(() => report.failed++);
    }
    return report;
  }

  /** `by` is the gone instance the hold names (workOf lists only such holds). */
  private async recover({ userId, holdId, by }: HeldAmounts): Promise<Outcome> {
    if (by === null) return 'kept';
    const session = await this.p.uploads.findById(holdId);
    if (session?.ownerId === userId) {
      await this.p.usage.disownHold(userId, holdId, by);
      return 'kept';
    }
    const file = await this.p.files.findById(holdId);
    if (file?.ownerId === userId) {
      await this.p.usage.settleHold(userId, holdId, { by });
      return 'settled';
    }
    await this.p.usage.releaseHold(userId, holdId, { by });
    return 'released';
  }
}
