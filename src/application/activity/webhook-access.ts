import { WEBHOOK_EVENT_TYPES, assertMay, badRequest, type Actor, type WebhookEventType } from '../../domain/index.js';
import { owned } from '../owned.js';
import type { Ports, Webhook } from '../ports/index.js';

export interface WebhookInput {
  url?: string;
  events?: WebhookEventType[];
  shareIds?: string[] | null;
}

/** Webhooks are managed from a session only (assertMay refuses every API token). */
export function may(actor: Actor): void {
  assertMay(actor, 'webhook.manage');
}

export async function ownWebhook(p: Pick<Ports, 'webhooks'>, actor: Actor, id: string): Promise<Webhook> {
  may(actor);
  return owned(await p.webhooks.findById(id), actor.userId, 'Webhook');
}

export async function checked(p: Pick<Ports, 'webhookSender' | 'shares'>, actor: Actor, input: WebhookInput): Promise<WebhookInput> {
  if (input.url !== undefined) p.webhookSender.checkUrl(input.url);
  if (input.events !== undefined) {
    if (input.events.length === 0) throw badRequest('events: name at least one event', { field: 'events' });
    if (input.events.some((e) => !WEBHOOK_EVENT_TYPES.includes(e))) throw badRequest('events: unknown event', { field: 'events' });
  }
  for (const shareId of input.shareIds ?? []) {
    const share = await p.shares.findById(shareId);
    if (!share || share.ownerId !== actor.userId) throw badRequest(`shareIds: no share of yours has the id ${shareId}`, { field: 'shareIds' });
  }
  return { ...input, ...(input.events && { events: [...new Set(input.events)] }), ...(input.shareIds && { shareIds: [...new Set(input.shareIds)] }) };
}
