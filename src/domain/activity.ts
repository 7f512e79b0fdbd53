/**
 * What happens to a share or a file request, as its owner may read it: counted reads, refusals, received files.
 * An event belongs to exactly one share or one request, and to that one's owner.
 */
export const ACTIVITY_KINDS = ['view', 'download', 'archive', 'password_refused', 'gone', 'received'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** ACTIVITY_ADDRESSES: how much of a reader's address an event keeps. */
export const ACTIVITY_ADDRESS_MODES = ['truncated', 'full', 'none'] as const;
export type ActivityAddressMode = (typeof ACTIVITY_ADDRESS_MODES)[number];

export interface ActivityClient {
  /** As ACTIVITY_ADDRESSES says: an IPv4 /24 or IPv6 /48 network (`203.0.113.0/24`), the address, or null. */
  address: string | null;
  /** A family name (`Firefox`, `Chrome`, `curl`…), or null when the User-Agent names none we know. */
  browser: string | null;
  os: string | null;
  /** A link-preview bot: it counts nothing, and its event says so. */
  bot: boolean;
}

export interface ActivityEvent {
  id: string;
  at: Date;
  ownerId: string;
  shareId: string | null;
  requestId: string | null;
  kind: ActivityKind;
  fileId: string | null;
  /** What was actually sent (downloads, archives) or received (received files); null otherwise. */
  bytes: number | null;
  /** Whether the whole body went out; null where nothing is sent. */
  complete: boolean | null;
  client: ActivityClient;
  /** Set when this read used up the share's last view or download: it also tells `limit.reached`. */
  limitReached: 'views' | 'downloads' | null;
}

/** The reader as the HTTP adapter sees it; the core turns it into an ActivityClient. */
export interface ReaderInfo {
  /** The client's full address (behind trusted proxies, the one they vouch for); null when unknown. */
  ip: string | null;
  userAgent: string;
  bot: boolean;
}

export const WEBHOOK_EVENT_TYPES = [
  'share.viewed',
  'share.downloaded',
  'share.archive',
  'share.password_refused',
  'share.gone',
  'request.received',
  'limit.reached',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const SHARE_TYPES_OF: Record<Exclude<ActivityKind, 'received'>, WebhookEventType> = {
  view: 'share.viewed',
  download: 'share.downloaded',
  archive: 'share.archive',
  password_refused: 'share.password_refused',
  gone: 'share.gone',
};

/**
 * The webhook events one activity event makes. A request's refusals have no webhook type (the list names none);
 * a read that used up a share's maximum tells `limit.reached` as well.
 */
export function webhookTypesOf(event: Pick<ActivityEvent, 'kind' | 'shareId' | 'limitReached'>): WebhookEventType[] {
  if (event.kind === 'received') return ['request.received'];
  if (event.shareId === null) return [];
  const types: WebhookEventType[] = [SHARE_TYPES_OF[event.kind]];
  if (event.limitReached !== null) types.push('limit.reached');
  return types;
}
