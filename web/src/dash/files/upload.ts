import { Upload, type DetailedError } from 'tus-js-client';
import type { ErrorBody } from '../../common/error-body.js';
import { ApiError, apiError, CSRF_HEADERS } from '../api.js';

export interface Progress {
  sent: number;
  total: number;
}

export interface RunningUpload {
  /** The new file's id once every byte is in. */
  done: Promise<string>;
  cancel(): void;
}

export const ENDPOINT = '/api/upload/tus';
/** Bytes per request: a proxy's body limit is rarely below this, and a retry after a cut resends at most this. */
export const CHUNK_BYTES = 16 * 1024 * 1024;
/**
 * Waits between retries after a dropped connection or a server hiccup, about a minute in all before giving up. The
 * first waits a moment: the server may still be storing what arrived before the cut (it answers 409 until then).
 */
export const RETRY_DELAYS = [500, 1000, 3000, 5000, 10_000, 20_000, 20_000];
/** Answers worth another try: none at all (the network), a conflict of offsets, throttling, a server fault. */
export const RETRY_STATUSES = new Set([0, 409, 423, 429, 500, 502, 503, 504]);

export function errorOf(err: Error): ApiError {
  const response = (err as DetailedError).originalResponse;
  if (!response) return new ApiError(0, 'offline', 'The connection was lost and the upload could not resume. Try again.');
  const status = response.getStatus();
  try {
    return apiError(status, JSON.parse(response.getBody()) as ErrorBody);
  } catch {
    return new ApiError(status, 'failed', `The upload failed (${status}).`);
  }
}

/**
 * Sends one file through the tus endpoint (tus-js-client): in chunks, resuming where the server says it stands after
 * a dropped connection, and after a reload too when the same file is picked again into the same folder (the browser
 * remembers the upload's address, keyed by the file and the folder). The one function the upload queue calls.
 */
export function startUpload(file: File, folderId: string | null, onProgress: (p: Progress) => void): RunningUpload {
  let upload: Upload | null = null;
  const done = new Promise<string>((resolve, reject) => {
    const started = new Upload(file, {
      endpoint: ENDPOINT,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      headers: CSRF_HEADERS,
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream', ...(folderId ? { folderId } : {}) },
      fingerprint: async (f: File) => ['coffer', folderId ?? 'top', f.name, f.type, f.size, f.lastModified].join('|'),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onShouldRetry: (err) => RETRY_STATUSES.has((err as DetailedError).originalResponse?.getStatus() ?? 0),
      onProgress: (sent, total) => onProgress({ sent, total }),
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('X-File-Id') ?? ''),
      onError: (err) => reject(errorOf(err)),
    });
    upload = started;
    started.findPreviousUploads().then((previous) => {
      const last = previous[0];
      if (last) started.resumeFromPreviousUpload(last);
      started.start();
    }, reject);
  });
  return {
    done,
    cancel: () => {
      // true: also delete what the server holds, so a cancelled upload leaves neither bytes nor counts behind.
      void upload?.abort(true).catch(() => undefined);
    },
  };
}
