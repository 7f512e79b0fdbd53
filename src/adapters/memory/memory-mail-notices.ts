import { injectable } from 'inversify';
import type { MailNotice, MailNotices, NoticeKey } from '../../application/ports/index.js';
import { clone } from './clone.js';

interface Stored extends MailNotice {
  wanted: boolean;
  /** A mark that came after the mail being sent was taken keeps the record pending. */
  markedSinceTake: boolean;
  leaseHolder: string | null;
  leaseUntil: Date | null;
}

/** Each change checks and writes in one synchronous step, as MongoDB's conditional update does. */
@injectable()
export class MemoryMailNotices implements MailNotices {
  private readonly addresses = new Map<string, string>();
  private readonly notices = new Map<NoticeKey, Stored>();

  async setAddress(userId: string, email: string | null): Promise<void> {
    if (email === null) this.addresses.delete(userId);
    else this.addresses.set(userId, email);
  }

  async address(userId: string): Promise<string | null> {
    return this.addresses.get(userId) ?? null;
  }

  async setWanted(key: NoticeKey, ownerId: string, on: boolean, now: Date): Promise<void> {
    const stored = this.notices.get(key);
    if (stored) {
      if (on && !stored.wanted) Object.assign(stored, { wanted: true, from: new Date(now), pending: false });
      if (!on) stored.wanted = false;
      return;
    }
    if (on) {
      this.notices.set(key, { key, ownerId, pending: false, from: new Date(now), lastSentAt: null, covered: null, wanted: true, markedSinceTake: false, leaseHolder: null, leaseUntil: null });
    }
  }

  async wanted(keys: readonly NoticeKey[]): Promise<Set<NoticeKey>> {
    return new Set(keys.filter((key) => this.notices.get(key)?.wanted));
  }

  async mark(key: NoticeKey): Promise<void> {
    const stored = this.notices.get(key);
    if (!stored?.wanted) return;
    stored.pending = true;
    if (stored.leaseHolder !== null) stored.markedSinceTake = true;
  }

  async takeDue(holder: string, now: Date, until: Date, gapMs: number): Promise<MailNotice | null> {
    for (const stored of this.notices.values()) {
      if (!stored.wanted || !stored.pending) continue;
      if (stored.lastSentAt !== null && stored.lastSentAt.getTime() > now.getTime() - gapMs) continue;
      if (stored.leaseUntil !== null && stored.leaseUntil.getTime() > now.getTime()) continue;
      Object.assign(stored, { leaseHolder: holder, leaseUntil: new Date(until), markedSinceTake: false });
      const { key, ownerId, pending, from, lastSentAt, covered } = stored;
      return clone({ key, ownerId, pending, from, lastSentAt, covered });
    }
    return null;
  }

  async sent(key: NoticeKey, holder: string, at: Date, covered: MailNotice['covered']): Promise<boolean> {
    const stored = this.notices.get(key);
    if (!stored || stored.leaseHolder !== holder) return false;
    Object.assign(stored, { lastSentAt: new Date(at), covered: covered && clone(covered), pending: stored.markedSinceTake, leaseHolder: null, leaseUntil: null, markedSinceTake: false });
    return true;
  }

  async forget(keys: readonly NoticeKey[]): Promise<void> {
    for (const key of keys) this.notices.delete(key);
  }
}
