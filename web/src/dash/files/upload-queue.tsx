import { useRef, useState } from 'preact/hooks';
import { formatCount, formatSize } from '../../common/format.js';
import { api, ApiError } from '../api.js';
import { describeError } from '../ui.js';
import type { Picked } from './collect.js';
import { assertRoom, folderPaths } from './quota.js';
import { startEncryptedUpload } from './encrypted-upload.js';
import { startUpload } from './upload.js';

type Status = 'waiting' | 'sending' | 'done' | 'failed' | 'cancelled';

export interface QueueItem {
  key: number;
  name: string;
  size: number;
  sent: number;
  /** Bytes per second over the upload so far. */
  speed: number;
  status: Status;
  error: string | null;
  /** Encrypted end to end: the share link with its key, once uploaded. */
  link?: string | null;
  encrypted?: boolean;
}

const PARALLEL = 2;

/** Creates the dropped folder tree under `parentId` once, and says which folder each path landed in. */
async function makeFolders(picked: Picked[], parentId: string | null): Promise<Map<string, string | null>> {
  const ids = new Map<string, string | null>([['', parentId]]);
  for (const path of folderPaths(picked)) {
    const parent = ids.get(path.slice(0, -1).join('/')) ?? parentId;
    const folder = await api.createFolder(path[path.length - 1] ?? 'folder', parent);
    ids.set(path.join('/'), folder.id);
  }
  return ids;
}

/** A limit refusal that did not say how much room is left gets the figures from the usage counters. */
async function withRoom(err: unknown): Promise<unknown> {
  if (!(err instanceof ApiError) || err.code !== 'limit_reached' || !err.limit || err.usage) return err;
  try {
    const counter = (await api.usage())[err.limit];
    return new ApiError(err.status, err.code, err.message, { ...err.details, usage: counter });
  } catch {
    return err;
  }
}

