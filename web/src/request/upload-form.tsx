import { useEffect, useRef, useState } from 'preact/hooks';
import { formatSize } from '../common/format.js';
import type { OpenRequest } from './page-data.js';
import { droppedFiles, sendFile, type Sending } from './send.js';
import { refusalWords } from './words.js';

interface SentRecord {
  name: string;
  size: number;
  at: string;
}

const storageKey = (id: string) => `coffer-request-sent:${id}`;

function readSent(id: string): SentRecord[] {
  try {
    return JSON.parse(localStorage.getItem(storageKey(id)) ?? '[]') as SentRecord[];
  } catch {
    return [];
  }
}

/**
 * Who sends (when the request asks), a note, a drop zone and pickers for files and whole folders; each file goes on
 * its own with its progress, a sentence when it is refused, and the list of what this browser sent (kept in this
 * browser only: the server shows an uploader nothing back).
 */
export function UploadForm({ requestId, request }: { requestId: string; request: OpenRequest }) {
  const [uploaderName, setUploaderName] = useState('');
  const [note, setNote] = useState('');
  const [queue, setQueue] = useState<Sending[]>([]);
  const [sent, setSent] = useState<SentRecord[]>(() => readSent(requestId));
  const [problem, setProblem] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);

  useEffect(() => folder.current?.setAttribute('webkitdirectory', ''), []);

  const send = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    if (request.requireName && uploaderName.trim() === '') {
      setProblem('Enter your name first: this request asks who sends the files.');
      return;
    }
    setProblem(null);
    const batch = chosen.map((file, i): Sending => ({
      key: `${Date.now()}-${i}-${file.name}`,
      name: file.name,
      size: file.size,
      sent: 0,
      state: 'sending',
    }));
    setQueue((current) => [...batch, ...current]);
    // One file after another: the request's counts and the owner's upload slots are shared by everyone sending.
    for (const [i, file] of chosen.entries()) {
      const key = batch[i]!.key;
      const report = (change: Partial<Sending>) => {
        setQueue((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
        if (change.state === 'sent') {
          setSent((current) => {
            const next = [{ name: file.name, size: file.size, at: new Date().toISOString() }, ...current];
            localStorage.setItem(storageKey(requestId), JSON.stringify(next.slice(0, 500)));
            return next;
          });
        }
      };
      await sendFile(requestId, file, { uploaderName: uploaderName.trim(), note: note.trim() }, report);
    }
  };

  const picked = (input: HTMLInputElement | null) => {
    const chosen = [...(input?.files ?? [])];
    if (input) input.value = '';
    void send(chosen);
  };

  const drop = async (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const items = event.dataTransfer?.items;
    void send(items ? await droppedFiles(items) : [...(event.dataTransfer?.files ?? [])]);
  };

  return (
    <div class="upload-form">
      <div class="sender-fields">
        <label for="uploader-name">Your name{request.requireName ? '' : ' (optional)'}</label>
        <input
          id="uploader-name"
          type="text"
          autoComplete="name"
          maxLength={100}
          value={uploaderName}
          onInput={(event) => setUploaderName(event.currentTarget.value)}
          aria-required={request.requireName}
        />
        <label for="uploader-note">Note for {request.ownerName} (optional)</label>
        <textarea id="uploader-note" rows={2} maxLength={1000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
      </div>
      <div
        class={over ? 'drop-zone over' : 'drop-zone'}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => void drop(event)}
      >
        <p>Drop files or folders here, or</p>
        <div class="actions">
          <button class="button" type="button" onClick={() => files.current?.click()}>
            Choose files
          </button>
          <button class="button" type="button" onClick={() => folder.current?.click()}>
            Choose a folder
          </button>
        </div>
        <input ref={files} class="hidden-input" type="file" multiple tabIndex={-1} aria-hidden="true" onChange={(e) => picked(e.currentTarget)} />
        <input ref={folder} class="hidden-input" type="file" multiple tabIndex={-1} aria-hidden="true" onChange={(e) => picked(e.currentTarget)} />
      </div>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {queue.length > 0 && (
        <ul class="send-queue" aria-label="Files being sent">
          {queue.map((item) => (
            <li key={item.key} class={`send-item ${item.state}`}>
              <span class="file-name">{item.name}</span>
              {item.state === 'refused' ? (
                <span class="problem" role="alert">
                  {refusalWords(item.problem ?? { status: 0 })}
                </span>
              ) : (
                <>
                  <progress max={item.size || 1} value={item.state === 'sent' ? item.size || 1 : item.sent} aria-label={`${item.name} progress`} />
                  <span class="file-size">{item.state === 'sent' ? 'Sent' : `${formatSize(String(item.sent))} of ${formatSize(String(item.size))}`}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="sent-title" class="sent">
        <h2 id="sent-title">Sent from this browser</h2>
        {sent.length === 0 ? (
          <p class="note">Nothing yet.</p>
        ) : (
          <ul class="sent-list">
            {sent.map((record) => (
              <li key={`${record.at}-${record.name}`}>
                <span class="file-name">{record.name}</span> <span class="file-size">{formatSize(String(record.size))}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
