import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDate } from '../common/format.js';
import { api, type PasskeyView } from './api.js';
import { createPasskey, openedAtIpAddress, passkeysAvailable } from './passkey-ceremony.js';
import { ConfirmButton, ErrorNote, useAction } from './ui.js';

/** As the server takes it (docs/API.md, "Passkeys"). */
const NAME_MAX = 64;

/** Renames in place: Enter saves, Escape (or Cancel) gives up; either way the focus returns to Rename. */
function RenameForm({ passkey, onDone }: { passkey: PasskeyView; onDone: (name: string | null) => void }) {
  const [name, setName] = useState(passkey.name);
  return (
    <form class="row passkey-rename" onSubmit={(e) => (e.preventDefault(), onDone(name))}>
      <input
        aria-label={`New name for ${passkey.name}`}
        value={name}
        required
        maxLength={NAME_MAX}
        ref={(input) => input?.focus()}
        onInput={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), onDone(null))}
      />
      <span class="row">
        <button type="submit" class="primary">
          Save
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </span>
    </form>
  );
}

function PasskeyItem({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: PasskeyView;
  onRename: (name: string) => Promise<void>;
  onRemove: () => Promise<void>;
}) {
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const done = async (name: string | null) => {
    if (name !== null && name !== passkey.name) await onRename(name);
    setRenaming(false);
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  const used = passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'never used yet';
  return (
    <li class="passkey" aria-label={passkey.name}>
      {renaming ? (
        <RenameForm passkey={passkey} onDone={(name) => void done(name)} />
      ) : (
        <div class="row spread">
          <span class="passkey-facts">
            <strong class="passkey-name">{passkey.name}</strong>
            <span class="muted">
              added {formatDate(passkey.createdAt)}, {used}
            </span>
          </span>
          <span class="row">
            <button type="button" ref={renameButton} onClick={() => setRenaming(true)}>
              Rename
            </button>
            <ConfirmButton
              label="Remove"
              confirm={`Remove “${passkey.name}”? It will no longer sign you in.`}
              onConfirm={onRemove}
            />
          </span>
        </div>
      )}
    </li>
  );
}

/** Asks for a name, then for the passkey itself (the browser's own prompt), then saves it on the server. */
function AddPasskey({ onAdded, run, busy }: { onAdded: (added: PasskeyView) => Promise<void>; run: (action: () => Promise<void>) => Promise<void>; busy: boolean }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const addButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    setName('');
    requestAnimationFrame(() => addButton.current?.focus());
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const response = await createPasskey(await api.passkeyOptions());
      await onAdded(await api.addPasskey(name.trim(), response));
      close();
    });
  };
  if (!open) {
    return (
      <div class="row">
        <button type="button" class="primary" ref={addButton} onClick={() => setOpen(true)}>
          Add a passkey
        </button>
      </div>
    );
  }
  return (
    <form class="inline-dialog" aria-labelledby="add-passkey-title" onSubmit={submit}
      onKeyDown={(e) => e.key === 'Escape' && !busy && close()}>
      <h3 id="add-passkey-title">Add a passkey</h3>
      <label>
        Name for this passkey
        <input value={name} required maxLength={NAME_MAX} placeholder="Work laptop, phone, security key…"
          ref={(input) => input?.focus()} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <p class="hint muted">Next, your browser asks you to confirm with a fingerprint, face, PIN or security key.</p>
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          Continue
        </button>
        <button type="button" onClick={close} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Account → Security → Passkeys: the list (name, added, last used), adding one through the browser's WebAuthn
 * prompt, renaming and removing. A browser that cannot use passkeys here still lists, renames and removes them.
 */
export function PasskeysPanel({ onChanged }: { onChanged: () => Promise<void> }) {
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [done, setDone] = useState('');
  const [busy, error, run] = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const available = passkeysAvailable();

  const reload = async () => setPasskeys(await api.passkeys());
  useEffect(() => void run(reload), []);
  const changed = async (status: string) => {
    setDone(status);
    await reload();
    await onChanged();
  };

  return (
    <div class="stack" aria-labelledby="passkeys-title">
      <h3 id="passkeys-title" tabIndex={-1} ref={heading}>
        Passkeys
      </h3>
      <p>
        A passkey signs you in with your fingerprint, face, PIN or a security key, without typing a password. Once you
        have one, signing in with your password asks for a passkey too (or a code, if you also use an authenticator
        app): add one on each device you use. If you lose them all, an admin can turn them off for you.
      </p>
      {passkeys?.length === 0 && <p class="muted">No passkeys yet.</p>}
      {passkeys && passkeys.length > 0 && (
        <ul class="plain-list" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <PasskeyItem
              key={passkey.id}
              passkey={passkey}
              onRename={(name) => run(async () => {
                await api.renamePasskey(passkey.id, name.trim());
                await changed(`Passkey renamed to “${name.trim()}”.`);
              })}
              onRemove={() => run(async () => {
                await api.removePasskey(passkey.id);
                await changed(`Passkey “${passkey.name}” removed.`);
                heading.current?.focus();
              })}
            />
          ))}
        </ul>
      )}
      {available ? (
        <AddPasskey busy={busy} run={run}
          onAdded={(added) => changed(`Passkey “${added.name}” added. Next time, choose “Sign in with a passkey”.`)} />
      ) : (
        <p class="notice">
          {openedAtIpAddress()
            ? 'Passkeys do not work at an IP address: open Coffer at its name (the address it was set up with) to add one.'
            : 'This browser cannot make or use passkeys here: passkeys need a recent browser and a secure (HTTPS) address.'}
        </p>
      )}
      <p class="hint" role="status">
        {done}
      </p>
      <ErrorNote error={error} situation="passkey-change" />
    </div>
  );
}
