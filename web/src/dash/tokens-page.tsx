import { useState } from 'preact/hooks';
import { formatDate } from '../common/format.js';
import { api, type CreatedTokenView } from './api.js';
import { CopyField } from './copy-link.js';
import { ConfirmButton, ErrorNote, Section, useAction, usePageData } from './ui.js';

/** Saves JSON the page already holds as a file, without a round trip. */
function saveJson(value: unknown, filename: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A token's name as a file name: characters no file system takes become "_". */
const fileNameOf = (name: string) => `${name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim() || 'Coffer'}.sxcu`;

function NewToken({ created }: { created: CreatedTokenView }) {
  return (
    <div class="notice stack" role="status">
      <p>
        <strong>Token “{created.name}” created.</strong> Copy it now: it is shown only once, and nobody can see it again
        after you leave this page.
      </p>
      <CopyField value={created.token} label="New token" button="Copy token" />
      {created.scope === 'dav' ? (
        <p>
          Mount <code>{`${location.origin}/dav/`}</code> as a WebDAV drive: your user name, and this token as the
          password.
        </p>
      ) : (
        <>
          <p>Upload from a shell:</p>
          <pre>
            <code>{`curl -H "Authorization: token ${created.token}" -F file=@photo.jpg ${location.origin}/api/file`}</code>
          </pre>
        </>
      )}
    </div>
  );
}

/** A ShareX config holds a token of its own: each download creates one, under the name typed here. */
function SharexSection({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('ShareX');
  const [done, setDone] = useState('');
  const [busy, error, run] = useAction();
  const tokenName = name.trim() || 'ShareX';
  const download = (event: Event) => {
    event.preventDefault();
    setDone('');
    void run(async () => {
      saveJson(await api.sharexConfig(tokenName), fileNameOf(tokenName));
      setDone(`Downloaded ${fileNameOf(tokenName)}. Its token “${tokenName}” is in the list of tokens.`);
      onCreated();
    });
  };
  return (
    <Section title="ShareX">
      <p>A custom uploader for ShareX: it uploads to this Coffer and copies each upload’s share link.</p>
      <form class="stack" onSubmit={download}>
        <label>
          Token name
          <input value={name} maxLength={100} aria-describedby="sharex-hint" onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <p id="sharex-hint" class="hint muted">
          Creates a new uploader token named “{tokenName}” each time you download the config. Revoke the ones you no
          longer use.
        </p>
        <div class="row">
          <button type="submit" disabled={busy}>
            Download ShareX config
          </button>
        </div>
        <p class="hint" role="status">
          {done}
        </p>
      </form>
      <ErrorNote error={error} />
    </Section>
  );
}

export function TokensPage() {
  const { data: tokens, error, run, reload } = usePageData('API tokens', api.tokens);
  const [created, setCreated] = useState<CreatedTokenView | null>(null);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'uploader' | 'dav'>('uploader');

  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setCreated(await api.createToken(name, scope));
      setName('');
      await reload();
    });
  };

  return (
    <>
      <Section title="API tokens">
        <p>
          Uploader tokens for scripts and other clients: they may upload, paste, share and read usage. WebDAV tokens
          open your folders and files as a drive at <code>/dav/</code>, and nothing else.
        </p>
        <form class="row" onSubmit={create}>
          <label>
            Name
            <input value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} required />
          </label>
          <label>
            Kind
            <select value={scope} onChange={(e) => setScope(e.currentTarget.value as 'uploader' | 'dav')}>
              <option value="uploader">Uploader</option>
              <option value="dav">WebDAV drive</option>
            </select>
          </label>
          <button type="submit" class="primary">
            Create token
          </button>
        </form>
        {created && <NewToken created={created} />}
        <ErrorNote error={error} />
        {tokens?.length === 0 && <p class="muted">No tokens yet.</p>}
        <ul class="plain-list">
          {tokens?.map((token) => (
            <li key={token.id} class="row spread">
              <span>
                <strong>{token.name}</strong>{' '}
                <span class="muted">
                  {token.scope === 'dav' ? 'WebDAV' : 'uploader'}, created {formatDate(token.createdAt)}
                </span>
              </span>
              <ConfirmButton
                label="Revoke"
                confirm={`Revoke ${token.name}?`}
                onConfirm={() => run(async () => (await api.deleteToken(token.id), await reload()))}
              />
            </li>
          ))}
        </ul>
      </Section>
      <SharexSection onCreated={() => void reload()} />
    </>
  );
}
