import { useState } from 'preact/hooks';
import { formatSize, SIZE_UNITS_NOTE } from '../common/format.js';
import { api, type AdminUserView, type LimitName } from './api.js';
import { inUnits, readSize, SIZE_UNITS, type SizeUnit } from './size-input.js';
import { ErrorNote, useAction } from './ui.js';
import { LIMIT_LABELS } from './usage-bars.js';

type CountedLimit = Exclude<LimitName, 'storage'>;
const COUNTED = (Object.keys(LIMIT_LABELS) as LimitName[]).filter((name): name is CountedLimit => name !== 'storage');

/**
 * A user's storage maximum as a number and a unit (decimal units, said beside the field), starting from the
 * current one; "5 MB" typed in the number field works too. Empty restores the default (null). A number the page
 * cannot read is explained before anything is sent.
 */
export function StorageMaximum({ user, onSaved }: { user: AdminUserView; onSaved: () => void }) {
  const current = inUnits(Number(user.storage.max));
  const [text, setText] = useState(current.value);
  const [unit, setUnit] = useState<SizeUnit>(current.unit);
  const [done, setDone] = useState('');
  const [busy, error, run] = useAction();
  const id = `storage-${user.id}`;
  const save = (event: Event) => {
    event.preventDefault();
    setDone('');
    void run(async () => {
      const typed = text.trim();
      const reading = typed === '' ? null : readSize(typed, unit);
      if (reading && 'problem' in reading) throw new Error(reading.problem);
      const saved = await api.updateUser(user.id, { limits: { storage: reading ? String(reading.bytes) : null } });
      const shown = inUnits(Number(saved.storage.max));
      setText(shown.value);
      setUnit(shown.unit);
      setDone(`${reading ? 'Storage maximum set to' : 'Storage maximum back to the default:'} ${formatSize(saved.storage.max)}.`);
      onSaved();
    });
  };
  return (
    <form class="limit-form" onSubmit={save} aria-label={`Storage maximum of ${user.username}`}>
      <div class="row">
        <label for={id}>Storage maximum</label>
        <input id={id} class="amount" inputMode="decimal" autocomplete="off" value={text}
          aria-describedby={`${id}-hint`} onInput={(e) => setText(e.currentTarget.value)} />
        <select aria-label="Unit" value={unit} onChange={(e) => setUnit(e.currentTarget.value as SizeUnit)}>
          {SIZE_UNITS.map((u) => (
            <option key={u.unit} value={u.unit}>
              {u.unit}
            </option>
          ))}
        </select>
        <button type="submit" disabled={busy}>
          Set
        </button>
      </div>
      <p id={`${id}-hint`} class="hint muted">
        Now {formatSize(user.storage.max)}. Leave it empty to restore the default. {SIZE_UNITS_NOTE}.
      </p>
      <p role="status" class="hint">
        {done}
      </p>
      <ErrorNote error={error} />
    </form>
  );
}

/** The other maxima (files, folders, ...), one at a time: a whole number, or empty for the default. */
export function CountMaximum({ user, onSaved }: { user: AdminUserView; onSaved: () => void }) {
  const [name, setName] = useState<CountedLimit>('files');
  const [text, setText] = useState('');
  const [busy, error, run] = useAction();
  const id = `count-${user.id}`;
  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const typed = text.trim();
      if (typed !== '' && !/^\d+$/.test(typed)) throw new Error('Type the maximum as a whole number, such as 100, or leave it empty for the default.');
      await api.updateUser(user.id, { limits: { [name]: typed === '' ? null : Number(typed) } });
      setText('');
      onSaved();
    });
  };
  return (
    <form class="limit-form" onSubmit={save} aria-label={`Other maxima of ${user.username}`}>
      <div class="row">
        <label>
          Maximum of
          <select value={name} onChange={(e) => setName(e.currentTarget.value as CountedLimit)}>
            {COUNTED.map((kind) => (
              <option key={kind} value={kind}>
                {LIMIT_LABELS[kind].toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <label>
          New maximum
          <input class="amount" inputMode="numeric" autocomplete="off" value={text} placeholder={String(user[name].max)}
            aria-describedby={`${id}-hint`} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Set
        </button>
      </div>
      <p id={`${id}-hint`} class="hint muted">
        Now {user[name].max} {LIMIT_LABELS[name].toLowerCase()}. Leave it empty to restore the default.
      </p>
      <ErrorNote error={error} />
    </form>
  );
}
