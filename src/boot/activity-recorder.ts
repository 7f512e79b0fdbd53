import type { ActivityEvent } from '../domain/index.js';
import type { ActivityRecorder, ActivityRepository } from '../application/ports/index.js';
import type { Logger } from './logger.js';

/** A burst past this many events is written at once, without waiting for the turn to end. */
const MOST_PER_WRITE = 500;

/**
 * The recorder the core calls from its reads. Events recorded in one turn of the event loop are gathered and written
 * together once the turn ends (`setImmediate`): one insert for every read answered in that turn instead of one each,
 * and no read waits for it. A failed write is logged (how many events, their kinds, never the clients) and changes
 * nothing else: the reads it describes were answered anyway. What is gathered and not yet written is lost if the
 * process is killed in that turn; a written event is never lost (the outbox takes it from the database).
 */
export class LoggedActivityRecorder implements ActivityRecorder {
  /** Writes under way, so a test (or a clean stop) can wait for them. */
  private readonly pending = new Set<Promise<void>>();
  private gathered: ActivityEvent[] = [];
  private flushing: ReturnType<typeof setImmediate> | null = null;

  constructor(
    private readonly log: ActivityRepository,
    private readonly logger: Pick<Logger, 'warn'>,
    /** ACTIVITY=off: every event is dropped unwritten. */
    private readonly enabled = true,
  ) {}

  record(event: ActivityEvent): void {
    if (!this.enabled) return;
    this.gathered.push(event);
    if (this.gathered.length >= MOST_PER_WRITE) this.flush();
    else this.flushing ??= setImmediate(() => this.flush());
  }

  /** Resolves once every event recorded so far is written (or its write failed and was logged). */
  async settled(): Promise<void> {
    this.flush();
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private flush(): void {
    if (this.flushing !== null) clearImmediate(this.flushing);
    this.flushing = null;
    const events = this.gathered;
    if (events.length === 0) return;
    this.gathered = [];
    const write = this.log
      .add(events)
      .catch((err: unknown) => {
        const kinds = [...new Set(events.map((event) => event.kind))];
        this.logger.warn({ err, events: events.length, kinds }, 'recording activity events failed; the reads were answered anyway');
      })
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }
}
