import { useEffect, useState } from 'preact/hooks';
import { formatDate, formatSize } from '../common/format.js';
import { api, type FolderView, type RequestInput, type RequestView } from './api.js';
import { CopyField } from './copy-link.js';
import { MailSwitch } from './mail-switch.js';
import { ConfirmButton, ErrorNote, Link, Section, useAction, usePageData } from './ui.js';

const STATE_WORDS: Record<RequestView['state'], string> = {
  active: 'Taking files',
  expired: 'Expired',
  full: 'Full',
  closed: 'Closed',
};

interface Draft {
  name: string;
  message: string;
  folderId: string;
  password: string;
  expiresAt: string;
  maxFiles: string;
  maxMegabytes: string;
  maxFileMegabytes: string;
  allowedTypes: string;
  requireName: boolean;
}

const EMPTY: Draft = {
  name: '',
  message: '',
  folderId: '',
  password: '',
  expiresAt: '',
  maxFiles: '',
  maxMegabytes: '',
  maxFileMegabytes: '',
  allowedTypes: '',
  requireName: false,
};

/** Megabytes as people type them (1 MB = 1,000,000 bytes), as the API's decimal string of bytes. */
const bytesOf = (megabytes: string) => (megabytes.trim() === '' ? undefined : String(Math.max(1, Math.round(Number(megabytes) * 1e6))));

function inputOf(draft: Draft): RequestInput {
  const types = draft.allowedTypes.split(',').map((type) => type.trim()).filter((type) => type !== '');
  return {
    name: draft.name,
    ...(draft.message.trim() ? { message: draft.message } : {}),
    ...(draft.folderId ? { folderId: draft.folderId } : {}),
    ...(draft.password ? { password: draft.password } : {}),
    ...(draft.expiresAt ? { expiresAt: new Date(draft.expiresAt).toISOString() } : {}),
    ...(draft.maxFiles ? { maxFiles: Number(draft.maxFiles) } : {}),
    ...(bytesOf(draft.maxMegabytes) ? { maxBytes: bytesOf(draft.maxMegabytes) } : {}),
    ...(bytesOf(draft.maxFileMegabytes) ? { maxFileBytes: bytesOf(draft.maxFileMegabytes) } : {}),
    ...(types.length > 0 ? { allowedTypes: types } : {}),
    requireName: draft.requireName,
  };
}

/** What a request received, by who sent it: the files in its folder that came through it. */
function Received({ request }: { request: RequestView }) {
  const [folder, setFolder] = useState<FolderView | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api.folder(request.folderId).then(setFolder, setError);
  }, [request.folderId, request.files]);
  if (error) return <p class="muted">Its folder is gone.</p>;
  if (!folder) return null;
  const groups = new Map<string, { files: number; bytes: number }>();
  for (const file of folder.files) {
    if (file.request?.id !== request.id) continue;
    const who = file.request.uploaderName ?? 'Without a name';
    const group = groups.get(who) ?? { files: 0, bytes: 0 };
    group.files++;
    group.bytes += Number(file.size);
    groups.set(who, group);
  }
  if (groups.size === 0) return <p class="muted">Nothing received yet.</p>;
  return (
    <ul class="plain-list received" aria-label="Received, by who sent it">
      {[...groups].map(([who, { files, bytes }]) => (
        <li key={who}>
          <strong>{who}</strong>: {files} {files === 1 ? 'file' : 'files'}, {formatSize(String(bytes))}
        </li>
      ))}
    </ul>
  );
}

