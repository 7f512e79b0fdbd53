import { errorBody, retryAfterOf, type PageData, type PageShare } from './api.js';
import type { components } from '../common/openapi-schema.gen.js';
import { shareProblem } from './share-words.js';

export type FileView = components['schemas']['File'];
export type FolderView = components['schemas']['Folder'];
export type CollectionView = components['schemas']['Collection'];

/** Everything a share's page loads lives below its own path, where the unlock cookie goes along. */
export const pagePath = (id: string) => `/s/${encodeURIComponent(id)}`;

/** A file's bytes: the shared file itself, or one inside a shared folder or collection. */
export function fileUrl(shareId: string, fileId: string | null, use: 'preview' | 'download'): string {
  const path =
    fileId === null ? `${pagePath(shareId)}/content` : `${pagePath(shareId)}/files/${encodeURIComponent(fileId)}`;
  return use === 'preview' ? `${path}?preview=1` : path;
}

/** The zip of the whole share, or of one folder inside a folder share. */
export const archiveUrl = (shareId: string, folderId: string | null = null) =>
  folderId === null ? `${pagePath(shareId)}/archive` : `${folderPath(shareId, folderId)}/archive`;

/** A folder's own page inside a folder share; the shared folder itself is the share's page. */
export const folderPageUrl = (shareId: string, folderId: string | null) =>
  folderId === null ? pagePath(shareId) : `${pagePath(shareId)}/f/${encodeURIComponent(folderId)}`;

/** What a page's address names: the share, and on a folder's page (`/s/{id}/f/{folderId}`) that folder. */
export interface PageAddress {
  shareId: string;
  folderId: string | null;
}

/** The address of `/s/{id}` or `/s/{id}/f/{folderId}`, or null for any other path (a malformed escape included). */
export function pageAddressOf(path: string): PageAddress | null {
  const match = /^\/s\/([^/]+)(?:\/f\/([^/]+))?\/?$/.exec(path);
  if (!match?.[1]) return null;
  try {
    return { shareId: decodeURIComponent(match[1]), folderId: match[2] ? decodeURIComponent(match[2]) : null };
  } catch {
    return null;
  }
}

/** The data block the server wrote into the page: the share's state, and the share itself when it is open. */
export function readPageData(): PageData {
  const block = document.getElementById('page-data');
  try {
    return JSON.parse(block?.textContent ?? '') as PageData;
  } catch {
    return { state: 'not-found' };
  }
}

export type UnlockResult =
  | { kind: 'ok'; share: PageShare }
  | { kind: 'invalid' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'gone' }
  | { kind: 'failed'; message: string };

/** Sends the password in a POST body (never in an address); the answer sets the grant cookie for this share only. */
export async function unlock(id: string, password: string): Promise<UnlockResult> {
  let res: Response;
  try {
    res = await fetch(`${pagePath(id)}/unlock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ password }),
      cache: 'no-store',
    });
  } catch {
    return { kind: 'failed', message: shareProblem(0) };
  }
  if (res.ok) return { kind: 'ok', share: (await res.json()) as PageShare };
  const body = await errorBody(res);
  if (res.status === 429) return { kind: 'throttled', retryAfter: retryAfterOf(res, body) };
  if (res.status === 401) return { kind: 'invalid' };
  if (res.status === 410 || res.status === 404) return { kind: 'gone' };
  return { kind: 'failed', message: shareProblem(res.status) };
}

/** A folder inside the share with everything below it, or a collection's files; counts nothing. */
export async function loadJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { cache: 'no-store' }).catch(() => null);
  if (!res) throw new Error(shareProblem(0));
  if (!res.ok) throw new Error(shareProblem(res.status, retryAfterOf(res, await errorBody(res))));
  return (await res.json()) as T;
}

export const folderPath = (shareId: string, folderId: string) =>
  `${pagePath(shareId)}/folders/${encodeURIComponent(folderId)}`;
export const collectionPath = (shareId: string, collectionId: string) =>
  `${pagePath(shareId)}/collections/${encodeURIComponent(collectionId)}`;
