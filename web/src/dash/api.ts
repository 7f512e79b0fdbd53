import type {
  AdminUserView,
  CollectionView,
  CreatedTokenView,
  FileView,
  FolderView,
  MeView,
  PasteView,
  SearchView,
  ShareView,
  TokenView,
  UsageView,
} from '../../../src/application/views.js';

export type {
  AdminUserView,
  CollectionView,
  CreatedTokenView,
  FileView,
  FolderView,
  MeView,
  PasteView,
  SearchView,
  ShareView,
  TokenView,
  UsageView,
};

/** Every item that can be shared carries the address of its share's page once shared. */
export type Shared<T> = T & { url?: string };
export type ShareKind = ShareView['type'];
export type ShareOptions = {
  password?: string | null;
  expiresAt?: string | null;
  maxViews?: number | null;
  maxDownloads?: number | null;
};
export type LimitName = keyof UsageView;
export type Page<T> = { items: T[]; nextCursor: string | null };

/** An answer in the API's one error shape, kept whole so a page can name the limit that was reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly limit: LimitName | null = null,
  ) {
    super(message);
  }
}

/**
 * The session lives in an HttpOnly cookie the page cannot read; every request that changes something carries
 * X-Coffer-CSRF, without which the server refuses the cookie (docs/SECURITY.md, "Browser sessions").
 */
export const CSRF_HEADERS = { 'X-Coffer-CSRF': '1' };

async function failure(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as { error?: string; message?: string; limit?: LimitName };
  return new ApiError(res.status, body.error ?? 'failed', body.message ?? `The server answered ${res.status}.`, body.limit);
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...CSRF_HEADERS };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'offline', 'The server could not be reached. Check your connection and try again.');
  }
  if (!res.ok) throw await failure(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

const id = (value: string) => encodeURIComponent(value);

async function allPages<T>(path: string, key?: 'files' | 'folders'): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res: Response = await fetch(path + query, { credentials: 'same-origin', cache: 'no-store' });
    if (!res.ok) throw await failure(res);
    cursor = parseNext(res.headers.get('Link'));
    const body = (await res.json()) as T[] | Record<string, T[]>;
    items.push(...(Array.isArray(body) ? body : (body[key ?? 'files'] ?? [])));
  } while (cursor);
  return items;
}

/** The cursor of an RFC 8288 `rel="next"` link, or null on the last page. */
export function parseNext(link: string | null): string | null {
  const match = link ? /[?&]cursor=([^&>]+)[^>]*>;\s*rel="next"/.exec(link) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

export const api = {
  /** Who this browser is signed in as; null when signed out (no error, so nothing in the console either). */
  session: async () => (await call<{ user: MeView | null }>('GET', '/api/auth/session')).user,
  signIn: (username: string, password: string, register = false) =>
    call<MeView>('POST', '/api/auth/session', { username, password, register }),
  signOut: () => call<void>('POST', '/api/auth/logout'),
  signOutEverywhere: () => call<void>('POST', '/api/auth/logout/everywhere'),
  changePassword: (currentPassword: string, newPassword: string) =>
    call<void>('POST', '/api/auth/password', { currentPassword, newPassword }),

  rootPage: (cursor: string | null) =>
    call<{ files: Shared<FileView>[]; folders: Shared<FolderView>[]; nextCursor: string | null }>(
      'GET',
      `/api/folder?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    ),
  folder: (folderId: string) => call<Shared<FolderView>>('GET', `/api/folder/${id(folderId)}`),
  createFolder: (name: string, parentId: string | null) => call<FolderView>('POST', '/api/folder', { name, parentId }),
  updateFolder: (folderId: string, change: { name?: string; parentId?: string | null }) =>
    call<FolderView>('PATCH', `/api/folder/${id(folderId)}`, change),
  deleteFolder: (folderId: string) => call<void>('DELETE', `/api/folder/${id(folderId)}`),
  updateFile: (fileId: string, change: { name?: string; folderId?: string | null }) =>
    call<FileView>('PATCH', `/api/file/${id(fileId)}`, change),
  deleteFile: (fileId: string) => call<void>('DELETE', `/api/file/${id(fileId)}`),
  contentUrl: (fileId: string) => `/api/file/${id(fileId)}/content`,
  search: (query: string, folderId: string | null) =>
    call<SearchView>('POST', '/api/search', { query, folderId, recursive: folderId !== null }),

  shares: () => call<Shared<ShareView>[]>('GET', '/api/share'),
  createShare: (type: ShareKind, itemId: string, options: ShareOptions) =>
    call<Shared<ShareView>>('POST', '/api/share', { type, id: itemId, ...options }),
  updateShare: (shareId: string, options: ShareOptions) =>
    call<Shared<ShareView>>('PATCH', `/api/share/${id(shareId)}`, options),
  deleteShare: (shareId: string) => call<void>('DELETE', `/api/share/${id(shareId)}`),

  pastes: () => allPages<Shared<PasteView>>('/api/paste'),
  createPaste: (name: string, type: string, content: string) =>
    call<PasteView>('POST', '/api/paste', { name, type, content }),
  deletePaste: (pasteId: string) => call<void>('DELETE', `/api/paste/${id(pasteId)}`),

  collections: () => allPages<Shared<CollectionView>>('/api/collection'),
  collection: (collectionId: string) => call<Shared<CollectionView>>('GET', `/api/collection/${id(collectionId)}`),
  createCollection: (name: string) => call<CollectionView>('POST', '/api/collection', { name }),
  deleteCollection: (collectionId: string) => call<void>('DELETE', `/api/collection/${id(collectionId)}`),
  addToCollection: (collectionId: string, fileId: string) =>
    call<void>('PUT', `/api/collection/${id(collectionId)}/file/${id(fileId)}`),
  removeFromCollection: (collectionId: string, fileId: string) =>
    call<void>('DELETE', `/api/collection/${id(collectionId)}/file/${id(fileId)}`),

  usage: () => call<UsageView>('GET', '/api/usage/stats'),

  tokens: () => allPages<TokenView>('/api/token'),
  createToken: (name: string) => call<CreatedTokenView>('POST', '/api/token', { name }),
  deleteToken: (tokenId: string) => call<void>('DELETE', `/api/token/${id(tokenId)}`),
  sharexConfig: (name: string) => call<unknown>('POST', '/api/token/sharex', { name }),

  users: () => call<AdminUserView[]>('GET', '/api/admin/users'),
  createUser: (username: string, password: string, type: 'admin' | 'user') =>
    call<AdminUserView>('POST', '/api/admin/users', { username, password, type }),
  updateUser: (
    userId: string,
    change: { type?: 'admin' | 'user'; password?: string; limits?: Partial<Record<LimitName, string | number | null>> },
  ) => call<AdminUserView>('PATCH', `/api/admin/users/${id(userId)}`, change),
  deleteUser: (userId: string) => call<void>('DELETE', `/api/admin/users/${id(userId)}`),
};
