import type { ActivityEvent } from '../domain/index.js';
import type { ActivityRecorder, ActivityRepository } from '../application/ports/index.js';
import type { Logger } from './logger.js';

/**
 * The recorder the core calls from its reads: the write starts at once and nobody waits for it. A failed write is
 * logged (the event's kind and share or request, never the client) and changes nothing else: the read it describes
 * was answered anyway.
 */
export class LoggedActivityRecorder implements ActivityRecorder {
  /** Writes under way, so a test (or a clean stop) can wait for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly log: ActivityRepository,
    private readonly logger: Pick<Logger, 'warn'>,
    /** ACTIVITY=off: every event is dropped unwritten. */
    private readonly enabled = true,
  ) {}

  record(event: ActivityEvent): void {
    if (!this.enabled) return;
    const write = this.log
      .add(event)
      .catch((err: unknown) => {
        const target = event.shareId !== null ? { shareId: event.shareId } : { requestId: event.requestId };
        this.logger.warn({ err, kind: event.kind, ...target }, 'recording an activity event failed; the read was answered anyway');
      })
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves once every write started so far has finished (or failed and been logged). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
