const EMPTY: ReadonlyMap<string, never> = new Map<string, never>();

/** Records grouped under a key (by id), so a listing reads its one group instead of scanning every record. */
export class Groups<K, V> {
  private readonly groups = new Map<K, Map<string, V>>();

  set(key: K, id: string, value: V): void {
    const group = this.groups.get(key);
    if (group) group.set(id, value);
    else this.groups.set(key, new Map([[id, value]]));
  }

  delete(key: K, id: string): void {
    const group = this.groups.get(key);
    if (!group) return;
    group.delete(id);
    if (group.size === 0) this.groups.delete(key);
  }

  get(key: K): ReadonlyMap<string, V> {
    return this.groups.get(key) ?? EMPTY;
  }
}
