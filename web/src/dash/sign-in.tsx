import { useEffect, useState } from 'preact/hooks';
import { api, type MeView, type ProvidersView } from './api.js';
import { takeSsoError } from './sso-address.js';
import { ssoSentence, ssoStartUrl } from './sso-words.js';
import { ErrorNote, useAction } from './ui.js';

/** Single sign-on's button, or why it cannot be used right now. A plain link: the browser leaves for the provider. */
function SsoButton({ oidc }: { oidc: NonNullable<ProvidersView['oidc']> }) {
  const label = `Sign in with ${oidc.label}`;
  if (!oidc.available) {
    return (
      <>
        <button type="button" disabled>
          {label}
        </button>
        <p class="note">Single sign-on is unavailable right now: the provider cannot be reached. Try again in a moment.</p>
      </>
    );
  }
  return (
    <a class="button primary" href={ssoStartUrl(location.pathname + location.search)}>
      {label}
    </a>
  );
}

/**
 * Sign-in, and sign-up when the server allows it (REGISTRATION=open): the password form unless PASSWORD_LOGIN is
 * disabled, and single sign-on's button when it is set up; a single sign-on that came back unfinished says why.
 */
export function SignIn({ registration, onSignedIn }: { registration: boolean; onSignedIn: (me: MeView) => void }) {
  const [ssoError] = useState(takeSsoError);
  const [providers, setProviders] = useState<ProvidersView | null>(null);
  useEffect(() => {
    // Without an answer, the password form stays: it is what every server offers unless told otherwise.
    api.providers().then(setProviders, () => undefined);
  }, []);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [register, setRegister] = useState(false);
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, error, run] = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const answer = await api.signIn(username, password, register);
      // The password was right and a second factor is due: ask for a code (no session yet).
      if ('mfaRequired' in answer) setMfaToken(answer.mfaToken);
      else onSignedIn(answer);
    });
  };

  const submitCode = (event: Event) => {
    event.preventDefault();
    if (mfaToken !== null) void run(async () => onSignedIn(await api.signInMfa(mfaToken, code)));
  };

  if (mfaToken !== null) {
    return (
      <main id="main" class="page narrow">
        <form class="card stack" onSubmit={submitCode} aria-labelledby="mfa-title">
          <h1 id="mfa-title">Two-factor sign-in</h1>
          <label>
            Code from your authenticator app, or a recovery code
            <input
              name="code"
              autocomplete="one-time-code"
              required
              autoFocus
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
          <ErrorNote error={error} situation="mfa-code" />
          <div class="row">
            <button type="submit" class="primary" disabled={busy}>
              Verify
            </button>
            <button type="button" class="link-button" onClick={() => (setMfaToken(null), setCode(''))}>
              Start over
            </button>
          </div>
        </form>
      </main>
    );
  }

  const oidc = register ? null : (providers?.oidc ?? null);
  const passwordForm = providers?.password ?? true;
  // A value, not a component: a component made in here would be a new one at each render, losing the focus.
  const fields = (
    <>
      <label>
        Username
        <input
          name="username"
          autocomplete="username"
          required
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autocomplete={register ? 'new-password' : 'current-password'}
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <ErrorNote error={error} situation={register ? 'register' : 'sign-in'} />
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {register ? 'Create account' : 'Sign in'}
        </button>
        {registration && (
          <button type="button" class="link-button" onClick={() => setRegister(!register)}>
            {register ? 'I have an account' : 'Create an account'}
          </button>
        )}
      </div>
    </>
  );
  return (
    <main id="main" class="page narrow">
      <form class="card stack" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{register ? 'Create an account' : 'Sign in to Coffer'}</h1>
        {ssoError !== null && (
          <p class="problem" role="alert">
            {ssoSentence(ssoError)}
          </p>
        )}
        {oidc && <SsoButton oidc={oidc} />}
        {oidc && passwordForm && <p class="muted or-line">or with your Coffer password</p>}
        {passwordForm && fields}
      </form>
    </main>
  );
}
