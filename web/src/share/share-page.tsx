import { useState } from 'preact/hooks';
import type { PageData, ShareView } from './api.js';
import { formatWait } from '../common/format.js';
import { Message } from '../common/message.js';
import { PasswordForm, type LockProblem } from './password-form.js';
import { ShareDetails } from './share-details.js';
import { readPageData, unlock } from './share-api.js';

type View =
  | { kind: 'share'; share: ShareView; unlocked: boolean; folderId: string | null }
  | { kind: 'locked'; problem: LockProblem | null; checking: boolean }
  | { kind: 'gone' }
  | { kind: 'not-found' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'failed'; message: string };

function initialView(data: PageData): View {
  switch (data.state) {
    case 'open':
      return { kind: 'share', share: data.share, unlocked: false, folderId: data.folderId ?? null };
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

interface Props {
  id: string;
  /** The address is a folder's own page, `/s/{id}/f/{folderId}`. */
  folderPage: boolean;
}

/**
 * `/s/{id}` and `/s/{id}/f/{folderId}`: the server already read the share (one view) and wrote what it found into
 * the page, with the folder a folder's page opens at; a protected share asks for its password, which is posted once
 * and answered with a grant for this share's links. A folder's page of a share that turns out to hold no folders is
 * not found, as the server answers it once the grant is there.
 */
export function SharePage({ id, folderPage }: Props) {
  const [data] = useState(readPageData);
  const [view, setView] = useState<View>(() => initialView(data));

  const submit = async (password: string) => {
    setView({ kind: 'locked', problem: null, checking: true });
    const result = await unlock(id, password);
    switch (result.kind) {
      case 'ok': {
        const folderId = data.state === 'locked' ? (data.folderId ?? null) : null;
        if (folderId !== null && result.share.type !== 'folder') return setView({ kind: 'not-found' });
        return setView({ kind: 'share', share: result.share, unlocked: true, folderId });
      }
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
      return <ShareDetails share={view.share} unlocked={view.unlocked} folderId={view.folderId} />;
    case 'locked':
      return <PasswordForm problem={view.problem} checking={view.checking} onSubmit={submit} />;
    case 'gone':
      return (
        <Message title="This share is no longer available">
          It has expired, or it was opened or downloaded as many times as its owner allowed.
        </Message>
      );
    case 'not-found':
      return folderPage ? (
        <Message title="Folder not found">
          This link does not lead to a folder of a share. The share or the folder may have been deleted or moved, or
          the address may be mistyped.
        </Message>
      ) : (
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
