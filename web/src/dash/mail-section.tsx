import { useState } from 'preact/hooks';
import { api } from './api.js';
import { ErrorNote, Section, useAction, usePageData } from './ui.js';

/** Account: where mail notices go; says when this server sends no mail at all. */
export function MailSection() {
  const { data: me } = usePageData('Account', api.me);
  const [email, setEmail] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const [busy, error, run] = useAction();
  const value = email ?? me?.email ?? '';
  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const saved = await api.setEmail(value.trim() === '' ? null : value.trim());
      setEmail(saved.email ?? '');
      setDone(saved.email ? `Mail notices go to ${saved.email}.` : 'No mail notices will be sent.');
    });
  };
  return (
    <Section title="Mail notices">
      {me && !me.mail && <p class="muted">This server sends no mail (SMTP_URL and MAIL_FROM are not set).</p>}
      <form class="row" onSubmit={save}>
        <label>
          Email address
          <input type="email" value={value} maxLength={254} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Save
        </button>
      </form>
      <p class="hint">Turn on “Email me” on a share or a file request; at most one mail every 10 minutes each.</p>
      <p class="hint" role="status">
        {done}
      </p>
      <ErrorNote error={error} />
    </Section>
  );
}