function RequestItem({ request, onChanged }: { request: RequestView; onChanged: () => void }) {
  const [busy, error, run] = useAction();
  const toggle = () => run(async () => (await api.updateRequest(request.id, { closed: request.state !== 'closed' }), onChanged()));
  const limits = [
    request.maxFiles !== null ? `${request.files} of ${request.maxFiles} files` : `${request.files} ${request.files === 1 ? 'file' : 'files'}`,
    request.maxBytes !== null ? `${formatSize(request.bytes)} of ${formatSize(request.maxBytes)}` : formatSize(request.bytes),
    ...(request.maxFileBytes !== null ? [`at most ${formatSize(request.maxFileBytes)} a file`] : []),
    ...(request.allowedTypes.length > 0 ? [request.allowedTypes.join(', ')] : []),
    ...(request.expiresAt ? [`until ${formatDate(request.expiresAt)}`] : []),
    ...(request.protected ? ['password'] : []),
    ...(request.requireName ? ['name asked'] : []),
  ];
  return (
    <li class="request-item">
      <div class="row spread">
        <strong>{request.name}</strong>
        <span class={`request-state state-${request.state}`}>{STATE_WORDS[request.state]}</span>
      </div>
      <p class="muted">{limits.join(' · ')}</p>
      <CopyField value={request.url} label="Request link" button="Copy link" />
      <MailSwitch label="Email me when files arrive" on={request.notify?.email ?? false} save={(email) => api.updateRequest(request.id, { notify: { email } })} />
      <Received request={request} />
      <div class="row">
        <button type="button" disabled={busy} onClick={() => void toggle()}>
          {request.state === 'closed' ? 'Reopen' : 'Close'}
        </button>
        <Link href={`/activity?request=${encodeURIComponent(request.id)}`}>Activity</Link>
        <ConfirmButton label="Delete" confirm="Delete this request? The files it received stay." onConfirm={() => run(async () => (await api.deleteRequest(request.id), onChanged()))} />
      </div>
      <ErrorNote error={error} />
    </li>
  );
}

export function RequestsPage() {
  const { data: requests, busy, error, run, reload } = usePageData('Requests', api.requests);
  const [folders, setFolders] = useState<FolderView[]>([]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  useEffect(() => {
    api.rootPage(null).then((root) => setFolders(root.folders), () => undefined);
  }, []);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.createRequest(inputOf(draft));
      setDraft(EMPTY);
      await reload();
    });
  };
  return (
    <>
      <Section title="New file request">
        <p class="muted">Anyone with the link can send you files, into one of your folders. They see nothing of yours.</p>
        <form class="stack request-form" onSubmit={create}>
          <label>
            Name
            <input required value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} />
          </label>
          <label>
            Message for the people who send
            <textarea rows={2} value={draft.message} onInput={(e) => set({ message: e.currentTarget.value })} />
          </label>
          <label>
            Folder
            <select value={draft.folderId} onChange={(e) => set({ folderId: e.currentTarget.value })}>
              <option value="">A new folder named after the request</option>
              {folders.map((folder) => (
                <option key={folder.id} value={folder.id}>
                  {folder.name}
                </option>
              ))}
            </select>
          </label>
          <div class="field-grid">
            <label>
              Password (optional)
              <input type="password" autoComplete="new-password" value={draft.password} onInput={(e) => set({ password: e.currentTarget.value })} />
            </label>
            <label>
              Expires
              <input type="datetime-local" value={draft.expiresAt} onInput={(e) => set({ expiresAt: e.currentTarget.value })} />
            </label>
          </div>
          <div class="field-grid">
            <label>
              Most files
              <input type="number" min={1} inputMode="numeric" value={draft.maxFiles} onInput={(e) => set({ maxFiles: e.currentTarget.value })} />
            </label>
            <label>
              Most MB in all
              <input type="number" min={0} step="any" value={draft.maxMegabytes} onInput={(e) => set({ maxMegabytes: e.currentTarget.value })} />
            </label>
            <label>
              Most MB per file
              <input type="number" min={0} step="any" value={draft.maxFileMegabytes} onInput={(e) => set({ maxFileMegabytes: e.currentTarget.value })} />
            </label>
          </div>
          <label>
            Types taken (comma-separated: image/*, application/pdf, .docx; empty: any)
            <input value={draft.allowedTypes} onInput={(e) => set({ allowedTypes: e.currentTarget.value })} />
          </label>
          <label class="check">
            <input type="checkbox" checked={draft.requireName} onChange={(e) => set({ requireName: e.currentTarget.checked })} />
            Ask who sends the files
          </label>
          <button type="submit" class="primary" disabled={busy}>
            Create request
          </button>
        </form>
        <ErrorNote error={error} />
      </Section>
      <Section title="Requests">
        {requests?.length === 0 && <p>No file requests yet.</p>}
        <ul class="plain-list">
          {requests?.map((request) => <RequestItem key={request.id} request={request} onChanged={() => void reload()} />)}
        </ul>
      </Section>
    </>
  );
}
