import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { releaseSession } from '../uploads/release-session.js';

type Port = Core['sweepExpiredUploads'];

/** Sessions looked at per query, so a large backlog is swept in bounded steps. */
const BATCH = 200;

/**
 * Ends the resumable uploads that received nothing for their idle lifetime: their parts and holds go. Each is taken
 * only while still expired, so an append that renewed it in the meantime wins.
 */
export class SweepExpiredUploads implements Port {
  constructor(private readonly p: Pick<Ports, 'uploads' | 'blobs' | 'usage' | 'clock' | 'requests'>) {}

  async execute() {
    const now = this.p.clock.now();
    const report = { expired: 0, failed: 0 };
    const failed = new Set<string>();
    for (;;) {
      const ids = (await this.p.uploads.expiredIds(now, BATCH + failed.size)).filter((id) => !failed.has(id));
      if (ids.length === 0) return report;
      for (const id of ids) {
        // One failing upload must not stop the rest; what stays is tried again on the next run.
        try {
          const session = await this.p.uploads.takeExpired(id, now);
          if (!session) continue;
          await releaseSession(this.p, session);
          report.expired++;
        } catch {
          failed.add(id);
          report.failed++;
        }
      }
    }
  }
}
