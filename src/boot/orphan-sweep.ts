import type { Core } from '../application/index.js';
import type { PersistenceKind } from './config.js';
import type { Logger } from './logger.js';

/** Bytes and usage holds younger than this may belong to an upload still on its way; they are never swept. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
/** Between start-ups, orphans (a failed blob delete, another instance's crash) are swept this often. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** The work of gone instances is looked for this often unless RECOVERY_SWEEP_SECONDS says otherwise. */
export const RECOVERY_INTERVAL_MS = 10_000;

export interface SweepOptions {
  graceMs?: number;
  intervalMs?: number;
  /** How often the work of gone instances is looked for (RECOVERY_SWEEP_SECONDS). */
  recoveryMs?: number;
}

/**
 * Records kept in memory die with the process, so every blob in DATA_DIR would look orphaned to it, including the
 * bytes of a database this start merely failed to reach. Only a durable persistence may decide what is an orphan.
 */
export function maySweep(persistence: PersistenceKind): boolean {
  return persistence !== 'memory';
}

/** One sweep of bytes; a failure is logged and left for the next run, never allowed to stop the service. */
export async function sweepOrphanBlobs(core: Core, logger: Logger, graceMs = SWEEP_GRACE_MS): Promise<void> {
  try {
    const report = await core.sweepOrphanBlobs.execute({ graceMs });
    if (report.deleted + report.incomplete === 0) logger.debug(report, 'swept orphan blobs: none found');
    // Orphans mean an upload was cut short past its own cleanup (a crash); its counts go with its stale hold.
    else logger.warn(report, 'swept orphan blobs');
    if (report.failed > 0) logger.error(report, 'some orphan blobs could not be deleted; the next sweep retries');
  } catch (err) {
    logger.error({ err }, 'sweeping orphan blobs failed');
  }
}

/** One sweep of usage holds uploads left when they died; logged like the sweep of bytes, never thrown. */
export async function sweepStaleHolds(core: Core, logger: Logger, graceMs = SWEEP_GRACE_MS): Promise<void> {
  try {
    const report = await core.sweepStaleHolds.execute({ graceMs });
    if (report.stale === 0) logger.debug(report, 'swept stale usage holds: none found');
    else logger.warn(report, 'swept stale usage holds of uploads that died');
    if (report.failed > 0) logger.error(report, 'some usage holds could not be settled; the next sweep retries');
  } catch (err) {
    logger.error({ err }, 'sweeping stale usage holds failed');
  }
}

/**
 * Finishes or undoes what instances that are gone left (their lease ran out, or their process on this host is gone);
 * logged like the other sweeps, never thrown. It only acts on work that names a gone instance, so it runs on every
 * persistence, memory included.
 */
export async function sweepDeadInstances(core: Core, logger: Logger): Promise<void> {
  try {
    const report = await core.sweepDeadInstances.execute({});
    const done = report.settled + report.released + report.kept + report.abandoned;
    if (done > 0) logger.warn(report, 'finished the work of gone instances');
    else if (report.instances > 0) logger.debug(report, 'gone instances left no work');
    if (report.failed > 0) logger.error(report, 'some work of gone instances could not be finished; the next sweep retries');
  } catch (err) {
    logger.error({ err }, 'sweeping the work of gone instances failed');
  }
}

/** Ends the resumable uploads idle past their expiry; logged like the other sweeps, never thrown. */
export async function sweepExpiredUploads(core: Core, logger: Logger): Promise<void> {
  try {
    const report = await core.sweepExpiredUploads.execute({});
    if (report.expired > 0) logger.info(report, 'ended expired resumable uploads');
    if (report.failed > 0) logger.error(report, 'some expired uploads could not be ended; the next sweep retries');
  } catch (err) {
    logger.error({ err }, 'sweeping expired resumable uploads failed');
  }
}

/**
 * Every sweep: the work of gone instances first, then expired resumable uploads (they give back their own holds and
 * parts), then the holds that name no instance, so what a crash left in the counters is corrected before its bytes
 * are looked at.
 */
export async function sweepAfterCrashes(core: Core, logger: Logger, graceMs = SWEEP_GRACE_MS): Promise<void> {
  await sweepDeadInstances(core, logger);
  await sweepExpiredUploads(core, logger);
  await sweepStaleHolds(core, logger, graceMs);
  await sweepOrphanBlobs(core, logger, graceMs);
}

/**
 * Sweeps on schedules that never keep the process alive: the work of gone instances every `recoveryMs`, so what a
 * killed instance left is repaired within its lease and one such interval, and the other sweeps hourly; each kind one
 * at a time (the two kinds may overlap: every change they make is conditional). The returned stop waits for sweeps
 * under way, so nothing touches the persistence after it has been closed. `durable` false (records in memory) runs
 * no sweep of bytes or of holds that name no instance: those need records that outlive the process.
 */
export function scheduleOrphanSweeps(
  core: Core,
  logger: Logger,
  options: SweepOptions = {},
  durable = true,
): () => Promise<void> {
  const hourly = async () => {
    await sweepExpiredUploads(core, logger);
    if (!durable) return;
    await sweepStaleHolds(core, logger, options.graceMs);
    await sweepOrphanBlobs(core, logger, options.graceMs);
  };
  const schedules = [
    every(hourly, options.intervalMs ?? SWEEP_INTERVAL_MS),
    every(() => sweepDeadInstances(core, logger), options.recoveryMs ?? RECOVERY_INTERVAL_MS),
  ];
  return async () => {
    await Promise.all(schedules.map((stop) => stop()));
  };
}

/** Runs `sweep` every `ms`, skipping a turn while the last one still runs; the stop waits for one under way. */
function every(sweep: () => Promise<void>, ms: number): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= sweep().finally(() => {
      running = null;
    });
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
