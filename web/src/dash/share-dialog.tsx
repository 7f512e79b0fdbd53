import { useState } from 'preact/hooks';
import { api, type ShareKind } from './api.js';
import { CopyLink } from './copy-link.js';
import { ShareForm, shareOptions } from './share-form.js';
import { ErrorNote, useAction } from './ui.js';

/** Shares any item from where it is listed: options, then the link to copy. */
export function ShareDialog({
  type,
  id,
  name,
  url,
  onDone,
}: {
  type: ShareKind;
  id: string;
  name: string;
  url?: string | undefined;
  onDone: () => void;
}) {
  const [link, setLink] = useState<string | null>(url ?? null);
  const [busy, error, run] = useAction();
  return (
    <div class="inline-dialog" role="group" aria-label={`Share ${name}`}>
      <h3>Share {name}</h3>
      {link ? (
        <CopyLink url={link} />
      ) : (
        <ShareForm
          submitLabel={busy ? 'Sharing…' : 'Create link'}
          editing={false}
          onSubmit={(values) =>
            void run(async () => setLink((await api.createShare(type, id, shareOptions(values, false))).url ?? null))
          }
        />
      )}
      <ErrorNote error={error} />
      <button type="button" onClick={onDone}>
        Close
      </button>
    </div>
  );
}
