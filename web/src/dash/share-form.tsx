import { useState } from 'preact/hooks';
import { formatDate } from '../common/format.js';
import type { ShareOptions } from './api.js';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** When a link stops working: never, a while from now, a date and time of the reader's choosing, or as it is. */
export type ExpiryChoice = 'keep' | 'never' | '1h' | '1d' | '7d' | '30d' | 'date';

const SPANS: Partial<Record<ExpiryChoice, [string, number]>> = {
  '1h': ['In 1 hour', HOUR_MS],
  '1d': ['In 1 day', DAY_MS],
  '7d': ['In 7 days', 7 * DAY_MS],
  '30d': ['In 30 days', 30 * DAY_MS],
};

export interface ShareFormValues {
  password: string;
  expiry: ExpiryChoice;
  /** The text of a local date-time input ("2027-01-15T12:00"), read only when `expiry` is "date". */
  expiresAt: string;
  maxViews: string;
  maxDownloads: string;
}

const count = (text: string) => (text.trim() === '' ? null : Number(text));

/** Why the chosen expiry cannot be sent, in a sentence; null when it can. Checked before anything is sent. */
export function expiryProblem(values: ShareFormValues, now = Date.now()): string | null {
  if (values.expiry !== 'date') return null;
  const at = new Date(values.expiresAt);
  if (values.expiresAt === '' || Number.isNaN(at.getTime())) {
    return 'Choose the date and time when the link expires, or pick another expiry.';
  }
  if (at.getTime() <= now) {
    return `${formatDate(at.toISOString())} has passed already. Choose a date and time in the future, or pick another expiry.`;
  }
  return null;
}

/** The form's values as the API's options: empty means none; a span starts now; a local date and time becomes an instant. */
export function shareOptions(values: ShareFormValues, keepPassword: boolean, now = Date.now()): ShareOptions {
  const span = SPANS[values.expiry]?.[1];
  const options: ShareOptions = {
    maxViews: count(values.maxViews),
    maxDownloads: count(values.maxDownloads),
  };
  if (values.expiry === 'never') options.expiresAt = null;
  else if (span !== undefined) options.expiresAt = new Date(now + span).toISOString();
  else if (values.expiry === 'date') options.expiresAt = new Date(values.expiresAt).toISOString();
  if (!keepPassword || values.password !== '') options.password = values.password === '' ? null : values.password;
  return options;
}

/** Password, expiry, max views and max downloads: the same fields to create a share and to edit one. */
export function ShareForm({
  submitLabel,
  initial,
  editing,
  currentExpiry = null,
  onSubmit,
}: {
  submitLabel: string;
  initial?: Partial<ShareFormValues>;
  editing: boolean;
  /** The share's expiry as it stands (editing): offered as "unchanged". */
  currentExpiry?: string | null;
  onSubmit: (values: ShareFormValues) => void;
}) {
  const [values, setValues] = useState<ShareFormValues>({
    password: '',
    expiry: currentExpiry ? 'keep' : 'never',
    expiresAt: '',
    maxViews: '',
    maxDownloads: '',
    ...initial,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const field = (name: 'password' | 'expiresAt' | 'maxViews' | 'maxDownloads') => ({
    value: values[name],
    onInput: (e: { currentTarget: HTMLInputElement }) => setValues({ ...values, [name]: e.currentTarget.value }),
  });
  const submit = (event: Event) => {
    event.preventDefault();
    const found = expiryProblem(values);
    setProblem(found);
    if (found === null) onSubmit(values);
  };
  return (
    <form class="share-form" onSubmit={submit}>
      <label>
        Password {editing ? '(empty keeps the current one)' : '(optional)'}
        <input type="password" autocomplete="new-password" {...field('password')} />
      </label>
      <label>
        Expires
        <select value={values.expiry} onChange={(e) => setValues({ ...values, expiry: e.currentTarget.value as ExpiryChoice })}>
          {currentExpiry && <option value="keep">Unchanged: {formatDate(currentExpiry)}</option>}
          <option value="never">Never</option>
          {Object.entries(SPANS).map(([value, [label]]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
          <option value="date">On a date and time…</option>
        </select>
      </label>
      {values.expiry === 'date' && (
        <label>
          Expiry date and time
          <input type="datetime-local" aria-invalid={problem !== null} {...field('expiresAt')} />
        </label>
      )}
      <label>
        Max views
        <input type="number" min={1} inputMode="numeric" {...field('maxViews')} />
      </label>
      <label>
        Max downloads
        <input type="number" min={1} inputMode="numeric" {...field('maxDownloads')} />
      </label>
      <button type="submit" class="primary">
        {submitLabel}
      </button>
      {problem && (
        <p class="problem share-form-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
