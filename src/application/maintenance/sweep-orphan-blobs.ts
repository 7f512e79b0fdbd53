import type { Core } from '../contract.js';
import type { BlobEntry, Ports } from '../ports/index.js';

type Port = Core['sweepOrphanBlobs'];

/** Keys asked about per query, so a large store is swept in bounded steps. */
const BATCH = 500;

/**
 * Deletes bytes no file record points at: what a crash between writing the bytes and recording the file left, or a
 * blob delete that failed after its record was gone. Only blobs older than the grace period are candidates, so an
 * upload whose record is still on its way is never touched; the store's own leftovers of interrupted writes go too.
 */
export class SweepOrphanBlobs implements Port {
  constructor(private readonly p: Pick<Ports, 'blobs' | 'files' | 'uploads' | 'clock'>) {}

  async execute({ graceMs }: Parameters<Port['execute']>[0]) {
    if (!Number.isSafeInteger(graceMs) || graceMs < 0) throw new RangeError(`Invalid grace period: ${graceMs}`);
    const cutoff = new Date(this.p.clock.now().getTime() - graceMs);
    const report = { scanned: 0, deleted: 0, failed: 0, incomplete: 0 };
    let batch: string[] = [];
    for await (const entry of this.p.blobs.list()) {
      report.scanned++;
      if (!olderThan(entry, cutoff)) continue;
      batch.push(entry.key);
      if (batch.length >= BATCH) {
        await this.sweep(batch, report);
        batch = [];
      }
    }
    if (batch.length > 0) await this.sweep(batch, report);
    report.incomplete = await this.p.blobs.purgeIncomplete(cutoff);
    return report;
  }

  /** One failing delete must not stop the rest; what stays is tried again on the next run. */
  private async sweep(keys: string[], report: { deleted: number; failed: number }): Promise<void> {
    const [files, parts] = await Promise.all([
      this.p.files.referencedBlobKeys(keys),
      this.p.uploads.referencedPartKeys(keys),
    ]);
    // The parts of a resumable upload are ordinary blobs that its session, not a file, points at.
    const orphans = keys.filter((key) => !files.has(key) && !parts.has(key));
    const results = await Promise.allSettled(orphans.map((key) => this.p.blobs.delete(key)));
    for (const result of results) report[result.status === 'fulfilled' ? 'deleted' : 'failed']++;
  }
}

function olderThan(entry: BlobEntry, cutoff: Date): boolean {
  return entry.createdAt.getTime() < cutoff.getTime();
}
