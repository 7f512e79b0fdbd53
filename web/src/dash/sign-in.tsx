import { useState } from 'preact/hooks';
import { api, type MeView } from './api.js';
import { ErrorNote, useAction } from './ui.js';

/** Sign-in, and sign-up when the server allows it (REGISTRATION=open). */
export function SignIn({ registration, onSignedIn }: { registration: boolean; onSignedIn: (me: MeView) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [register, setRegister] = useState(false);
  const [busy, error, run] = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => onSignedIn(await api.signIn(username, password, register)));
  };

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