/** The upload queue: a few files at a time, each with progress, speed and a cancel of its own. */
export function useUploads(onUploaded: () => void) {
  const [items, setItems] = useState<QueueItem[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const running = useRef(new Map<number, { cancel(): void }>());
  const cancelled = useRef(new Set<number>());
  const nextKey = useRef(1);

  const update = (key: number, change: Partial<QueueItem>) =>
    setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const send = async (key: number, file: File, folderId: string | null, encrypt: boolean) => {
    if (cancelled.current.has(key)) return;
    const started = performance.now();
    update(key, { status: 'sending' });
    const progress = ({ sent }: { sent: number }) =>
      update(key, { sent, speed: sent / Math.max(0.001, (performance.now() - started) / 1000) });
    const upload = encrypt ? startEncryptedUpload(file, folderId, progress) : startUpload(file, folderId, progress);
    running.current.set(key, upload);
    try {
      const result = await upload.done;
      const link = typeof result === 'object' ? result.link : null;
      update(key, { status: 'done', sent: file.size, link });
      if (link) await navigator.clipboard?.writeText(link).catch(() => undefined);
      onUploaded();
    } catch (err) {
      update(key, cancelled.current.has(key) ? { status: 'cancelled' } : { status: 'failed', error: describeError(await withRoom(err)) });
    } finally {
      running.current.delete(key);
    }
  };

  const enqueue = async (picked: Picked[], folderId: string | null, encrypt = false) => {
    setRefusal(null);
    if (picked.length === 0) return;
    try {
      await assertRoom(picked);
    } catch (err) {
      setRefusal(describeError(err));
      return;
    }
    const jobs = picked.map(({ file, dirs }) => ({ key: nextKey.current++, file, dirs }));
    setItems((all) => [
      ...all,
      ...jobs.map(({ key, file }) => ({ key, name: file.name, size: file.size, sent: 0, speed: 0, status: 'waiting' as const, error: null, encrypted: encrypt })),
    ]);
    let folders: Map<string, string | null>;
    try {
      folders = await makeFolders(picked, folderId);
    } catch (err) {
      setRefusal(describeError(err));
      for (const { key } of jobs) update(key, { status: 'failed', error: 'Not uploaded: its folder could not be created.' });
      return;
    }
    if (folders.size > 1) onUploaded();
    const waiting = [...jobs];
    const worker = async () => {
      for (let job = waiting.shift(); job; job = waiting.shift()) {
        await send(job.key, job.file, folders.get(job.dirs.join('/')) ?? folderId, encrypt);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  };

  const cancel = (key: number) => {
    cancelled.current.add(key);
    running.current.get(key)?.cancel();
    update(key, { status: 'cancelled' });
  };
  const clearFinished = () => setItems((all) => all.filter((item) => item.status === 'waiting' || item.status === 'sending'));

  return { items, refusal, enqueue, cancel, clearFinished };
}

const STATUS_TEXT: Record<Status, string> = {
  waiting: 'Waiting',
  sending: 'Uploading',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The link of a file encrypted end to end: its key is in it and nowhere on the server. */
function EncryptedLink({ link, name }: { link: string; name: string }) {
  const [copied, setCopied] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(link).then(
      () => setCopied('Copied.'),
      () => setCopied('Select the link and copy it by hand.'),
    );
  return (
    <span class="encrypted-link">
      <input readOnly value={link} aria-label={`Link with key of ${name}`} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={copy}>
        Copy link with key
      </button>
      <span role="status">{copied}</span>
    </span>
  );
}

function UploadRow({ item, onCancel }: { item: QueueItem; onCancel: (key: number) => void }) {
  return (
    <li class={`upload upload-${item.status}`}>
      <span class="name">{item.name}</span>
      <progress max={item.size || 1} value={item.sent} aria-label={`Upload of ${item.name}`} />
      <span class="muted">
        {STATUS_TEXT[item.status]}
        {item.status === 'sending' && ` · ${formatSize(String(item.sent))} of ${formatSize(String(item.size))} · ${formatSize(String(Math.round(item.speed)))}/s`}
      </span>
      {item.error && <span class="problem">{item.error}</span>}
      {item.link && <EncryptedLink link={item.link} name={item.name} />}
      {(item.status === 'waiting' || item.status === 'sending') && (
        <button type="button" onClick={() => onCancel(item.key)} aria-label={`Cancel ${item.name}`}>
          Cancel
        </button>
      )}
    </li>
  );
}

/**
 * What is uploading stays on top (sending, then waiting), failures below it with their sentence, and whatever has
 * finished folds into one line with its count, so the upload still running never scrolls out of sight.
 */
export function UploadList({ queue }: { queue: ReturnType<typeof useUploads> }) {
  const { items, refusal, cancel, clearFinished } = queue;
  if (items.length === 0 && !refusal) return null;
  const having = (...statuses: Status[]) => items.filter((item) => statuses.includes(item.status));
  // An encrypted upload's link (its key is nowhere else) stays in sight until the finished ones are cleared.
  const linked = items.filter((item) => item.status === 'done' && item.link);
  const open = [...having('sending'), ...having('waiting'), ...having('failed'), ...linked];
  const finished = having('done', 'cancelled').filter((item) => !linked.includes(item));
  const cancelled = having('cancelled').length;
  return (
    <section class="uploads" aria-label="Uploads">
      {items.length > 0 && (
        <p class="muted" role="status">
          {having('done').length} of {items.length} uploaded
          {having('failed').length > 0 && `, ${having('failed').length} failed`}
          {cancelled > 0 && `, ${cancelled} cancelled`}
        </p>
      )}
      {refusal && (
        <p class="problem" role="alert">
          {refusal}
        </p>
      )}
      {open.length > 0 && (
        <ul class="plain-list upload-list">
          {open.map((item) => (
            <UploadRow key={item.key} item={item} onCancel={cancel} />
          ))}
        </ul>
      )}
      {finished.length > 0 && (
        <details class="finished-uploads">
          <summary>
            {formatCount(finished.length, 'finished', 'finished')}
            {cancelled > 0 && ` (${cancelled} cancelled)`}
          </summary>
          <ul class="plain-list upload-list">
            {finished.map((item) => (
              <UploadRow key={item.key} item={item} onCancel={cancel} />
            ))}
          </ul>
        </details>
      )}
      {finished.length + linked.length + having('failed').length > 0 && (
        <button type="button" onClick={clearFinished}>
          Clear finished
        </button>
      )}
    </section>
  );
}
