import { injectable } from 'inversify';
import type { ItemProperty, WriteLock } from '../../domain/index.js';
import type { LockStore, PropertyStore, Versioned } from '../../application/ports/index.js';
import { clone } from './clone.js';

/** One record per user and its version; a swap checks and writes in one synchronous step, as MongoDB's filter does. */
class VersionedRows<T extends object> {
  private readonly rows = new Map<string, Versioned<T>>();

  constructor(private readonly empty: () => T) {}

  async read(userId: string): Promise<Versioned<T>> {
    const row = this.rows.get(userId);
    return row ? clone(row) : { version: 0, value: this.empty() };
  }

  async swap(userId: string, version: number, next: T): Promise<boolean> {
    if ((this.rows.get(userId)?.version ?? 0) !== version) return false;
    // Cloned inside a record: clone() copies objects, and a bare array would not stay one.
    this.rows.set(userId, clone({ version: version + 1, value: next }));
    return true;
  }

  async remove(userId: string): Promise<void> {
    this.rows.delete(userId);
  }
}

@injectable()
export class MemoryPropertyStore extends VersionedRows<Record<string, ItemProperty[]>> implements PropertyStore {
  constructor() {
    super(() => ({}));
  }
}

@injectable()
export class MemoryLockStore extends VersionedRows<WriteLock[]> implements LockStore {
  constructor() {
    super(() => []);
  }
}
