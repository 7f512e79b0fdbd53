import { useState } from 'preact/hooks';
import { CodeView } from '../common/code/code-view.js';
import { languageOf } from '../common/code/languages.js';
import { formatDate } from '../common/format.js';
import { keyFragment, newFileKey } from '../common/e2e/file-key.js';
import { sealPaste } from '../common/e2e/paste.js';
import { api, type PasteView } from './api.js';
import { keepKey } from './e2e-keys.js';
import { EncryptedNote } from './files/encrypted-note.js';
import { ShareDialog } from './share-dialog.js';
import { ConfirmButton, ErrorNote, Section, useAction, usePageData, ViewerLink } from './ui.js';
import { Viewer, type Viewable } from './viewer.js';

const TYPES = ['text', 'markdown', 'javascript', 'typescript', 'python', 'shell', 'json', 'html', 'css', 'go', 'rust'];

function PasteItem({ paste, onChanged }: { paste: PasteView; onChanged: () => void }) {
  const [sharing, setSharing] = useState(false);
  const [, error, run] = useAction();
  return (
    <li class="paste-item">
      <div class="row spread">
        <ViewerLink id={paste.id}>{paste.name || 'Untitled'}</ViewerLink>
        <span class="muted">
          {paste.type} · {formatDate(paste.createdAt)}
        </span>
        <div class="row">
          <button type="button" onClick={() => setSharing(true)}>
            Share
          </button>
          <ConfirmButton label="Delete" confirm="Delete this paste?" onConfirm={() => run(async () => (await api.deletePaste(paste.id), onChanged()))} />
        </div>
      </div>
      {paste.encrypted && <EncryptedNote fileId={paste.id} name={paste.name} />}
      {sharing && <ShareDialog type="paste" id={paste.id} name={paste.name} url={paste.url} onDone={() => (setSharing(false), onChanged())} />}
      <ErrorNote error={error} />
    </li>
  );
}

const loadPaste = async (id: string): Promise<Viewable> => ({ kind: 'paste', item: await api.paste(id) });

export function PastesPage({ viewId }: { viewId: string | null }) {
  const { data: pastes, busy, error, run, reload } = usePageData('Pastes', api.pastes);
  const [draft, setDraft] = useState({ name: '', type: 'text', content: '' });
  const [encrypt, setEncrypt] = useState(false);
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      if (encrypt) {
        // Sealed here with a key of its own; the server gets ciphertext and keeps no name or type.
        const key = newFileKey();
        const sealed = await sealPaste(key, { name: draft.name || 'Untitled', type: draft.type, content: draft.content });
        const made = await api.createEncryptedPaste(sealed);
        const link = `${made.url ?? ''}${keyFragment(key)}`;
        await keepKey({ fileId: made.id, link }).catch(() => undefined);
        await navigator.clipboard?.writeText(link).catch(() => undefined);
      } else {
        await api.createPaste(draft.name, draft.type, draft.content);
      }
      setDraft({ name: '', type: draft.type, content: '' });
      await reload();
    });
  };
  return (
    <>
      <Section title="New paste">
        <form class="stack" onSubmit={create}>
          <div class="row">
            <label>
              Name
              <input value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
            </label>
            <label>
              Type
              <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}>
                {TYPES.map((type) => (
                  <option key={type}>{type}</option>
                ))}
              </select>
            </label>
          </div>
          <label>
            Content
            <textarea class="editor" rows={10} required spellcheck={false} value={draft.content}
              onInput={(e) => setDraft({ ...draft, content: e.currentTarget.value })} />
          </label>
          <label class="inline-check">
            <input type="checkbox" checked={encrypt} onChange={(e) => setEncrypt(e.currentTarget.checked)} />
            Encrypt end to end (shared at once; the key is only in its link)
          </label>
          {draft.content && draft.type !== 'text' && (
            <CodeView text={draft.content} language={languageOf(draft.type)} label="Preview" />
          )}
          <button type="submit" class="primary" disabled={busy}>
            Save paste
          </button>
        </form>
        <ErrorNote error={error} />
      </Section>
      <Section title="Pastes">
        {pastes?.length === 0 && <p>No pastes yet.</p>}
        <ul class="plain-list">
          {pastes?.map((paste) => <PasteItem key={paste.id} paste={paste} onChanged={() => void reload()} />)}
        </ul>
        {viewId && (
          <Viewer id={viewId} items={pastes?.map((item): Viewable => ({ kind: 'paste', item })) ?? []} load={loadPaste}
            onChanged={() => void reload()} />
        )}
      </Section>
    </>
  );
}
