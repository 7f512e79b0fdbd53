import { injectable } from 'inversify';
import type { MfaChallenge, MfaChallengeRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

@injectable()
export class MemoryMfaChallengeRepository implements MfaChallengeRepository {
  private readonly rows = new Map<string, MfaChallenge>();

  async insert(challenge: MfaChallenge): Promise<void> {
    if (this.rows.has(challenge.hash)) throw new Error('A challenge with this hash already exists');
    this.rows.set(challenge.hash, clone(challenge));
  }

  async find(hash: string, now: Date): Promise<MfaChallenge | null> {
    const row = this.rows.get(hash);
    return row && row.expiresAt.getTime() > now.getTime() ? clone(row) : null;
  }

  async take(hash: string, now: Date): Promise<boolean> {
    const row = this.rows.get(hash);
    this.sweep(now);
    if (!row || row.expiresAt.getTime() <= now.getTime()) return false;
    return this.rows.delete(hash);
  }

  /** What MongoDB's TTL index does: expired challenges do not pile up. */
  private sweep(now: Date): void {
    for (const [hash, row] of this.rows) if (row.expiresAt.getTime() <= now.getTime()) this.rows.delete(hash);
  }
}
