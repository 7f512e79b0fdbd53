import { DetailedError, Upload } from 'tus-js-client';
import type { ErrorBody } from '../common/error-body.js';

/** One file on its way, as the page lists it. */
export interface Sending {
  key: string;
  name: string;
  size: number;
  sent: number;
  state: 'sending' | 'sent' | 'refused';
  problem?: { status: number; error?: string; message?: string };
}

export interface Sender {
  uploaderName: string;
  note: string;
}

const CHUNK = 16 * 1024 * 1024;

/**
 * Sends one file through tus (tus-js-client, already a dependency of Coffer): the upload starts below the request's
 * page, where its grant cookie goes (`/r/{id}/tus`), and goes on at the address the server hands back, which needs
 * no credential. tus-js-client keeps that address in localStorage under the file's fingerprint, so a connection that
 * drops, or a reload, resumes where the bytes stopped (HEAD, then PATCH from the offset) instead of starting over.
 * Retries come with growing pauses; a refusal (4xx other than 409/423/429) is final.
 */
export function sendFile(
  requestId: string,
  file: File,
  sender: Sender,
  report: (change: Partial<Sending>) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const metadata: Record<string, string> = { filename: file.name, filetype: file.type, requestId };
    if (sender.uploaderName) metadata['uploaderName'] = sender.uploaderName;
    if (sender.note) metadata['note'] = sender.note;
    const upload = new Upload(file, {
      endpoint: `/r/${encodeURIComponent(requestId)}/tus`,
      metadata,
      // Counts only when this page's own browser session is signed in (an owner trying their link); harmless otherwise.
      headers: { 'X-Coffer-CSRF': '1' },
      chunkSize: CHUNK,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      onShouldRetry: (err) => {
        const status = err instanceof DetailedError ? (err.originalResponse?.getStatus() ?? 0) : 0;
        return status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;
      },
      onProgress: (sent) => report({ sent }),
      onSuccess: () => {
        report({ sent: file.size, state: 'sent' });
        resolve();
      },
      onError: (err) => {
        report({ state: 'refused', problem: problemOf(err) });
        resolve();
      },
    });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      })
      .catch(() => undefined)
      .finally(() => upload.start());
  });
}

function problemOf(err: Error): Sending['problem'] {
  const response = err instanceof DetailedError ? err.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  let body: ErrorBody = {};
  try {
    body = JSON.parse(response?.getBody() ?? '') as ErrorBody;
  } catch {
    // not JSON: the status says enough
  }
  return { status, error: body.error, message: body.message };
}

/** Every file of what was dropped, folders walked to the bottom (their files sent one by one, flattened). */
export async function droppedFiles(items: DataTransferItemList): Promise<File[]> {
  const entries = [...items].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  const out: File[] = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.isFile) {
    out.push(await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject)));
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const child of batch) await walk(child, out);
  }
}
