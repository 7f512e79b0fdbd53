import { formatDate, formatSize } from '../common/format.js';
import { ActivityChart } from './activity-chart.js';
import { api, type ActivityEventView } from './api.js';
import { ErrorNote, Link, Section, usePageData } from './ui.js';

const KIND_WORDS: Record<ActivityEventView['kind'], string> = {
  view: 'viewed',
  download: 'downloaded',
  archive: 'downloaded as zip',
  password_refused: 'wrong password',
  gone: 'refused: gone',
  received: 'file received',
};

function who(client: ActivityEventView['client']): string {
  const parts = [client.address ?? 'address not kept', client.browser, client.os].filter(Boolean);
  return client.bot ? `${parts.join(', ')} (link preview)` : parts.join(', ');
}

function sent(event: ActivityEventView): string {
  if (event.bytes === undefined) return '';
  return event.complete === false ? `${formatSize(event.bytes)} (cut short)` : formatSize(event.bytes);
}

/** A table of events, newest first. */
export function ActivityTable({ events, showTarget }: { events: readonly ActivityEventView[]; showTarget: boolean }) {
  if (events.length === 0) return <p class="muted">Nothing has happened yet.</p>;
  // A narrow screen scrolls the table, not the page; focusable so a keyboard can scroll it too.
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="Activity">
      <table class="activity-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What</th>
            {showTarget && <th scope="col">Link</th>}
            <th scope="col">Who</th>
            <th scope="col">Sent</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td>{formatDate(event.at)}</td>
              <td>{KIND_WORDS[event.kind]}</td>
              {showTarget && (
                <td>
                  {event.shareId && <Link href={`/activity?share=${encodeURIComponent(event.shareId)}`}>share</Link>}
                  {event.requestId && <Link href={`/activity?request=${encodeURIComponent(event.requestId)}`}>request</Link>}
                </td>
              )}
              <td>{who(event.client)}</td>
              <td>{sent(event)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `/activity`: all of yours, or one share's (`?share=`) or one request's (`?request=`): a chart and a table. */
export function ActivityPage() {
  const query = new URLSearchParams(location.search);
  const target = { share: query.get('share') ?? undefined, request: query.get('request') ?? undefined };
  const { data: events, error } = usePageData('Activity', () => api.activity(target));
  const title = target.share ? 'Activity of a share' : target.request ? 'Activity of a file request' : 'Activity';
  return (
    <Section title={title}>
      {(target.share || target.request) && <Link href="/activity">All activity</Link>}
      <ErrorNote error={error} />
      {events && <ActivityChart events={events} />}
      {events && <ActivityTable events={events} showTarget={!target.share && !target.request} />}
    </Section>
  );
}

/** The newest few events of all your shares, for the Shares page. */
export function RecentActivity() {
  const { data: events, error } = usePageData('Shares', () => api.activity({}, 5));
  return (
    <Section title="Recent activity">
      <ErrorNote error={error} />
      {events && <ActivityTable events={events} showTarget />}
      <Link href="/activity">All activity</Link>
    </Section>
  );
}
