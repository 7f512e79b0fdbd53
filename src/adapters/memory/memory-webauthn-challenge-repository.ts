import { injectable } from 'inversify';
import type {
  CeremonyPurpose,
  WebAuthnChallenge,
  WebAuthnChallengeRepository,
} from '../../application/ports/index.js';
import { clone } from './clone.js';

@injectable()
export class MemoryWebAuthnChallengeRepository implements WebAuthnChallengeRepository {
  private readonly rows = new Map<string, WebAuthnChallenge>();

  async insert(challenge: WebAuthnChallenge): Promise<void> {
    if (this.rows.has(challenge.challenge)) throw new Error('This challenge was handed out already');
    this.rows.set(challenge.challenge, clone(challenge));
  }

  async take(challenge: string, purpose: CeremonyPurpose, now: Date): Promise<WebAuthnChallenge | null> {
    this.sweep(now);
    const row = this.rows.get(challenge);
    if (!row || row.purpose !== purpose) return null;
    this.rows.delete(challenge);
    return clone(row);
  }

  /** What MongoDB's TTL index does: expired challenges do not pile up (nor can they be taken). */
  private sweep(now: Date): void {
    for (const [key, row] of this.rows) if (row.expiresAt.getTime() <= now.getTime()) this.rows.delete(key);
  }
}
