import { injectable } from 'inversify';
import type { Share, ShareCounter, ShareType } from '../../domain/index.js';
import { isShareActive } from '../../domain/index.js';
import type { OpenUse, ShareChanges, ShareRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { Groups } from './groups.js';
import { compareCreated } from './order.js';

@injectable()
export class MemoryShareRepository implements ShareRepository {
  private readonly rows = new Map<string, Share>();
  /** itemKey → share id: the unique index that allows one share per item. */
  private readonly byItem = new Map<string, string>();
  private readonly byOwner = new Groups<string, Share>();
  /** Share id → the deletion that claimed it: a claimed share is gone for every read but its claimer's. */
  private readonly claims = new Map<string, string>();

  /** The share when it exists and no deletion claimed it. */
  private open(id: string | undefined): Share | null {
    if (id === undefined || this.claims.has(id)) return null;
    return this.rows.get(id) ?? null;
  }

  async insert(share: Share): Promise<boolean> {
    const key = itemKey(share.type, share.itemId);
    if (this.rows.has(share.id) || this.byItem.has(key)) return false;
    const stored = clone(share);
    this.rows.set(stored.id, stored);
    this.byItem.set(key, stored.id);
    this.byOwner.set(stored.ownerId, stored.id, stored);
    return true;
  }

  async findById(id: string): Promise<Share | null> {
    const share = this.open(id);
    return share ? clone(share) : null;
  }

  async ownerOf(id: string): Promise<string | null> {
    return this.rows.get(id)?.ownerId ?? null;
  }

  async findByItem(type: ShareType, itemId: string): Promise<Share | null> {
    const share = this.open(this.byItem.get(itemKey(type, itemId)));
    return share ? clone(share) : null;
  }

  async idsForItems(type: ShareType, itemIds: readonly string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const itemId of itemIds) {
      const share = this.open(this.byItem.get(itemKey(type, itemId)));
      if (share) ids.set(itemId, share.id);
    }
    return ids;
  }

  async listByOwner(ownerId: string): Promise<Share[]> {
    return [...this.byOwner.get(ownerId).values()]
      .filter((share) => !this.claims.has(share.id))
      .sort(compareCreated)
      .map(clone);
  }

  /** No await between the check and the increment: nothing interleaves with them, as in MongoDB's one update. */
  async countUse(id: string, counter: ShareCounter | readonly ShareCounter[], now: Date): Promise<Share | null> {
    const share = this.open(id);
    if (!share || !isShareActive(share, now)) return null;
    for (const name of typeof counter === 'string' ? [counter] : counter) share[name] += 1;
    return clone(share);
  }

  async countOpenUse(id: string, { counter, now, readerId, types }: OpenUse): Promise<Share | null> {
    const share = this.open(id);
    if (!share || share.passwordHash !== null || share.ownerId === readerId || !types.includes(share.type)) {
      return null;
    }
    return this.countUse(id, counter, now);
  }

  async uncountUse(id: string, counter: ShareCounter | readonly ShareCounter[]): Promise<void> {
    const share = this.open(id);
    const counters = typeof counter === 'string' ? [counter] : counter;
    if (!share || counters.some((name) => share[name] < 1)) return;
    for (const name of counters) share[name] -= 1;
  }

  async update(id: string, changes: ShareChanges): Promise<Share | null> {
    const share = this.open(id);
    if (!share) return null;
    for (const [field, value] of Object.entries(clone(changes))) {
      if (value !== undefined) Object.assign(share, { [field]: value });
    }
    return clone(share);
  }

  async delete(id: string): Promise<Share | null> {
    return this.open(id) ? this.remove(id) : null;
  }

  /** No await inside: the whole batch is one step that nothing interleaves with, as MongoDB's one updateMany. */
  async claimByItems(type: ShareType, itemIds: readonly string[], claim: string): Promise<Share[]> {
    const held: Share[] = [];
    for (const itemId of new Set(itemIds)) {
      const id = this.byItem.get(itemKey(type, itemId));
      if (id === undefined) continue;
      if (!this.claims.has(id)) this.claims.set(id, claim);
      if (this.claims.get(id) === claim) held.push(clone(this.rows.get(id)!));
    }
    return held;
  }

  async claim(id: string, claim: string): Promise<Share | null> {
    const share = this.rows.get(id);
    if (!share) return null;
    if (!this.claims.has(id)) this.claims.set(id, claim);
    return this.claims.get(id) === claim ? clone(share) : null;
  }

  async claimedBy(claim: string): Promise<Share[]> {
    return [...this.claims].filter(([, by]) => by === claim).map(([id]) => clone(this.rows.get(id)!));
  }

  async deleteClaimed(claim: string): Promise<Share[]> {
    const deleted: Share[] = [];
    for (const [id, by] of [...this.claims]) {
      const share = by === claim ? this.remove(id) : null;
      if (share) deleted.push(share);
    }
    return deleted;
  }

  async deleteByOwner(ownerId: string): Promise<string[]> {
    const ids = [...this.byOwner.get(ownerId).keys()];
    for (const id of ids) this.remove(id);
    return ids;
  }

  private remove(id: string): Share | null {
    const share = this.rows.get(id);
    if (!share) return null;
    this.claims.delete(id);
    this.rows.delete(id);
    this.byItem.delete(itemKey(share.type, share.itemId));
    this.byOwner.delete(share.ownerId, id);
    return share;
  }
}

/** Share types hold no colon, so the first colon separates type from item id. */
function itemKey(type: ShareType, itemId: string): string {
  return `${type}:${itemId}`;
}
