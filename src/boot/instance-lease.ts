import type { Clock, IdGenerator, Instance, InstanceLeases } from '../application/ports/index.js';
import { processGone, writerPrefix } from '../adapters/fs-blob-store/writer.js';
import type { Logger } from './logger.js';

export interface LeaseTiming {
  /** A lease runs out this long after its last renewal. */
  leaseMs: number;
  /** How often it is renewed; well under leaseMs, so a few missed renewals (a slow database) lose nothing. */
  renewMs: number;
}

/** Renewed six times per lease: five renewals can fail in a row before anyone may take the instance for dead. */
export const timingOf = (leaseMs: number): LeaseTiming => ({ leaseMs, renewMs: leaseMs / 6 });

/**
 * This process's lease on being alive, and what the core asks about other instances. The lease is taken before the
 * instance serves and renewed on an unref'd timer; a clean stop ends it, so what the instance left is anyone's to
 * finish at once. A lease found run out at renewal (the instance stalled, or the database was out of reach, for longer
 * than the lease) is not taken back: others may have undone its work already, so the instance goes on under a new id.
 */
export class LeaseKeeper implements Instance {
  private current: string;
  private timer: ReturnType<typeof setInterval> | null = null;
  private renewing: Promise<void> | null = null;
  private readonly process = writerPrefix();

  constructor(
    private readonly leases: InstanceLeases,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly timing: LeaseTiming,
    private readonly logger: Logger,
  ) {
    this.current = ids.newId();
  }

  id(): string {
    return this.current;
  }

  async gone(ids: readonly string[]): Promise<Set<string>> {
    const others = [...new Set(ids)].filter((id) => id !== this.current);
    const now = this.clock.now().getTime();
    const running = new Set(
      (await this.leases.find(others))
        .filter((lease) => lease.until.getTime() > now && !processGone(lease.process))
        .map((lease) => lease.id),
    );
    return new Set(others.filter((id) => !running.has(id)));
  }

  /** Takes the lease and keeps renewing it until stop (or halt). */
  async start(): Promise<void> {
    await this.take();
    this.timer ??= setInterval(() => {
      this.renewing ??= this.renew().finally(() => (this.renewing = null));
    }, this.timing.renewMs);
    this.timer.unref();
  }

  /** One renewal; a failure is logged and left to the next one, which comes well before the lease runs out. */
  async renew(): Promise<void> {
    const now = this.clock.now();
    try {
      if (await this.leases.renew(this.current, this.until(now), now)) return;
      const lapsed = this.current;
      this.current = this.ids.newId();
      this.logger.error(
        { lapsed, id: this.current },
        'this instance lease ran out before it was renewed; its unfinished work may have been undone by another instance',
      );
      await this.take();
    } catch (err) {
      this.logger.warn({ err }, 'renewing the instance lease failed; the next renewal tries again');
    }
  }

  /** Stops renewing and leaves the lease to run out, as a killed process would (tests). */
  halt(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops renewing and ends the lease: a clean stop. */
  async stop(): Promise<void> {
    this.halt();
    await this.renewing;
    await this.leases.end(this.current).catch((err: unknown) => {
      this.logger.warn({ err }, 'ending the instance lease failed; it runs out by itself');
    });
  }

  private async take(): Promise<void> {
    const lease = { id: this.current, process: this.process, until: this.until(this.clock.now()) };
    if (!(await this.leases.take(lease))) throw new Error('An instance lease with this id exists already');
  }

  private until(now: Date): Date {
    return new Date(now.getTime() + this.timing.leaseMs);
  }
}
