const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from here on toISOString writes a six-digit year with a sign. */
const YEAR_10000 = 253_402_300_800_000;

/**
 * `date.toISOString()`, about five times faster for the years 1970–9999 (the dates Coffer stores); any other
 * date, or an invalid one, goes to toISOString itself. A subtree read formats two dates for each of up to
 * 20,000 entries, and V8's own formatter spends about a microsecond on each.
 * The civil date comes from the day count by Howard Hinnant's days-from-civil inverse.
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= 0 && ms < YEAR_10000)) return date.toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const milliText = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : String(millis);
  const d2 = TWO_DIGITS;
  return `${year}-${d2[month]}-${d2[day]}T${d2[hours]}:${d2[minutes]}:${d2[seconds]}.${milliText}Z`;
}
