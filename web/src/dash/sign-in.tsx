import { useEffect, useState } from 'preact/hooks';
import { api, type MeView, type MfaRequiredView, type ProvidersView } from './api.js';
import type { Situation } from './error-words.js';
import { answerWithPasskey, openedAtIpAddress, passkeysAvailable } from './passkey-ceremony.js';
import { takeSsoError } from './sso-address.js';
import { ssoSentence, ssoStartUrl } from './sso-words.js';
import { ErrorNote, useAction } from './ui.js';

/** What a right password answers when a second factor is due: the mfaToken and the methods the account takes. */
type SecondStep = Omit<MfaRequiredView, 'mfaRequired'>;

/** The second step of a sign-in: a code, a passkey, or either, as the account allows (no session yet). */
function SecondStepForm({ step, onSignedIn, onStartOver }: { step: SecondStep; onSignedIn: (me: MeView) => void; onStartOver: () => void }) {
  const [code, setCode] = useState('');
  const [situation, setSituation] = useState<Situation>('mfa-code');
  const [busy, error, run] = useAction();
  const byCode = step.methods.some((method) => method !== 'passkey');
  const byPasskey = step.methods.includes('passkey');
  const canPasskey = byPasskey && passkeysAvailable();

  const submitCode = (event: Event) => {
    event.preventDefault();
    setSituation('mfa-code');
    void run(async () => onSignedIn(await api.signInMfa(step.mfaToken, code)));
  };
  const withPasskey = () => {
    setSituation('passkey-second-step');
    void run(async () => {
      const response = await answerWithPasskey(await api.secondStepOptions(step.mfaToken), 'second-step');
      onSignedIn(await api.signInMfaPasskey(step.mfaToken, response));
    });
  };

  return (
    <main id="main" class="page narrow">
      <form class="card stack" onSubmit={submitCode} aria-labelledby="mfa-title">
        <h1 id="mfa-title">Two-factor sign-in</h1>
        {!byCode && canPasskey && <p>Your password was right. To finish signing in, use one of your passkeys.</p>}
        {byCode && (
          <label>
            Code from your authenticator app, or a recovery code
            <input name="code" autocomplete="one-time-code" required autoFocus value={code}
              onInput={(e) => setCode(e.currentTarget.value)} />
          </label>
        )}
        {byPasskey && !canPasskey && (
          <p class="notice">
            {byCode ? 'Your account also takes a passkey' : 'Your account asks for a passkey'},{' '}
            {openedAtIpAddress()
              ? 'but passkeys do not work at an IP address: open Coffer at its name (the address it was set up with).'
              : 'but this browser cannot use passkeys here: passkeys need a recent browser and a secure (HTTPS) address.'}
          </p>
        )}
        <ErrorNote error={error} situation={situation} />
        <div class="row">
          {byCode && (
            <button type="submit" class="primary" disabled={busy}>
              Verify
            </button>
          )}
          {canPasskey && (
            <button type="button" class={byCode ? undefined : 'primary'} disabled={busy} autoFocus={!byCode}
              onClick={withPasskey}>
              Use a passkey
            </button>
          )}
          <button type="button" class="link-button" onClick={onStartOver}>
            Start over
          </button>
        </div>
      </form>
    </main>
  );
}

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
 * Sign-in (with a password, or a passkey alone), and sign-up when the server allows it (REGISTRATION=open): the
 * password form unless PASSWORD_LOGIN is disabled, and single sign-on's button when it is set up; a single sign-on
 * that came back unfinished says why.
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
  const [step, setStep] = useState<SecondStep | null>(null);
  const [situation, setSituation] = useState<Situation>('sign-in');
  const [busy, error, run] = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    setSituation(register ? 'register' : 'sign-in');
    void run(async () => {
      const answer = await api.signIn(username, password, register);
      // The password was right and a second factor is due: ask for it (no session yet).
      if ('mfaRequired' in answer) setStep({ mfaToken: answer.mfaToken, methods: answer.methods });
      else onSignedIn(answer);
    });
  };
  // Discoverable credentials: the browser offers this site's passkeys, the passkey names the account.
  const withPasskey = () => {
    setSituation('passkey-sign-in');
    void run(async () => {
      const response = await answerWithPasskey(await api.passkeySignInOptions(), 'sign-in');
      onSignedIn(await api.signInWithPasskey(response));
    });
  };

  // A passkey's failure is said under its button, a password's under the password.
  const byPasskey = situation === 'passkey-sign-in';

  if (step !== null) return <SecondStepForm step={step} onSignedIn={onSignedIn} onStartOver={() => setStep(null)} />;

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
      {!byPasskey && <ErrorNote error={error} situation={situation} />}
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
        {!register && passkeysAvailable() && (
          <div class="stack passkey-sign-in">
            <p class="or" aria-hidden="true">
              or
            </p>
            <button type="button" disabled={busy} onClick={withPasskey}>
              Sign in with a passkey
            </button>
            {byPasskey && <ErrorNote error={error} situation={situation} />}
          </div>
        )}
      </form>
    </main>
  );
}
