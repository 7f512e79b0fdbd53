import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { MailNotice, MailNotices, NoticeKey } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface AddressDoc {
  _id: string;
  email: string;
}

interface NoticeDoc {
  _id: NoticeKey;
  ownerId: string;
  wanted: boolean;
  pending: boolean;
  from: Date;
  lastSentAt: Date | null;
  covered: MailNotice['covered'];
  /** Moves on with every mark; a mail sent clears `pending` only if no mark came after it was taken. */
  marks: number;
  takenAtMark: number;
  leaseHolder: string | null;
  leaseUntil: Date | null;
}

const toNotice = (doc: NoticeDoc): MailNotice => ({ key: doc._id, ownerId: doc.ownerId, pending: doc.pending, from: doc.from, lastSentAt: doc.lastSentAt, covered: doc.covered ?? null });

@injectable()
export class MongoMailNotices implements MailNotices {
  private readonly addresses: Collection<AddressDoc>;
  private readonly notices: Collection<NoticeDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.addresses = db.collection<AddressDoc>(COLLECTIONS.mailAddresses);
    this.notices = db.collection<NoticeDoc>(COLLECTIONS.mailNotices);
  }

  async setAddress(userId: string, email: string | null): Promise<void> {
    if (email === null) await this.addresses.deleteOne({ _id: userId });
    else await this.addresses.updateOne({ _id: userId }, { $set: { email } }, { upsert: true });
  }

  async address(userId: string): Promise<string | null> {
    return (await this.addresses.findOne({ _id: userId }))?.email ?? null;
  }

  async setWanted(key: NoticeKey, ownerId: string, on: boolean, now: Date): Promise<void> {
    if (!on) {
      await this.notices.updateOne({ _id: key }, { $set: { wanted: false } });
      return;
    }
    await this.notices.updateOne(
      { _id: key, wanted: { $ne: true } },
      {
        $set: { ownerId, wanted: true, pending: false, from: now },
        $setOnInsert: { lastSentAt: null, covered: null, marks: 0, takenAtMark: 0, leaseHolder: null, leaseUntil: null },
      },
      { upsert: true },
    ).catch((err: unknown) => {
      // E11000: it exists and is on already.
      if ((err as { code?: number }).code !== 11000) throw err;
    });
  }

  async wanted(keys: readonly NoticeKey[]): Promise<Set<NoticeKey>> {
    if (keys.length === 0) return new Set();
    const docs = await this.notices.find({ _id: { $in: [...keys] }, wanted: true }, { projection: { _id: 1 } }).toArray();
    return new Set(docs.map((doc) => doc._id));
  }

  async mark(key: NoticeKey): Promise<void> {
    await this.notices.updateOne({ _id: key, wanted: true }, { $set: { pending: true }, $inc: { marks: 1 } });
  }

  /**
   * A due notice taken under a lease: a candidate is read, then taken by one conditional update that also holds its
   * mark count (`takenAtMark`), only while nothing marked it meanwhile; a race reads again. Plain operators, no
   * pipeline update: every server speaking the protocol honours them.
   */
  async takeDue(holder: string, now: Date, until: Date, gapMs: number): Promise<MailNotice | null> {
    const due = {
      wanted: true,
      pending: true,
      $and: [
        { $or: [{ lastSentAt: null }, { lastSentAt: { $lte: new Date(now.getTime() - gapMs) } }] },
        { $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
      ],
    };
    for (;;) {
      const candidate = await this.notices.findOne(due, { projection: { _id: 1, marks: 1 } });
      if (!candidate) return null;
      const doc = await this.notices.findOneAndUpdate(
        { _id: candidate._id, marks: candidate.marks, ...due },
        { $set: { leaseHolder: holder, leaseUntil: until, takenAtMark: candidate.marks } },
        { returnDocument: 'after' },
      );
      if (doc) return toNotice(doc);
    }
  }

  /**
   * The mail went: `pending` is cleared only when no mark came after the notice was taken (the marks still equal
   * `takenAtMark`), else kept; the lease goes either way.
   */
  async sent(key: NoticeKey, holder: string, at: Date, covered: MailNotice['covered']): Promise<boolean> {
    const done = { lastSentAt: at, covered, leaseHolder: null, leaseUntil: null };
    const clean = await this.notices.updateOne(
      { _id: key, leaseHolder: holder, $expr: { $eq: ['$marks', '$takenAtMark'] } },
      { $set: { ...done, pending: false } },
    );
    if (clean.matchedCount === 1) return true;
    const marked = await this.notices.updateOne({ _id: key, leaseHolder: holder }, { $set: { ...done, pending: true } });
    return marked.matchedCount === 1;
  }

  async forget(keys: readonly NoticeKey[]): Promise<void> {
    if (keys.length > 0) await this.notices.deleteMany({ _id: { $in: [...keys] } });
  }
}
