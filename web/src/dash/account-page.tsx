import { useEffect, useState } from 'preact/hooks';
import { api, type MeView } from './api.js';
import { MailSection } from './mail-section.js';
import { SecuritySection } from './security-section.js';
import { SsoSection } from './sso-section.js';
import { ErrorNote, Section, useAction } from './ui.js';

export function AccountPage({ me }: { me: MeView }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState('');
  const [busy, error, run] = useAction();
  const [, signOutError, runSignOut] = useAction();
  useEffect(() => {
    document.title = 'Account · Coffer';
  }, []);

  const change = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.changePassword(current, next);
      setCurrent('');
      setNext('');
      setDone('Password changed. Your other sessions were signed out.');
    });
  };
  const everywhere = () =>
    runSignOut(async () => {
      await api.signOutEverywhere();
      location.assign('/');
    });

  return (
    <>
      <Section title={`Account: ${me.username}`}>
        {!me.hasPassword && (
          <p class="note">
            You sign in with single sign-on: your account has no Coffer password. An admin can set one for you, which
            you can then change here.
          </p>
        )}
        {me.hasPassword && (
          <form class="stack" onSubmit={change}>
            <h3>Change password</h3>
            <label>
              Current password
              <input type="password" autocomplete="current-password" required value={current}
                onInput={(e) => setCurrent(e.currentTarget.value)} />
            </label>
            <label>
              New password (8 to 256 characters)
              <input type="password" autocomplete="new-password" required minLength={8} maxLength={256} value={next}
                onInput={(e) => setNext(e.currentTarget.value)} />
            </label>
            <button type="submit" class="primary" disabled={busy}>
              Change password
            </button>
            <p role="status">{done}</p>
          </form>
        )}
        <ErrorNote error={error} situation="password-change" />
      </Section>
      <SsoSection me={me} />
      {/* Coffer's second factors guard password sign-ins only; without a password, they would guard nothing. */}
      {me.hasPassword && <SecuritySection initial={me.mfa} />}
      <MailSection />
      <Section title="Sessions">
        <p>Signs out every browser and client that signed in with your password (API tokens stay).</p>
        <button type="button" onClick={() => void everywhere()}>
          Sign out everywhere
        </button>
        <ErrorNote error={signOutError} />
      </Section>
    </>
  );
}
