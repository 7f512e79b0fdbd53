/**
 * Every value crosses the adapter boundary as a deep copy (Dates stay Dates), as it would through a database:
 * a caller mutating what it passed in or got back never changes what is stored.
 * Entities are flat records of primitives and Dates, so their fields are copied directly; anything nested goes
 * through structuredClone. That is an order of magnitude faster than structuredClone on the whole record, which
 * matters when a listing hands out 100,000 files.
 */
export function clone<T extends object>(record: T): T {
  const copy = { ...record } as Record<string, unknown>;
  for (const key in copy) {
    const value = copy[key];
    if (value instanceof Date) copy[key] = new Date(value.getTime());
    else if (typeof value === 'object' && value !== null) copy[key] = structuredClone(value);
  }
  return copy as T;
}
