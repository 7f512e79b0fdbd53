import { useState } from 'preact/hooks';
import { formatDate } from '../format.js';
import { api, type CreatedTokenView } from './api.js';
import { ConfirmButton, ErrorNote, Section, usePageData } from './ui.js';

/** Saves JSON the page already holds as a file, without a round trip. */
function saveJson(value: unknown, filename: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function TokensPage() {
  const { data: tokens, error, run, reload } = usePageData('API tokens', api.tokens);
  const [created, setCreated] = useState<CreatedTokenView | null>(null);
  const [name, setName] = useState('');

  const create = (sharex: boolean) =>
    run(async () => {
      if (sharex) saveJson(await api.sharexConfig(name || 'ShareX'), `${name || 'Coffer'}.sxcu`);
      else setCreated(await api.createToken(name || 'token'));
      setName('');
      await reload();
    });

  return (
    <Section title="API tokens">
      <p>Uploader tokens for scripts, ShareX and other clients: they may upload, paste, share and read usage.</p>
      <form class="row" onSubmit={(e) => (e.preventDefault(), void create(false))}>
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        </label>
        <button type="submit" class="primary">
          Create token
        </button>
        <button type="button" onClick={() => void create(true)}>
          Download ShareX config
        </button>
      </form>
      {created && (
        <div class="notice" role="status">
          <p>Copy this token now: it is shown only once.</p>
          <code class="secret">{created.token}</code>
          <p>Upload from a shell:</p>
          <pre>
            <code>{`curl -H "Authorization: token ${created.token}" -F file=@photo.jpg ${location.origin}/api/file`}</code>
          </pre>
        </div>
      )}
      <ErrorNote error={error} />
      <ul class="plain-list">
        {tokens?.map((token) => (
          <li key={token.id} class="row spread">
            <span>
              <strong>{token.name}</strong> <span class="muted">created {formatDate(token.createdAt)}</span>
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
  );
}
