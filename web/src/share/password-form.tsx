import { useEffect, useRef, useState } from 'preact/hooks';
import { formatWait } from '../common/format.js';

/** Why the last password did not open the share: it was wrong, or guessing is paused for a while. */
export type LockProblem = 'invalid' | { retryAfter: number };

interface Props {
  problem: LockProblem | null;
  checking: boolean;
  onSubmit(password: string): void;
}

function problemText(problem: LockProblem): string {
  if (problem === 'invalid') return 'That password is wrong. Check it and try again.';
  return `Too many wrong passwords. Try again in ${formatWait(problem.retryAfter)}.`;
}

/** The password prompt of a protected share. The password stays in this page's memory, never in the address. */
export function PasswordForm({ problem, checking, onSubmit }: Props) {
  const [password, setPassword] = useState('');
  // The pause whose time has run out; a pause is derived in the same render as its message, so the button is never
  // enabled for a frame beside "Try again in 30 minutes".
  const [elapsed, setElapsed] = useState<LockProblem | null>(null);
  const waiting = problem !== null && problem !== 'invalid' && elapsed !== problem;
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Protected share · Coffer';
  }, []);

  useEffect(() => {
    if (problem !== null) input.current?.focus();
    if (problem === null || problem === 'invalid') return;
    const timer = setTimeout(() => setElapsed(problem), problem.retryAfter * 1000);
    return () => clearTimeout(timer);
  }, [problem]);

  const submit = (event: Event) => {
    event.preventDefault();
    if (password !== '' && !checking && !waiting) onSubmit(password);
  };

  return (
    <section class="card" aria-labelledby="lock-title">
      <h1 id="lock-title">This share is protected</h1>
      <p>Enter the password you were given to open it.</p>
      <form class="password-form" onSubmit={submit} noValidate>
        <label for="share-password">Password</label>
        <input
          id="share-password"
          ref={input}
          type="password"
          name="password"
          autoComplete="off"
          required
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? 'lock-problem' : undefined}
        />
        <button type="submit" disabled={checking || waiting}>
          {checking ? 'Checking…' : 'Open'}
        </button>
      </form>
      <p id="lock-problem" class="problem" role="alert">
        {problem !== null && !checking ? problemText(problem) : ''}
      </p>
    </section>
  );
}
