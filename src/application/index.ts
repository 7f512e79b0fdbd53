export * from './contract.js';
export { createCore } from './create-core.js';
export * from './ports/index.js';
export * from './views.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging/page-size.js';
export { OutboxWorker, OUTBOX_LEASE_MS, RETRY_FOR_MS, retryDelay } from './activity/outbox-worker.js';
export type { ActivityView } from './activity/activity-views.js';
export type { CreatedWebhookView, DeliveryView, WebhookView } from './activity/webhook-views.js';
