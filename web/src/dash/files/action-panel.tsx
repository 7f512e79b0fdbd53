import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ShareDialog } from '../share-dialog.js';
import { ConfirmButton, ErrorNote, useAction } from '../ui.js';
import type { Entry } from './entries.js';
import { EncryptedNote } from './encrypted-note.js';
import { FolderPicker } from './folder-picker.js';
import { deleteEntries, moveEntries } from './move.js';

/** The actions of one entry, above the list (a row of a virtual list has no room for a menu). */
export function ActionPanel({ entry, rename, onClose, onChanged }: { entry: Entry; rename: () => void; onClose: () => void; onChanged: () => void }) {
  const [mode, setMode] = useState<'menu' | 'share' | 'move'>('menu');
  const [, error, run] = useAction();
  if (mode === 'share') {
    return <ShareDialog type={entry.kind} id={entry.id} name={entry.name} url={entry.url} onDone={() => (onClose(), onChanged())} />;
  }
  if (mode === 'move') {
    const excluded = new Set(entry.kind === 'folder' ? [entry.id] : []);
    return (
      <FolderPicker title={`Move ${entry.name}`} excluded={excluded} onCancel={onClose}
        onPick={(to) => void run(async () => (await moveEntries([entry], to), onClose(), onChanged()))} />
    );
  }
  return (
    <div class="inline-dialog row" role="group" aria-label={`Actions for ${entry.name}`}>
      <strong class="name">{entry.name}</strong>
      {entry.kind === 'file' && (
        <a class="button" href={api.contentUrl(entry.id)} download={entry.name}>
          Download
        </a>
      )}
      <button type="button" onClick={() => (rename(), onClose())}>
        Rename
      </button>
      <button type="button" onClick={() => setMode('move')}>
        Move
      </button>
      <button type="button" onClick={() => setMode('share')}>
        Share
      </button>
      <ConfirmButton
        label="Delete"
        confirm={entry.kind === 'folder' ? `Delete ${entry.name} and everything in it?` : `Delete ${entry.name}?`}
        onConfirm={() => run(async () => (await deleteEntries([entry]), onClose(), onChanged()))}
      />
      <button type="button" onClick={onClose}>
        Close
      </button>
      <ErrorNote error={error} />
      {entry.kind === 'file' && entry.file.encrypted && <EncryptedNote fileId={entry.id} name={entry.name} />}
    </div>
  );
}
