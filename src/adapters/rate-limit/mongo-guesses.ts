import { createHash } from 'node:crypto';
import type { Collection, Filter, UpdateFilter } from 'mongodb';
import type { GuessCounters, Tally } from '../../application/ports/throttle.js';

interface PairDoc {
  n: number;
  start: Date;
}

/**
 * One document per guessed-at target: its count and window, and the count and window of every address guessing at
 * it (`pairs`), so a guess is counted on both in one findOneAndUpdate and forgiven in one update. A window opens at
 * its first count; an ended one is noticed in the document the count returns and started again by a conditional
 * update on the start seen, so of several guesses that saw it end one restarts it and the others count again.
 */
export interface GuessDoc {
  key: string;
  n: number;
  start: Date;
  /** For the TTL index: no window of the document outlasts it. */
  expire: Date;
  pairs?: Record<string, PairDoc>;
}

const keyOf = ({ target }: GuessCounters) => `guess:${target.rule.name}:${target.id}`;

/** A field name from the pair's key: base64url holds no '.' and no '$', whatever the address looked like. */
const pairName = ({ pair }: GuessCounters) =>
  createHash('sha256').update(`${pair.rule.name}\0${pair.id}`).digest('base64url').slice(0, 22);

/** Both counts up by one; a window never counted before opens now. */
function countBoth(pairField: string, now: number, horizon: Date): UpdateFilter<GuessDoc> {
  const at = new Date(now);
  return {
    $inc: { n: 1, [`${pairField}.n`]: 1 },
    $min: { start: at, [`${pairField}.start`]: at },
    $max: { expire: horizon },
  } as UpdateFilter<GuessDoc>;
}

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (err: unknown) => (err as { code?: unknown } | null)?.code === DUPLICATE_KEY;

export class MongoGuesses {
  constructor(private readonly collection: Collection<GuessDoc>) {}

  async tally(counters: GuessCounters): Promise<{ target: Tally; pair: Tally }> {
    const { target, pair } = counters;
    const now = Date.now();
    const key = keyOf(counters);
    const name = pairName(counters);
    const pairField = `pairs.${name}`;
    const horizon = new Date(now + Math.max(target.rule.windowMs, pair.rule.windowMs));
    const doc = await this.countOn(key, countBoth(pairField, now, horizon));
    // Opening the target's new window also drops the pairs whose windows ended, so the document keeps only the
    // addresses still counted (an address counted again starts a new pair).
    const ended = Object.entries(doc.pairs ?? {})
      .filter(([other, entry]) => other !== name && entry.start.getTime() + pair.rule.windowMs <= now)
      .map(([other]) => `pairs.${other}`);
    const [targetTally, pairTally] = await Promise.all([
      this.settle(key, { n: 'n', start: 'start', drop: ended }, doc.n, doc.start, target.rule.windowMs, now, (d) => d),
      this.settle(key, { n: `${pairField}.n`, start: `${pairField}.start` }, doc.pairs![name]!.n,
        doc.pairs![name]!.start, pair.rule.windowMs, now, (d) => d.pairs?.[name]),
    ]);
    return { target: targetTally, pair: pairTally };
  }

  /**
   * One counter's count after this guess's increment (`count`, in the window opened at `start`). A window that had
   * ended is opened again at this guess, counting it as 1, by an update conditional on the start seen: of several
   * guesses that saw the same end one wins, and the others count themselves again in the window it opened. Each
   * counter is settled on its own, so a guess adds exactly one to each window it is counted in.
   */
  private async settle(
    key: string,
    fields: { n: string; start: string; drop?: string[] },
    count: number,
    start: Date,
    windowMs: number,
    now: number,
    read: (doc: GuessDoc) => { n: number; start: Date } | undefined,
  ): Promise<Tally> {
    const at = new Date(now);
    for (;;) {
      if (start.getTime() + windowMs > now) return { count, resetIn: Math.max(1, start.getTime() + windowMs - now) };
      const restarted = await this.collection.findOneAndUpdate(
        { key, [fields.start]: start } as Filter<GuessDoc>,
        {
          $set: { [fields.n]: 1, [fields.start]: at },
          ...(fields.drop?.length ? { $unset: Object.fromEntries(fields.drop.map((f) => [f, ''])) } : {}),
        } as UpdateFilter<GuessDoc>,
        { returnDocument: 'after' },
      );
      if (restarted) return { count: 1, resetIn: windowMs };
      const again = await this.countOn(key, {
        $inc: { [fields.n]: 1 },
        $min: { [fields.start]: at },
      } as UpdateFilter<GuessDoc>);
      const seen = read(again)!;
      [count, start] = [seen.n, seen.start];
    }
  }

  /** Both back by one, never below zero; a pair back at zero is dropped, so refused guesses leave no entries. */
  async uncount(counters: GuessCounters): Promise<void> {
    const key = keyOf(counters);
    const field = `pairs.${pairName(counters)}`;
    const both = { key, n: { $gte: 1 } };
    if (await this.matched({ ...both, [`${field}.n`]: 1 }, { $inc: { n: -1 }, $unset: { [field]: '' } })) return;
    if (await this.matched({ ...both, [`${field}.n`]: { $gte: 2 } }, { $inc: { n: -1, [`${field}.n`]: -1 } })) return;
    // One of the two is at zero already (a window restarted meanwhile): each on its own, each floored.
    await this.matched(both, { $inc: { n: -1 } });
    await this.matched({ key, [`${field}.n`]: { $gte: 1 } }, { $inc: { [`${field}.n`]: -1 } });
  }

  /** The pair goes and the target takes one back (never below zero), in one update. */
  async forgive(counters: GuessCounters): Promise<void> {
    const key = keyOf(counters);
    const field = `pairs.${pairName(counters)}`;
    if (await this.matched({ key, n: { $gte: 1 } }, { $inc: { n: -1 }, $unset: { [field]: '' } })) return;
    await this.matched({ key }, { $unset: { [field]: '' } });
  }

  private async countOn(key: string, update: UpdateFilter<GuessDoc>): Promise<GuessDoc> {
    const upsert = () =>
      this.collection.findOneAndUpdate({ key }, update, { upsert: true, returnDocument: 'after' });
    // Two first guesses at once both try to insert: the unique key refuses one, which then finds the document.
    const doc = await upsert().catch((err: unknown) => {
      if (isDuplicateKey(err)) return upsert();
      throw err;
    });
    if (!doc) throw new Error('An upsert returned no document');
    return doc;
  }

  private async matched(filter: Record<string, unknown>, update: Record<string, unknown>): Promise<boolean> {
    const result = await this.collection.updateOne(filter as Filter<GuessDoc>, update as UpdateFilter<GuessDoc>);
    return result.matchedCount === 1;
  }
}
