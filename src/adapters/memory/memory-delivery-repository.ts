import { injectable } from 'inversify';
import type { Delivery, DeliveryRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

const keyOf = (row: { webhookId: string; id: string }) => `${row.webhookId}\u0000${row.id}`;

/** The outbox in insertion order; each take checks and writes in one synchronous step, as findOneAndUpdate does. */
@injectable()
export class MemoryDeliveryRepository implements DeliveryRepository {
  private readonly rows = new Map<string, Delivery>();

  async enqueue(rows: readonly Delivery[]): Promise<void> {
    for (const row of rows) if (!this.rows.has(keyOf(row))) this.rows.set(keyOf(row), clone(row));
  }

  async takeDue(holder: string, now: Date, until: Date): Promise<Delivery | null> {
    let due: Delivery | null = null;
    for (const row of this.rows.values()) {
      if (row.state !== 'pending' || row.nextAttemptAt.getTime() > now.getTime()) continue;
      if (row.leaseUntil !== null && row.leaseUntil.getTime() > now.getTime()) continue;
      if (due === null || row.nextAttemptAt.getTime() < due.nextAttemptAt.getTime()) due = row;
    }
    if (due === null) return null;
    due.leaseHolder = holder;
    due.leaseUntil = new Date(until);
    return clone(due);
  }

  async settle(key: { webhookId: string; id: string }, holder: string, outcome: Parameters<DeliveryRepository['settle']>[2]): Promise<boolean> {
    const row = this.rows.get(keyOf(key));
    if (!row || row.leaseHolder !== holder) return false;
    Object.assign(row, clone(outcome), { leaseHolder: null, leaseUntil: null });
    return true;
  }

  async listByWebhook(webhookId: string, limit: number): Promise<Delivery[]> {
    return [...this.rows.values()]
      .filter((row) => row.webhookId === webhookId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map(clone);
  }

  async removeByWebhook(webhookId: string): Promise<void> {
    for (const [key, row] of this.rows) if (row.webhookId === webhookId) this.rows.delete(key);
  }

  async sweep(before: Date): Promise<number> {
    let removed = 0;
    for (const [key, row] of this.rows) {
      if (row.createdAt.getTime() < before.getTime()) {
        this.rows.delete(key);
        removed++;
      }
    }
    return removed;
  }
}
