import type { ActivityClient, ActivityEvent, ActivityKind } from '../../domain/index.js';
import { isoTime } from '../iso-time.js';

/** An event as its owner reads it: the share's or the request's id, and only the details its kind has. */
export interface ActivityView {
  id: string;
  at: string;
  shareId?: string;
  requestId?: string;
  kind: ActivityKind;
  fileId?: string;
  /** A decimal string, as every byte count. */
  bytes?: string;
  complete?: boolean;
  client: ActivityClient;
}

export function activityView(event: ActivityEvent): ActivityView {
  return {
    id: event.id,
    at: isoTime(event.at),
    ...(event.shareId !== null && { shareId: event.shareId }),
    ...(event.requestId !== null && { requestId: event.requestId }),
    kind: event.kind,
    ...(event.fileId !== null && { fileId: event.fileId }),
    ...(event.bytes !== null && { bytes: String(event.bytes) }),
    ...(event.complete !== null && { complete: event.complete }),
    client: { ...event.client },
  };
}
