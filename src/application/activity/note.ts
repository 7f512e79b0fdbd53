import type { ActivityKind, ReaderInfo, Share } from '../../domain/index.js';
import { describeAgent, keptAddress } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

export type NoteDeps = Pick<Ports, 'activity' | 'ids' | 'clock' | 'settings'>;

export interface NoteTarget {
  ownerId: string;
  shareId?: string;
  requestId?: string;
}

export interface NoteDetails {
  fileId?: string | null;
  bytes?: number | null;
  complete?: boolean | null;
  limitReached?: 'views' | 'downloads' | null;
}

/**
 * Records one event without waiting (ActivityRecorder): the read it describes is answered whatever becomes of the
 * write. A reader the HTTP adapter did not describe (a call of the core from elsewhere) has no client details.
 */
export function note(p: NoteDeps, target: NoteTarget, kind: ActivityKind, reader: ReaderInfo | undefined, details: NoteDetails = {}): void {
  const agent = describeAgent(reader?.userAgent ?? '');
  p.activity.record({
    id: p.ids.newId(),
    at: p.clock.now(),
    ownerId: target.ownerId,
    shareId: target.shareId ?? null,
    requestId: target.requestId ?? null,
    kind,
    fileId: details.fileId ?? null,
    bytes: details.bytes ?? null,
    complete: details.complete ?? null,
    client: {
      address: keptAddress(reader?.ip ?? null, p.settings.activityAddresses),
      browser: agent.browser,
      os: agent.os,
      bot: reader?.bot ?? false,
    },
    limitReached: details.limitReached ?? null,
  });
}

export const shareTarget = (share: Pick<Share, 'id' | 'ownerId'>): NoteTarget => ({ ownerId: share.ownerId, shareId: share.id });

/**
 * The maximum this counted read used up, if it was the last one allowed: counts move one atomic step at a time, so
 * exactly one read sees a counter land on its maximum.
 */
export function limitReachedBy(counted: Share, counters: readonly ('views' | 'downloads')[]): 'views' | 'downloads' | null {
  if (counters.includes('downloads') && counted.maxDownloads !== null && counted.downloads === counted.maxDownloads) return 'downloads';
  if (counters.includes('views') && counted.maxViews !== null && counted.views === counted.maxViews) return 'views';
  return null;
}
