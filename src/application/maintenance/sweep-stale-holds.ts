import type { Core } from '../contract.js';
import type { HeldAmounts, Ports } from '../ports/index.js';

type Port = Core['sweepStaleHolds'];

/**
 * Settles what a crash left in usage holds that name no instance (written before holds did; a hold that names one is
 * left to SweepDeadInstances, which acts once that instance is gone, whatever the hold's age). An upload holds its
 * counts under its file's id until the record exists; such a hold that has not grown for the grace period belongs to
 * an upload that died. If the record made it (the crash came after the insert) the counts are right and only the hold
 * goes; otherwise the counts go with it.
 */
export class SweepStaleHolds implements Port {
  constructor(private readonly p: Pick<Ports, 'usage' | 'files' | 'uploads' | 'clock'>) {}

  async execute({ graceMs }: Parameters<Port['execute']>[0]) {
    if (!Number.isSafeInteger(graceMs) || graceMs < 0) throw new RangeError(`Invalid grace period: ${graceMs}`);
    const cutoff = new Date(this.p.clock.now().getTime() - graceMs);
    const report = { stale: 0, settled: 0, released: 0, failed: 0 };
    for (const hold of await this.p.usage.staleHolds(cutoff)) {
      if (hold.by !== null) continue;
      // A resumable upload holds its counts between requests for as long as it lives; its expiry decides, not age.
      if (await this.isResumable(hold)) continue;
      report.stale++;
      // One failing hold must not stop the rest; what stays is tried again on the next run.
      try {
        report[await this.sweep(hold)]++;
      } catch {
        report.failed++;
      }
    }
    return report;
  }

  private async isResumable({ userId, holdId }: HeldAmounts): Promise<boolean> {
    const session = await this.p.uploads.findById(holdId).catch(() => null);
    return session?.ownerId === userId;
  }

  private async sweep({ userId, holdId }: HeldAmounts): Promise<'settled' | 'released'> {
    const file = await this.p.files.findById(holdId);
    if (file && file.ownerId === userId) {
      await this.p.usage.settleHold(userId, holdId);
      return 'settled';
    }
    await this.p.usage.releaseHold(userId, holdId);
    return 'released';
  }
}
