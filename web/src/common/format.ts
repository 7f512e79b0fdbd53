const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** Decimal units (1 kB = 1000 bytes), as the unit names say; sizes arrive from the API as decimal strings. */
export function formatSize(size: string): string {
  let value = Number(size);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(undefined, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** What the units mean, for a hint beside sizes a person types or compares (decimal units, as formatSize). */
export const SIZE_UNITS_NOTE = `1 MB = ${new Intl.NumberFormat().format(1_000_000)} bytes`;

export const formatCount = (count: number, one: string, many: string) =>
  `${new Intl.NumberFormat().format(count)} ${count === 1 ? one : many}`;

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

const count = (n: number, one: string, many: string) => formatCount(n, one, many);

/**
 * A wait as people say it: "45 seconds", "30 minutes", "2 hours and 5 minutes". Rounded up, so nobody who waits as
 * long as they were told is refused again. English words, like every other sentence of the pages.
 */
export function formatWait(seconds: number): string {
  const total = Math.max(1, Math.ceil(seconds));
  if (total < 60) return count(total, 'second', 'seconds');
  const minutes = Math.ceil(total / 60);
  if (minutes < 60) return count(minutes, 'minute', 'minutes');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? count(hours, 'hour', 'hours') : `${count(hours, 'hour', 'hours')} and ${count(rest, 'minute', 'minutes')}`;
}
