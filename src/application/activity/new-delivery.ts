import type { Delivery } from '../ports/index.js';

export function newDelivery(row: Pick<Delivery, 'id' | 'webhookId' | 'ownerId' | 'type' | 'body'>, now: Date): Delivery {
  return {
    ...row,
    createdAt: now,
    attempts: 0,
    state: 'pending',
    nextAttemptAt: now,
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
    leaseHolder: null,
    leaseUntil: null,
  };
}
