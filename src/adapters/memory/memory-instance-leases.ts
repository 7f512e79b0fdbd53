import { injectable } from 'inversify';
import type { InstanceLease, InstanceLeases } from '../../application/ports/index.js';
import { clone } from './clone.js';

/** Each change checks and writes in one synchronous step, as MongoDB's conditional update does. */
@injectable()
export class MemoryInstanceLeases implements InstanceLeases {
  private readonly leases = new Map<string, InstanceLease>();

  async take(lease: InstanceLease): Promise<boolean> {
    if (this.leases.has(lease.id)) return false;
    this.leases.set(lease.id, clone(lease));
    return true;
  }

  async renew(id: string, until: Date, now: Date): Promise<boolean> {
    const lease = this.leases.get(id);
    if (!lease || lease.until.getTime() <= now.getTime()) return false;
    lease.until = new Date(until);
    return true;
  }

  async end(id: string): Promise<void> {
    const lease = this.leases.get(id);
    if (lease) lease.until = new Date(0);
  }

  async find(ids: readonly string[]): Promise<InstanceLease[]> {
    return [...new Set(ids)].flatMap((id) => {
      const lease = this.leases.get(id);
      return lease ? [clone(lease)] : [];
    });
  }
}
