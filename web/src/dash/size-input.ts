/**
 * Sizes as a person types them, "5" with a unit chosen beside it or "5 MB" in one go, turned into bytes exactly
 * (decimal units, as formatSize shows them: 1 kB = 1000 bytes), and back.
 */
export const SIZE_UNITS = [
  { unit: 'kB', exponent: 3 },
  { unit: 'MB', exponent: 6 },
  { unit: 'GB', exponent: 9 },
  { unit: 'TB', exponent: 12 },
] as const;

export type SizeUnit = (typeof SIZE_UNITS)[number]['unit'];

const EXPONENT: Record<string, number> = { b: 0, byte: 0, bytes: 0, kb: 3, mb: 6, gb: 9, tb: 12 };

/** The decimal separator of the reader's locale, accepted besides ".". */
const LOCAL_POINT = new Intl.NumberFormat().formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';

export type SizeReading = { bytes: number; unit: SizeUnit | null } | { problem: string };

/**
 * The bytes of "5", "2.5", "5 MB", "5mb", "1,5 GB" (where "," is the locale's decimal point), with `unit` applying
 * when the text names none. Exact: decimal digits are shifted, never multiplied as floating point. A part of a byte
 * is rounded to the nearest byte. Where the locale's decimal point is "," (so "." groups thousands), "1.500" could be
 * either 1.5 or 1500: it is refused with a sentence rather than guessed.
 */
export function readSize(text: string, unit: SizeUnit, localPoint: string = LOCAL_POINT): SizeReading {
  const match = /^\s*(\d+)(?:[.,](\d+))?\s*([a-z]+)?\s*$/i.exec(text);
  const separator = /\d([.,])\d/.exec(text)?.[1];
  if (!match || (separator !== undefined && separator !== '.' && separator !== localPoint)) {
    return { problem: `Type the size as a number, such as 5 or 2${localPoint}5, without spaces or thousands separators.` };
  }
  if (separator === '.' && localPoint !== '.' && match[2]?.length === 3) {
    const [, whole, fraction] = match;
    const decimal = fraction.replace(/0+$/, '');
    const small = decimal === '' ? whole : `${whole}${localPoint}${decimal}`;
    return { problem: `“${whole}.${fraction}” could mean ${small} or ${whole}${fraction}: type ${whole}${fraction} or ${small}.` };
  }
  const [, whole = '0', fraction = '', named] = match;
  const exponent = named === undefined ? exponentOf(unit) : EXPONENT[named.toLowerCase()];
  if (exponent === undefined) return { problem: `Use one of the units B, kB, MB, GB or TB (“${named}” is not one).` };
  const digits = BigInt(whole + fraction.padEnd(exponent, '0').slice(0, exponent));
  const roundUp = Number(fraction.charAt(exponent) || '0') >= 5 ? 1n : 0n;
  const bytes = digits + roundUp;
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) return { problem: 'That size is too large.' };
  const typed = SIZE_UNITS.find((u) => u.exponent === exponent)?.unit ?? null;
  return { bytes: Number(bytes), unit: named === undefined ? null : typed };
}

const exponentOf = (unit: SizeUnit) => SIZE_UNITS.find((u) => u.unit === unit)?.exponent ?? 0;

/** A byte count as a number in the largest unit it holds at least one of (kB at the least), exactly: 1234567 → "1.234567" MB. */
export function inUnits(bytes: number): { value: string; unit: SizeUnit } {
  const digits = String(Math.max(0, Math.floor(bytes)));
  const chosen = [...SIZE_UNITS].reverse().find((u) => digits.length > u.exponent) ?? SIZE_UNITS[0];
  const padded = digits.padStart(chosen.exponent + 1, '0');
  const whole = padded.slice(0, padded.length - chosen.exponent);
  const fraction = padded.slice(padded.length - chosen.exponent).replace(/0+$/, '');
  return { value: fraction ? `${whole}.${fraction}` : whole, unit: chosen.unit };
}
