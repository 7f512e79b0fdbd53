import type { ActivityEventView } from './api.js';

const DAYS = 14;
const DAY_MS = 86_400_000;
const [WIDTH, HEIGHT, GAP] = [420, 90, 4];

/** The last DAYS days (UTC), oldest first, with the views and downloads of each. */
export function perDay(events: readonly ActivityEventView[], now = Date.now()): { day: string; views: number; downloads: number }[] {
  const today = Math.floor(now / DAY_MS);
  const days = Array.from({ length: DAYS }, (_, i) => ({ day: new Date((today - DAYS + 1 + i) * DAY_MS).toISOString().slice(0, 10), views: 0, downloads: 0 }));
  for (const event of events) {
    const index = Math.floor(Date.parse(event.at) / DAY_MS) - (today - DAYS + 1);
    const day = days[index];
    if (!day || event.client.bot) continue;
    if (event.kind === 'view') day.views++;
    else if (event.kind === 'download' || event.kind === 'archive') day.downloads++;
  }
  return days;
}

/**
 * Views and downloads per day as bars, drawn with SVG elements and attributes only: nothing inline for the strict
 * CSP to refuse, and the numbers are in the table beside it (and in each bar's title) for those who do not see it.
 */
export function ActivityChart({ events }: { events: readonly ActivityEventView[] }) {
  const days = perDay(events);
  const most = Math.max(1, ...days.map((d) => Math.max(d.views, d.downloads)));
  const slot = WIDTH / days.length;
  const bar = (slot - GAP) / 2;
  const height = (n: number) => Math.round((n / most) * (HEIGHT - 14));
  return (
    <figure class="activity-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" height={HEIGHT} role="img" aria-label={`Views and downloads per day, the last ${DAYS} days`}>
        {days.map((d, i) => (
          <g key={d.day}>
            <rect class="bar-views" x={i * slot} y={HEIGHT - height(d.views)} width={bar} height={height(d.views)}>
              <title>{`${d.day}: ${d.views} views`}</title>
            </rect>
            <rect class="bar-downloads" x={i * slot + bar} y={HEIGHT - height(d.downloads)} width={bar} height={height(d.downloads)}>
              <title>{`${d.day}: ${d.downloads} downloads`}</title>
            </rect>
          </g>
        ))}
      </svg>
      <figcaption class="muted">
        <span class="key key-views">views</span> <span class="key key-downloads">downloads</span> per day, the last {DAYS} days
      </figcaption>
    </figure>
  );
}
