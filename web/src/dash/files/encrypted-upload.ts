import { Upload, type DetailedError } from 'tus-js-client';
import { cipherLength, encryptStream } from '../../common/e2e/ece.js';
import { keyFragment, newFileKey } from '../../common/e2e/file-key.js';
import { sealMetadata } from '../../common/e2e/metadata.js';
import { CSRF_HEADERS } from '../api.js';
import { keepKey } from '../e2e-keys.js';
import { CHUNK_BYTES, ENDPOINT, RETRY_DELAYS, RETRY_STATUSES, errorOf, type Progress } from './upload.js';

export interface RunningEncryptedUpload {
  /** The new file's id and its share link with the key, once every byte is in (the key is kept in this browser). */
  done: Promise<{ fileId: string; link: string }>;
  cancel(): void;
}

/**
 * Encrypts a file while tus-js-client streams it (a reader of the encrypted stream as its source: only the chunk in
 * flight is held, so a 2 GB file never sits whole in memory), shares it, and keeps its key. The ciphertext's length
 * is known up front (docs/API.md, "End-to-end encrypted files"). It cannot resume after a reload: the key and salt
 * would be new.
 */
export function startEncryptedUpload(file: File, folderId: string | null, onProgress: (p: Progress) => void): RunningEncryptedUpload {
  let upload: Upload | null = null;
  const done = (async () => {
    const key = newFileKey();
    const encryptedMetadata = await sealMetadata(key, { name: file.name, type: file.type || 'application/octet-stream', size: file.size });
    const reader = file.stream().pipeThrough(encryptStream(key)).getReader();
    const total = cipherLength(file.size);
    const { fileId, shareUrl } = await new Promise<{ fileId: string; shareUrl: string }>((resolve, reject) => {
      upload = new Upload(reader, {
        endpoint: ENDPOINT,
        uploadSize: total,
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS,
        headers: CSRF_HEADERS,
        metadata: { share: 'true', encryptedMetadata, ...(folderId ? { folderId } : {}) },
        storeFingerprintForResuming: false,
        onShouldRetry: (err) => RETRY_STATUSES.has((err as DetailedError).originalResponse?.getStatus() ?? 0),
        // Progress in plaintext bytes, as the queue shows the file's own size.
        onProgress: (sent) => onProgress({ sent: Math.min(file.size, Math.round((sent / total) * file.size)), total: file.size }),
        onSuccess: ({ lastResponse }) =>
          resolve({ fileId: lastResponse.getHeader('X-File-Id') ?? '', shareUrl: lastResponse.getHeader('X-Share-Url') ?? '' }),
        onError: (err) => reject(errorOf(err)),
      });
      upload.start();
    });
    const link = `${shareUrl}${keyFragment(key)}`;
    await keepKey({ fileId, link }).catch(() => undefined);
    return { fileId, link };
  })();
  return {
    done,
    cancel: () => void (upload as Upload | null)?.abort(true).catch(() => undefined),
  };
}
