import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import createClient from 'openapi-fetch';
import type { ErrorBody } from '../common/error-body.js';
import type { components, paths } from '../common/openapi-schema.gen.js';
import type { ErrorFacts } from './error-words.js';

/**
 * The one way the dashboard talks to the API: a client typed by the types openapi-typescript generates from
 * GET /api/openapi.json (`npm run openapi:types`; a test keeps the file equal to the served document). A change of
 * the API that this code does not follow fails `npm run typecheck`.
 */
type Schemas = components['schemas'];
export type FileView = Schemas['File'];
export type FolderView = Schemas['Folder'];
export type CollectionView = Schemas['Collection'];
export type PasteView = Schemas['Paste'];
export type ShareView = Schemas['Share'];
export type RequestView = Schemas['Request'];
export type RequestInput = NonNullable<paths['/api/request']['post']['requestBody']>['content']['application/json'];
export type RequestChange = NonNullable<paths['/api/request/{id}']['patch']['requestBody']>['content']['application/json'];
export type UsageView = Schemas['Usage'];
export type AdminUserView = Schemas['AdminUser'];
export type MeView = Schemas['Me'];
export type ProvidersView = Schemas['Providers'];
export type Persistence = Schemas['Session']['persistence'];
export type TokenView = Schemas['Token'];
export type PasskeyView = Schemas['Passkey'];
export type MfaRequiredView = Schemas['MfaRequired'];
export type CreatedTokenView = Schemas['CreatedToken'];
export type ActivityEventView = Schemas['ActivityEvent'];
export type WebhookView = Schemas['Webhook'];
export type CreatedWebhookView = Schemas['CreatedWebhook'];
export type DeliveryView = Schemas['WebhookDelivery'];
export type WebhookInput = NonNullable<paths['/api/webhook']['post']['requestBody']>['content']['application/json'];
export type SearchView = Schemas['Listing'];
export type ShareKind = ShareView['type'];
export type ShareOptions = Omit<NonNullable<paths['/api/share/{id}']['patch']['requestBody']>['content']['application/json'], never>;
export type LimitName = keyof UsageView;
type Limits = NonNullable<NonNullable<paths['/api/admin/users/{id}']['patch']['requestBody']>['content']['application/json']['limits']>;

/**
 * An answer in the API's one error shape, kept whole (issues, limit, wait, ...) so error-words.ts can say it in a
 * sentence for people; `message` stays the server's own, for logs and tests.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  get limit(): LimitName | null {
    return (this.details.limit as LimitName | null | undefined) ?? null;
  }

  /** For a reached limit: its maximum and what was in use when it refused (bytes as decimal strings). */
  get usage(): ErrorFacts['usage'] {
    return this.details.usage ?? null;
  }

  facts(): ErrorFacts {
    return { ...this.details, status: this.status, code: this.code, message: this.message };
  }
}

export type ErrorDetails = Omit<ErrorFacts, 'status' | 'code' | 'message'>;

/**
 * The session lives in an HttpOnly cookie the page cannot read; every request that changes something carries
 * X-Coffer-CSRF, without which the server refuses the cookie (docs/SECURITY.md, "Browser sessions").
 */
export const CSRF_HEADERS = { 'X-Coffer-CSRF': '1' };

const client = createClient<paths>({ headers: CSRF_HEADERS, credentials: 'same-origin', cache: 'no-store' });

/** An answer in the API's one error shape as an ApiError, keeping every detail a sentence may need. */
export function apiError(status: number, body: ErrorBody): ApiError {
  const usage = body.max !== undefined && body.current !== undefined ? { max: body.max, current: body.current } : null;
  const { issues, field, limit, retryAfter, maxBytes, shareId } = body;
  return new ApiError(status, body.error ?? 'failed', body.message ?? `The server answered ${status}.`, {
    issues,
    field,
    limit,
    usage,
    retryAfter,
    maxBytes,
    shareId,
  });
}

