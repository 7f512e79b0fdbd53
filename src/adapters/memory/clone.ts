/**
 * Every value crosses the adapter boundary as a deep copy (Dates stay Dates), as it would through a database:
 * a caller mutating what it passed in or got back never changes what is stored.
 * Entities are records of primitives, Dates, arrays and small plain objects (a user's limits), so they are copied
 * field by field; that is an order of magnitude faster than structuredClone, which matters when a listing hands
 * out 100,000 files and when every share read copies its owner.
 */
export function clone<T extends object>(record: T): T {
  const copy = { ...record } as Record<string, unknown>;
  for (const key in copy) {
    const value = copy[key];
    if (typeof value === 'object' && value !== null) copy[key] = copyValue(value);
  }
  return copy as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map(copyValue);
  if (Object.getPrototypeOf(value) === Object.prototype) return clone(value);
  // Anything else (a Map, a typed array) is not part of an entity today; keep it exact.
  return structuredClone(value);
}
