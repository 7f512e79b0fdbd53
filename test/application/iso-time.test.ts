import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/application/iso-time.js';

describe('isoTime', () => {
  it('matches toISOString at the edges of days, months, leap years and its range', () => {
    const edges = [
      0,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12, 0, 0, 5),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 1, 29, 0, 0, 0, 50),
      Date.UTC(2026, 10, 22, 10, 0, 0, 0),
      253_402_300_799_999,
    ];
    for (const ms of edges) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('matches toISOString on 200,000 random instants between 1970 and 9999', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor(next() * 253_402_300_799_000) + (i % 1000);
      const expected = new Date(ms).toISOString();
      if (isoTime(new Date(ms)) !== expected) expect(isoTime(new Date(ms))).toBe(expected);
    }
  });

  it('hands dates outside its range to toISOString, and throws as it does on an invalid date', () => {
    for (const ms of [-1, -62_198_755_200_000, 253_402_300_800_000, 8.64e15]) {
      expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    }
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
