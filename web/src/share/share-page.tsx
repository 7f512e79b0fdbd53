import { useEffect, useState } from 'preact/hooks';
import { fetchShare, type ShareResult, type ShareView } from '../api.js';
import { Message } from '../message.js';
import { PasswordForm, type LockProblem } from './password-form.js';
import { ShareDetails } from './share-details.js';

type View =
  | { kind: 'loading' }
  | { kind: 'share'; share: ShareView; password: string | null }
  | { kind: 'locked'; problem: LockProblem | null; checking: boolean }
  | { kind: 'not-found' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'failed'; message: string };

/** The page's view after reading the share, with `password` the one just tried (null: none). */
function viewOf(result: ShareResult, password: string | null): View {
  switch (result.kind) {
    case 'ok':
      return { kind: 'share', share: result.share, password };
    case 'password':
      return { kind: 'locked', problem: result.reason === 'invalid' ? 'invalid' : null, checking: false };
    case 'throttled':
      if (password === null) return { kind: 'throttled', retryAfter: result.retryAfter };
      return { kind: 'locked', problem: { retryAfter: result.retryAfter }, checking: false };
    case 'not-found':
      return { kind: 'not-found' };
    case 'failed':
      return { kind: 'failed', message: result.message };
  }
}

/** `/s/{id}`: reads the share once (one view), asks for its password when it has one, then shows what it holds. */
export function SharePage({ id }: { id: string }) {
  const [view, setView] = useState<View>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    void fetchShare(id, null).then((result) => live && setView(viewOf(result, null)));
    return () => {
      live = false;
    };
  }, [id]);

  const unlock = async (password: string) => {
    setView({ kind: 'locked', problem: null, checking: true });
    setView(viewOf(await fetchShare(id, password), password));
  };

  switch (view.kind) {
    case 'loading':
      return (
        <p class="loading" role="status">
          Opening the share…
        </p>
      );
    case 'share':
      return <ShareDetails share={view.share} password={view.password} />;
    case 'locked':
      return <PasswordForm problem={view.problem} checking={view.checking} onSubmit={unlock} />;
    case 'not-found':
      return (
        <Message title="Share not found">
          This link does not lead to a share. It may have been deleted, or the address may be mistyped.
        </Message>
      );
    case 'throttled':
      return (
        <Message title="Too many requests">
          This address has asked for too many unknown shares. Try again in {view.retryAfter} seconds.
        </Message>
      );
    case 'failed':
      return <Message title="The share could not be opened">{view.message}</Message>;
  }
}
