import type { Core, RecoveryReport } from '../contract.js';
import { inOrder, recoverHold, type RecoveryDeps } from './recover-hold.js';

type Port = Core['sweepDeadInstances'];

/**
 * Finishes or undoes what instances that are gone left unfinished. Every piece of unfinished work names the instance
 * doing it, and a user's counters name every instance that worked on them, so the sweep asks which of those are gone
 * (their lease ran out, or their process on this host no longer runs) and handles exactly their work; the work of an
 * instance still running is never touched, however old (recoverHold says how each piece is finished or undone).
 * Temporary files of writers known gone go too.
 */
export class SweepDeadInstances implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute(): Promise<RecoveryReport> {
    const report: RecoveryReport = {
      instances: 0,
      settled: 0,
      released: 0,
      kept: 0,
      finished: 0,
      abandoned: 0,
      failed: 0,
    };
    // Cheap (no scan of stored blobs), and a dead writer's half-written bytes name no hold: looked for every time.
    report.abandoned = await this.p.blobs.purgeAbandoned().catch(() => (report.failed++, 0));
    const gone = await this.p.instance.gone(await this.p.usage.writers());
    report.instances = gone.size;
    if (gone.size === 0) return report;
    for (const { userId, writers, holds } of await this.p.usage.workOf([...gone])) {
      let finished = true;
      for (const hold of inOrder(holds)) {
        // One failing hold must not stop the rest; what stays is tried again on the next run.
        try {
          report[await recoverHold(this.p, hold)]++;
        } catch {
          finished = false;
          report.failed++;
        }
      }
      if (finished) await this.p.usage.forgetWriters(userId, writers).catch(() => report.failed++);
    }
    return report;
  }
}
