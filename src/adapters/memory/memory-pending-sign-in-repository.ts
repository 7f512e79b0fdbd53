import { injectable } from 'inversify';
import type { PendingSignIn, PendingSignInRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

@injectable()
export class MemoryPendingSignInRepository implements PendingSignInRepository {
  private readonly rows = new Map<string, PendingSignIn>();

  async insert(pending: PendingSignIn): Promise<void> {
    if (this.rows.has(pending.stateHash)) throw new Error('A pending sign-in with this state already exists');
    this.rows.set(pending.stateHash, clone(pending));
  }

  /** Look and delete in one synchronous step, as MongoDB's findOneAndDelete does. */
  async take(stateHash: string, now: Date): Promise<PendingSignIn | null> {
    const row = this.rows.get(stateHash);
    this.sweep(now);
    if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
    this.rows.delete(stateHash);
    return clone(row);
  }

  /** What MongoDB's TTL index does: expired sign-ins do not pile up. */
  private sweep(now: Date): void {
    for (const [hash, row] of this.rows) if (row.expiresAt.getTime() <= now.getTime()) this.rows.delete(hash);
  }
}
