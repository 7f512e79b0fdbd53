import 'reflect-metadata';
import { CryptoIdGenerator } from '../src/adapters/crypto/crypto-id-generator.js';
import { MemoryActivityRepository, MemoryDeliveryRepository, MemoryMailNotices, MemoryWebhookRepository } from '../src/adapters/memory/index.js';
import { OutboxWorker, type OutboxDeps } from '../src/application/activity/outbox-worker.js';
import type { ActivityEvent } from '../src/domain/index.js';

/** Events per measured round: the memory log's whole bound, so the last rounds also push the oldest out. */
export const EVENTS = 100_000;
/** Events one write adds: what a loop turn gathers under the bench's 50 connections. */
const PER_WRITE = 10;

export interface EventCost {
  /** µs per event: `add` into the memory activity log, in writes of PER_WRITE. */
  keepMicros: number;
  /** µs per event: the outbox taking, dispatching (no webhook listens) and marking them, a batch at a time. */
  dispatchMicros: number;
}

/**
 * What keeping and dispatching one view event costs a process without a database, measured in this process with the
 * memory adapters and the outbox worker as `npm start` wires them, without HTTP: the reads' own cost and the load
 * generator's noise stay out of it. Each of `rounds` rounds starts from an empty log; the best round counts.
 */
export async function eventCost(rounds: number): Promise<EventCost> {
  const ids = new CryptoIdGenerator();
  const micros = (from: bigint) => Number(process.hrtime.bigint() - from) / 1000 / EVENTS;
  let best: EventCost = { keepMicros: Infinity, dispatchMicros: Infinity };
  for (let round = 0; round < rounds; round++) {
    const log = new MemoryActivityRepository();
    const ports: OutboxDeps = {
      activityLog: log,
      webhooks: new MemoryWebhookRepository(),
      deliveries: new MemoryDeliveryRepository(),
      mailNotices: new MemoryMailNotices(),
      mailer: { available: false, send: () => Promise.reject(new Error('no mail in the bench')) },
      webhookSender: { send: () => Promise.reject(new Error('no webhook listens in the bench')), checkUrl: () => undefined },
      clock: { now: () => new Date() },
      instance: { id: () => 'bench', gone: () => Promise.resolve(new Set<string>()) },
    };
    const worker = new OutboxWorker(ports);
    const events = Array.from({ length: EVENTS }, (): ActivityEvent => viewEvent(ids.newId()));
    const keeping = process.hrtime.bigint();
    for (let i = 0; i < EVENTS; i += PER_WRITE) await log.add(events.slice(i, i + PER_WRITE));
    const keepMicros = micros(keeping);
    const dispatching = process.hrtime.bigint();
    while ((await worker.dispatchSome()) > 0);
    const dispatchMicros = micros(dispatching);
    if (keepMicros + dispatchMicros < best.keepMicros + best.dispatchMicros) best = { keepMicros, dispatchMicros };
  }
  return best;
}

const viewEvent = (id: string): ActivityEvent => ({
  id,
  at: new Date(),
  ownerId: 'bench-owner-0000000000',
  shareId: 'bench-share-0000000000',
  requestId: null,
  kind: 'view',
  fileId: null,
  bytes: null,
  complete: null,
  client: { address: '127.0.0.0/24', browser: null, os: null, bot: false },
  limitReached: null,
});
