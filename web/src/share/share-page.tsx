import { useState } from 'preact/hooks';
import type { PageData, ShareView } from '../api.js';
import { formatWait } from '../format.js';
import { Message } from '../message.js';
import { PasswordForm, type LockProblem } from './password-form.js';
import { ShareDetails } from './share-details.js';
import { readPageData, unlock } from './share-api.js';

type View =
  | { kind: 'share'; share: ShareView; unlocked: boolean }
  | { kind: 'locked'; problem: LockProblem | null; checking: boolean }
  | { kind: 'gone' }
  | { kind: 'not-found' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'failed'; message: string };

function initialView(data: PageData): View {
  switch (data.state) {
    case 'open':
      return { kind: 'share', share: data.share, unlocked: false };
    case 'locked':
      return { kind: 'locked', problem: null, checking: false };
    case 'gone':
      return { kind: 'gone' };
    case 'not-found':
      return { kind: 'not-found' };
    case 'throttled':
      return { kind: 'throttled', retryAfter: data.retryAfter };
  }
}

/**
 * `/s/{id}`: the server already read the share (one view) and wrote what it found into the page; a protected share
 * asks for its password, which is posted once and answered with a grant for this share's links.
 */
export function SharePage({ id }: { id: string }) {
  const [view, setView] = useState<View>(() => initialView(readPageData()));

  const submit = async (password: string) => {
    setView({ kind: 'locked', problem: null, checking: true });
    const result = await unlock(id, password);
    switch (result.kind) {
      case 'ok':
        return setView({ kind: 'share', share: result.share, unlocked: true });
      case 'invalid':
        return setView({ kind: 'locked', problem: 'invalid', checking: false });
      case 'throttled':
        return setView({ kind: 'locked', problem: { retryAfter: result.retryAfter }, checking: false });
      case 'gone':
        return setView({ kind: 'gone' });
      case 'failed':
        return setView({ kind: 'failed', message: result.message });
    }
  };

  switch (view.kind) {
    case 'share':
      return <ShareDetails share={view.share} unlocked={view.unlocked} />;
    case 'locked':
      return <PasswordForm problem={view.problem} checking={view.checking} onSubmit={submit} />;
    case 'gone':
      return (
        <Message title="This share is no longer available">
          It has expired, or it was opened or downloaded as many times as its owner allowed.
        </Message>
      );
    case 'not-found':
      return (
        <Message title="Share not found">
          This link does not lead to a share. It may have been deleted, or the address may be mistyped.
        </Message>
      );
    case 'throttled':
      return (
        <Message title="Too many requests">
          This network has asked for too many shares that do not exist. Try again in {formatWait(view.retryAfter)}.
        </Message>
      );
    case 'failed':
      return <Message title="The share could not be opened">{view.message}</Message>;
  }
}