/** The answer's data, or an ApiError in the API's words; a network failure says so plainly. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'offline', 'The server could not be reached. Check your connection and try again.');
  }
  const { data, error, response } = result;
  if (!response.ok) {
    const body = (error ?? {}) as ErrorBody;
    const header = Number(response.headers.get('Retry-After'));
    throw apiError(response.status, body.retryAfter === undefined && header > 0 ? { ...body, retryAfter: header } : body);
  }
  return data as T;
}

const path = (id: string) => ({ params: { path: { id } } });

/** Every page of a paged listing (pastes, collections, tokens), following `Link: rel="next"`. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ data?: T[]; error?: unknown; response: Response }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = page(cursor);
    const { response } = await answer;
    items.push(...(await unwrap(answer)));
    cursor = parseNext(response.headers.get('Link')) ?? undefined;
  } while (cursor);
  return items;
}

/** The cursor of an RFC 8288 `rel="next"` link, or null on the last page. */
export function parseNext(link: string | null): string | null {
  const match = link ? /[?&]cursor=([^&>]+)[^>]*>;\s*rel="next"/.exec(link) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

const PAGE = '1000';

/**
 * WebAuthn's JSON as @simplewebauthn/browser types it, in the OpenAPI document's loose shape of it (the document
 * names the fields Coffer reads and lets the rest through; the options it answers are the same JSON, typed loosely).
 */
type CredentialBody = NonNullable<paths['/api/auth/passkeys']['post']['requestBody']>['content']['application/json']['response'];
const credential = (json: RegistrationResponseJSON | AuthenticationResponseJSON) => json as unknown as CredentialBody;

export const api = {
  /** Who this browser is signed in as (null when signed out: no error, so nothing in the console either). */
  session: () => unwrap(client.GET('/api/auth/session')),
  signIn: (username: string, password: string, register = false) =>
    unwrap(client.POST('/api/auth/session', { body: { username, password, register } })),
  signInMfa: (mfaToken: string, code: string) =>
    unwrap(client.POST('/api/auth/session/mfa', { body: { mfaToken, code } })),
  me: () => unwrap(client.GET('/api/auth/me')),
  /** How people sign in here: the password form, single sign-on. */
  providers: () => unwrap(client.GET('/api/auth/providers')),
  unlinkSso: () => unwrap(client.DELETE('/api/auth/oidc/link')),
  startTotp: () => unwrap(client.POST('/api/auth/mfa/totp')),
  confirmTotp: (code: string) => unwrap(client.POST('/api/auth/mfa/totp/confirm', { body: { code } })),
  turnOffTotp: (password: string, code: string) =>
    unwrap(client.DELETE('/api/auth/mfa/totp', { body: { password, code } })),
  newRecoveryCodes: (code: string) => unwrap(client.POST('/api/auth/mfa/recovery-codes', { body: { code } })),
  signOut: () => unwrap(client.POST('/api/auth/logout')),
  passkeySignInOptions: async () =>
    (await unwrap(client.POST('/api/auth/passkey/options'))) as unknown as PublicKeyCredentialRequestOptionsJSON,
  signInWithPasskey: (response: AuthenticationResponseJSON) =>
    unwrap(client.POST('/api/auth/session/passkey', { body: { response: credential(response) } })),
  secondStepOptions: async (mfaToken: string) =>
    (await unwrap(client.POST('/api/auth/login/mfa/options', { body: { mfaToken } }))) as unknown as PublicKeyCredentialRequestOptionsJSON,
  signInMfaPasskey: (mfaToken: string, passkey: AuthenticationResponseJSON) =>
    unwrap(client.POST('/api/auth/session/mfa', { body: { mfaToken, passkey: credential(passkey) } })),
  passkeys: () => unwrap(client.GET('/api/auth/passkeys')),
  passkeyOptions: async () =>
    (await unwrap(client.POST('/api/auth/passkeys/options'))) as unknown as PublicKeyCredentialCreationOptionsJSON,
  addPasskey: (name: string, response: RegistrationResponseJSON) =>
    unwrap(client.POST('/api/auth/passkeys', { body: { name, response: credential(response) } })),
  renamePasskey: (id: string, name: string) => unwrap(client.PATCH('/api/auth/passkeys/{id}', { ...path(id), body: { name } })),
  removePasskey: (id: string) => unwrap(client.DELETE('/api/auth/passkeys/{id}', path(id))),
  signOutEverywhere: () => unwrap(client.POST('/api/auth/logout/everywhere')),
  changePassword: (currentPassword: string, newPassword: string) =>
    unwrap(client.POST('/api/auth/password', { body: { currentPassword, newPassword } })),

  rootPage: (cursor: string | null) =>
    unwrap(client.GET('/api/folder', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
  folder: (id: string) => unwrap(client.GET('/api/folder/{id}', path(id))),
  createFolder: (name: string, parentId: string | null) => unwrap(client.POST('/api/folder', { body: { name, parentId } })),
  updateFolder: (id: string, change: { name?: string; parentId?: string | null }) =>
    unwrap(client.PATCH('/api/folder/{id}', { ...path(id), body: change })),
  deleteFolder: (id: string) => unwrap(client.DELETE('/api/folder/{id}', path(id))),
  file: (id: string) => unwrap(client.GET('/api/file/{id}', path(id))),
  updateFile: (id: string, change: { name?: string; folderId?: string | null }) =>
    unwrap(client.PATCH('/api/file/{id}', { ...path(id), body: change })),
  deleteFile: (id: string) => unwrap(client.DELETE('/api/file/{id}', path(id))),
  /** A plain link: the cookie is all a download or a preview needs. */
  contentUrl: (id: string) => `/api/file/${encodeURIComponent(id)}/content`,
  search: (query: string, folderId: string | null) =>
    unwrap(client.POST('/api/search', { body: { query, folderId, recursive: folderId !== null } })),

  shares: () => unwrap(client.GET('/api/share')),
  createShare: (type: ShareKind, id: string, options: ShareOptions) =>
    unwrap(client.POST('/api/share', { body: { type, id, ...options } })),
  updateShare: (id: string, options: ShareOptions) => unwrap(client.PATCH('/api/share/{id}', { ...path(id), body: options })),
  deleteShare: (id: string) => unwrap(client.DELETE('/api/share/{id}', path(id))),

  pastes: () => allPages((cursor) => client.GET('/api/paste', { params: { query: { limit: PAGE, cursor } } })),
  paste: (id: string) => unwrap(client.GET('/api/paste/{id}', path(id))),
  createPaste: (name: string, type: string, content: string) =>
    unwrap(client.POST('/api/paste', { body: { name, type, content } })),
  /** An end-to-end encrypted paste: `content` is already sealed; it is shared at once (its link carries the key). */
  createEncryptedPaste: (content: string) =>
    unwrap(client.POST('/api/paste', { body: { content, encrypted: true, share: true } })),
  deletePaste: (id: string) => unwrap(client.DELETE('/api/paste/{id}', path(id))),

  requests: () => allPages((cursor) => client.GET('/api/request', { params: { query: { limit: PAGE, cursor } } })),
  createRequest: (input: RequestInput) => unwrap(client.POST('/api/request', { body: input })),
  updateRequest: (id: string, change: RequestChange) => unwrap(client.PATCH('/api/request/{id}', { ...path(id), body: change })),
  deleteRequest: (id: string) => unwrap(client.DELETE('/api/request/{id}', path(id))),

  collections: () => allPages((cursor) => client.GET('/api/collection', { params: { query: { limit: PAGE, cursor } } })),
  collection: (id: string) => unwrap(client.GET('/api/collection/{id}', path(id))),
  createCollection: (name: string) => unwrap(client.POST('/api/collection', { body: { name } })),
  deleteCollection: (id: string) => unwrap(client.DELETE('/api/collection/{id}', path(id))),
  addToCollection: (id: string, fileId: string) =>
    unwrap(client.PUT('/api/collection/{id}/file/{fileId}', { params: { path: { id, fileId } } })),
  removeFromCollection: (id: string, fileId: string) =>
    unwrap(client.DELETE('/api/collection/{id}/file/{fileId}', { params: { path: { id, fileId } } })),

  usage: () => unwrap(client.GET('/api/usage/stats')),

  /** The newest `limit` events: all of yours, or one share's or request's. */
  activity: (target: { share?: string; request?: string }, limit = 200) => {
    const query = { params: { query: { limit: String(limit) } } };
    if (target.share) return unwrap(client.GET('/api/share/{id}/activity', { params: { path: { id: target.share }, query: { limit: String(limit) } } }));
    if (target.request) return unwrap(client.GET('/api/request/{id}/activity', { params: { path: { id: target.request }, query: { limit: String(limit) } } }));
    return unwrap(client.GET('/api/activity', query));
  },
  setEmail: (email: string | null) => unwrap(client.PATCH('/api/auth/me', { body: { email } })),
  webhooks: () => unwrap(client.GET('/api/webhook')),
  createWebhook: (input: WebhookInput) => unwrap(client.POST('/api/webhook', { body: input })),
  updateWebhook: (id: string, change: { enabled?: true }) => unwrap(client.PATCH('/api/webhook/{id}', { ...path(id), body: change })),
  deleteWebhook: (id: string) => unwrap(client.DELETE('/api/webhook/{id}', path(id))),
  testWebhook: (id: string) => unwrap(client.POST('/api/webhook/{id}/test', path(id))),
  deliveries: (id: string) => unwrap(client.GET('/api/webhook/{id}/deliveries', path(id))),

  tokens: () => allPages((cursor) => client.GET('/api/token', { params: { query: { limit: PAGE, cursor } } })),
  createToken: (name: string, scope: 'uploader' | 'dav' = 'uploader') => unwrap(client.POST('/api/token', { body: { name, scope } })),
  deleteToken: (id: string) => unwrap(client.DELETE('/api/token/{id}', path(id))),
  sharexConfig: (name: string) => unwrap(client.POST('/api/token/sharex', { body: { name } })),

  users: () => unwrap(client.GET('/api/admin/users')),
  createUser: (username: string, password: string, type: 'admin' | 'user') =>
    unwrap(client.POST('/api/admin/users', { body: { username, password, type } })),
  updateUser: (id: string, change: { type?: 'admin' | 'user'; password?: string; limits?: Limits }) =>
    unwrap(client.PATCH('/api/admin/users/{id}', { ...path(id), body: change })),
  deleteUser: (id: string) => unwrap(client.DELETE('/api/admin/users/{id}', path(id))),
  resetUserMfa: (id: string) => unwrap(client.DELETE('/api/admin/users/{id}/mfa', path(id))),
};
