import { useState } from 'preact/hooks';
import type { ShareOptions } from './api.js';

export interface ShareFormValues {
  password: string;
  expiresAt: string;
  maxViews: string;
  maxDownloads: string;
}

const count = (text: string) => (text.trim() === '' ? null : Number(text));

/** The form's text as the API's options: empty means none; a local date and time becomes an instant. */
export function shareOptions(values: ShareFormValues, keepPassword: boolean): ShareOptions {
  const options: ShareOptions = {
    expiresAt: values.expiresAt ? new Date(values.expiresAt).toISOString() : null,
    maxViews: count(values.maxViews),
    maxDownloads: count(values.maxDownloads),
  };
  if (!keepPassword || values.password !== '') options.password = values.password === '' ? null : values.password;
  return options;
}

/** Password, expiry, max views and max downloads: the same fields to create a share and to edit one. */
export function ShareForm({
  submitLabel,
  initial,
  editing,
  onSubmit,
}: {
  submitLabel: string;
  initial?: Partial<ShareFormValues>;
  editing: boolean;
  onSubmit: (values: ShareFormValues) => void;
}) {
  const [values, setValues] = useState<ShareFormValues>({
    password: '',
    expiresAt: '',
    maxViews: '',
    maxDownloads: '',
    ...initial,
  });
  const field = (name: keyof ShareFormValues) => ({
    value: values[name],
    onInput: (e: { currentTarget: HTMLInputElement }) => setValues({ ...values, [name]: e.currentTarget.value }),
  });
  return (
    <form
      class="share-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(values);
      }}
    >
      <label>
        Password {editing ? '(empty keeps the current one)' : '(optional)'}
        <input type="password" autocomplete="new-password" {...field('password')} />
      </label>
      <label>
        Expires
        <input type="datetime-local" {...field('expiresAt')} />
      </label>
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
    </form>
  );
}
