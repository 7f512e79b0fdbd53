import { useState } from 'preact/hooks';
import { api, type MeView } from './api.js';
import { ErrorNote, useAction } from './ui.js';

/** Sign-in, and sign-up when the server allows it (REGISTRATION=open). */
export function SignIn({ registration, onSignedIn }: { registration: boolean; onSignedIn: (me: MeView) => void }) {
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

  return (
    <main id="main" class="page narrow">
      <form class="card stack" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{register ? 'Create an account' : 'Sign in to Coffer'}</h1>
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
      </form>
    </main>
  );
}
