import type { ActivityEvent } from '../../domain/index.js';
import type { NoticeKey, Ports } from '../ports/index.js';
import { isoTime } from '../iso-time.js';

/** At most one mail per share or request in this long; it sums up everything since the last. */
export const MAIL_GAP_MS = 10 * 60 * 1000;
const LEASE_MS = 60_000;
/** The most events one mail lists; a longer summing up names how many more there were. */
const LISTED = 50;

/** What a mail tells of: a share's downloads (and zips), a request's received files. */
export function noticeKeyOf(event: Pick<ActivityEvent, 'kind' | 'shareId' | 'requestId'>): NoticeKey | null {
  if (event.shareId !== null && (event.kind === 'download' || event.kind === 'archive')) return `share:${event.shareId}`;
  if (event.requestId !== null && event.kind === 'received') return `request:${event.requestId}`;
  return null;
}

function line(event: ActivityEvent): string {
  const who = [event.client.address, event.client.browser, event.client.os].filter(Boolean).join(', ') || 'someone';
  const what = event.kind === 'received' ? 'a file arrived' : event.kind === 'archive' ? 'downloaded as a zip' : 'downloaded';
  const cut = event.complete === false ? ' (not to the end)' : '';
  return `- ${isoTime(event.at)}: ${what}${event.bytes !== null ? `, ${event.bytes} bytes` : ''}${cut}, from ${who}`;
}

/**
 * One mail, if one is due: a share or request with something new whose last mail is at least 10 minutes old, taken
 * under a lease. It sums up the events since the last mail (or since notices were turned on). A failure leaves the
 * record pending; the lease running out lets the next turn try again. Without an address, nothing is sent and the
 * record is settled.
 */
export async function mailOne(p: Pick<Ports, 'mailNotices' | 'mailer' | 'activityLog' | 'mailNotices' | 'clock' | 'instance'>): Promise<boolean> {
  const now = p.clock.now();
  const holder = p.instance.id();
  const notice = await p.mailNotices.takeDue(holder, now, new Date(now.getTime() + LEASE_MS), MAIL_GAP_MS);
  if (!notice) return false;
  const [kind, id] = notice.key.split(':') as ['share' | 'request', string];
  const to = await p.mailNotices.address(notice.ownerId);
  const since = notice.lastSentAt ?? notice.from;
  const target = kind === 'share' ? { shareId: id } : { requestId: id };
  const covered = notice.covered;
  const told = (e: ActivityEvent) => covered !== null && (e.at.getTime() < covered.at.getTime() || (e.at.getTime() === covered.at.getTime() && covered.ids.includes(e.id)));
  const events = (await p.activityLog.since(target, covered?.at ?? since, 1000)).filter((e) => noticeKeyOf(e) === notice.key && !told(e));
  if (to !== null && events.length > 0) {
    const noun = kind === 'share' ? (events.length === 1 ? 'download' : 'downloads') : events.length === 1 ? 'file received' : 'files received';
    const subject = `Coffer: ${events.length} ${noun} (${kind} ${id})`;
    const more = events.length > LISTED ? [`…and ${events.length - LISTED} more.`] : [];
    const text = [
      `Since ${isoTime(since)}, your ${kind === 'share' ? 'share' : 'file request'} ${id}:`,
      '',
      ...events.slice(0, LISTED).map(line),
      ...more,
      '',
      'At most one such mail comes every 10 minutes; turn them off on the link in the dashboard.',
    ].join('\n');
    try {
      await p.mailer.send({ to, subject, text });
    } catch {
      return true;
    }
  }
  const newest = events.at(-1);
  const next = newest ? { at: newest.at, ids: events.filter((e) => e.at.getTime() === newest.at.getTime()).map((e) => e.id) } : covered;
  // Events of the newest millisecond told before stay told.
  const kept = next && covered && next.at.getTime() === covered.at.getTime() ? { at: next.at, ids: [...new Set([...covered.ids, ...next.ids])] } : next;
  await p.mailNotices.sent(notice.key, holder, now, kept);
  return true;
}
