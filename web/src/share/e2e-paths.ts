import type { FileMetadata } from '../common/e2e/metadata.js';

/** The worker's script, and the paths it answers below a share's page (web/src/share/download-worker.ts). */
export const WORKER_SCRIPT = '/assets/download-worker.js';
export const WORKER_SCOPE = '/s/';
export const e2ePath = (shareId: string) => `/s/${encodeURIComponent(shareId)}`;
export const e2eUrl = (shareId: string, use: 'download' | 'inline') => `${e2ePath(shareId)}/e2e/${use}`;

/** What the page posts to the worker: a share's key and the file's opened metadata. */
export interface KeyMessage {
  type: 'coffer-e2e-key';
  shareId: string;
  key: Uint8Array;
  metadata: FileMetadata;
}
