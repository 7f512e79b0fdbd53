import type { Core } from './application/index.js';
import type { PersistenceKind } from './config.js';
import type { Logger } from './logger.js';

/** Bytes younger than this may belong to an upload whose record is still on its way; they are never swept. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
/** Between start-ups, orphans (a failed blob delete, another instance's crash) are swept this often. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface SweepOptions {
  graceMs?: number;
  intervalMs?: number;
}

/**
 * Records kept in memory die with the process, so every blob in DATA_DIR would look orphaned to it, including the
 * bytes of a database this start merely failed to reach. Only a durable persistence may decide what is an orphan.
 */
export function maySweep(persistence: PersistenceKind): boolean {
  return persistence !== 'memory';
}

/** One sweep; a failure is logged and left for the next run, never allowed to stop the service. */
export async function sweepOrphanBlobs(core: Core, logger: Logger, graceMs = SWEEP_GRACE_MS): Promise<void> {
  try {
    const report = await core.sweepOrphanBlobs.execute({ graceMs });
    if (report.deleted + report.incomplete === 0) logger.debug(report, 'swept orphan blobs: none found');
    // Orphans mean an upload was cut short past its own cleanup (a crash); its reservation may still be counted.
    else logger.warn(report, 'swept orphan blobs; usage counters may still count those uploads until reconciled');
    if (report.failed > 0) logger.error(report, 'some orphan blobs could not be deleted; the next sweep retries');
  } catch (err) {
    logger.error({ err }, 'sweeping orphan blobs failed');
  }
}

/**
 * Sweeps on a schedule that never keeps the process alive, one sweep at a time. The returned stop waits for a sweep
 * under way, so nothing touches the persistence after it has been closed.
 */
export function scheduleOrphanSweeps(core: Core, logger: Logger, options: SweepOptions = {}): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= sweepOrphanBlobs(core, logger, options.graceMs).finally(() => {
      running = null;
    });
  }, options.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
