import { describe, expect, it } from 'vitest';
import { NameIndex, type NamedRow } from '../../src/adapters/memory/name-index.js';
import { compareNamed } from '../../src/adapters/memory/order.js';
import { PlacedStore } from '../../src/adapters/memory/placed-store.js';

/** What the index must answer: every live row containing the needle, by name then id, cut at the limit. */
function expected(live: Map<string, NamedRow>, needle: string, limit: number): string[] {
  return [...live.values()]
    .filter((row) => row.lower.includes(needle))
    .sort(compareNamed)
    .slice(0, Math.max(0, limit))
    .map((row) => row.id);
}

const ids = (rows: readonly NamedRow[]) => rows.map((row) => row.id);

/** A repeatable random integer below n (mulberry32), so a failing sequence can be replayed. */
function seeded(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n);
  };
}

describe('NameIndex (memory adapter search index)', () => {
  it('answers like a full scan through random adds, replacements, deletes and searches', () => {
    const random = seeded(7);
    const syllables = ['ab', 'ba', 'abc', 'c', 'ca', 'b', 'aa', '.', '-', 'é'];
    const needles = ['', 'a', 'ab', 'ba', 'abc', 'cab', 'aab', '.', 'é', 'zz', 'a\u0000b', 'bc-a'];
    const index = new NameIndex<NamedRow>();
    const live = new Map<string, NamedRow>();
    for (let step = 0; step < 20_000; step++) {
      const action = random(10);
      if (action < 5) {
        // Add or replace (ids collide often), so rows move between fresh, base and stale.
        const id = `id-${random(600)}`;
        const lower = Array.from({ length: 1 + random(4) }, () => syllables[random(syllables.length)]).join('');
        const row = { id, lower };
        index.add(row);
        live.set(id, row);
      } else if (action < 7) {
        const id = `id-${random(600)}`;
        index.delete(id);
        live.delete(id);
      } else {
        const needle = needles[random(needles.length)]!;
        const limit = [0, 1, 5, 50, 10_000][random(5)]!;
        expect(ids(index.find(needle, limit)), `step ${step}: ${JSON.stringify(needle)} limit ${limit}`).toEqual(
          expected(live, needle, limit),
        );
      }
      expect(index.size).toBe(live.size);
    }
  });

  it('stops at the limit in name order across a large base and its fresh rows', () => {
    const index = new NameIndex<NamedRow>();
    const live = new Map<string, NamedRow>();
    for (let i = 0; i < 5000; i++) {
      const row = { id: `f-${i}`, lower: `${i % 2 ? 'kilo' : 'lima'}-${String(4999 - i).padStart(5, '0')}` };
      index.add(row);
      live.set(row.id, row);
    }
    expect(ids(index.find('kilo', 3))).toEqual(expected(live, 'kilo', 3));
    // A few writes after the base was built stay fresh, and still come out in their place.
    for (const row of [
      { id: 'f-1', lower: 'kilo-renamed' },
      { id: 'n-1', lower: 'kilo-00000' },
    ]) {
      index.add(row);
      live.set(row.id, row);
    }
    index.delete('f-3');
    live.delete('f-3');
    for (const needle of ['kilo', 'kilo-0', 'renamed', '00000', '']) {
      expect(ids(index.find(needle, 7))).toEqual(expected(live, needle, 7));
    }
  });
});

describe('PlacedStore (names by owner and by folder)', () => {
  it('finds across many folders in name-then-id order, cut at the limit, as a full scan would', () => {
    const random = seeded(11);
    const store = new PlacedStore<Item>((item) => item.folderId);
    const live = new Map<string, Item>();
    for (let step = 0; step < 6000; step++) {
      const id = `f-${random(2000)}`;
      if (random(5) === 0) {
        store.remove(id);
        live.delete(id);
        continue;
      }
      const owner = random(4) === 0 ? 'other' : 'owner';
      const item = { id, ownerId: owner, folderId: `d-${random(300)}`, name: `N${random(50)}x` };
      store.put({ ...item });
      live.set(id, item);
    }
    const folders = Array.from({ length: 301 }, (_, i) => `d-${i}`);
    for (const [needle, limit] of [['', 20_000], ['', 7], ['n1', 40], ['4X', 1000], ['zz', 5]] as const) {
      const wanted = [...live.values()]
        .filter((item) => item.ownerId === 'owner' && item.name.toLowerCase().includes(needle.toLowerCase()))
        .map((item) => ({ id: item.id, lower: item.name.toLowerCase() }))
        .sort(compareNamed)
        .slice(0, limit)
        .map((row) => row.id);
      expect(store.find('owner', folders, needle, limit).map((item) => item.id)).toEqual(wanted);
    }
  });
});

interface Item {
  id: string;
  ownerId: string;
  folderId: string;
  name: string;
}
