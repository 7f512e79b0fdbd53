import { OutboxWorker, type Ports } from '../application/index.js';
import type { Logger } from './logger.js';

export interface OutboxLoopOptions {
  /** Pause between turns when the last found nothing to do. */
  idleMs?: number;
  /** How long events and deliveries are kept (ACTIVITY_RETENTION_DAYS); the memory adapter's sweep honours it. */
  retentionMs: number;
  /** How often retention runs. */
  retentionEveryMs?: number;
  /** The lease on a taken event or delivery (OUTBOX_LEASE_MS; tests shorten it). */
  leaseMs?: number;
}

const IDLE_MS = 1000;
/**
 * After a turn that found work but less than a full batch, the next waits this long (at most the idle pause): under a
 * stream of reads each turn then takes tens of events at once instead of one or two, and a webhook still goes out
 * within a tenth of a second. A full batch is followed at once.
 */
const GATHER_MS = 50;
const RETENTION_EVERY_MS = 60 * 60 * 1000;

/**
 * Each instance's delivery loop: one OutboxWorker turn after another, a pause when there was nothing to do; now and
 * then the retention sweep. The outbox is in the database and taken under leases, so any number of instances run this
 * side by side and each event goes out once. Returns the stop, which waits for the turn under way.
 */
export function startOutboxLoop(ports: Ports, logger: Logger, options: OutboxLoopOptions): () => Promise<void> {
  const worker = new OutboxWorker(ports, options.leaseMs);
  const idleMs = options.idleMs ?? IDLE_MS;
  const gatherMs = Math.min(GATHER_MS, idleMs);
  const retentionEveryMs = options.retentionEveryMs ?? RETENTION_EVERY_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let turn: Promise<void> | null = null;
  let lastRetention = 0;

  const once = async () => {
    let pause = idleMs;
    try {
      const { dispatched, attempted, full } = await worker.step();
      if (full) pause = 0;
      else if (dispatched > 0 || attempted > 0) pause = gatherMs;
      const now = ports.clock.now();
      if (now.getTime() - lastRetention >= retentionEveryMs) {
        lastRetention = now.getTime();
        const before = new Date(now.getTime() - options.retentionMs);
        await ports.activityLog.sweep(before);
        await ports.deliveries.sweep(before);
      }
    } catch (err) {
      logger.warn({ err }, 'a turn of the webhook outbox failed; the next one tries again');
    }
    if (!stopped) {
      timer = setTimeout(run, pause);
      timer.unref();
    }
  };
  const run = () => {
    turn = once().finally(() => (turn = null));
  };
  run();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await turn;
  };
}
