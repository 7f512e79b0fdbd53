import type { z } from 'zod';
import { pageQuery } from '../routes/paging.js';
import { DASHBOARD_PATHS } from '../routes/dashboard-paths.js';
import { UPLOAD_FORM } from '../uploads/upload-fields.js';
import * as body from '../validation.js';

/** Who may call a route: the token types it accepts (`x-token-types`), or none. */
export type Access =
  /** No token needed; one that is sent must be valid. */
  | 'public'
  /** A session token (login or register). */
  | 'session'
  /** A session token or an uploader (API) token. */
  | 'session-or-uploader'
  /** An admin's session token. */
  | 'admin'
  /** A session token, or instead of one `X-Share-Id` (and `X-Share-Password`) of a share that reaches the item. */
  | 'session-or-share'
  /** A share's page and what it loads: public; a protected share wants the grant cookie its unlock set. */
  | 'share-page';

/** A response: a component's name, bytes of a stored item, an HTML page, or nothing; and the headers it carries. */
export type Answer = {
  status: number;
  description: string;
  schema?: string;
  body?: 'bytes' | 'html' | 'asset' | 'zip';
  /** Response headers worth naming, with what they carry. */
  headers?: Record<string, string>;
};

/** A request header an operation reads (beyond Authorization and the share headers). */
export interface RequestHeader {
  name: string;
  description: string;
  required?: true;
  integer?: true;
}

export interface Operation {
  method: 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';
  /** OpenAPI's template: `{id}` where the router has `:id`. */
  path: string;
  tag: string;
  summary: string;
  access: Access;
  /** The query parameters a route validates: adding one to a route is one schema here. */
  query?: z.ZodObject;
  json?: z.ZodType;
  multipart?: z.ZodObject;
  /** A raw body of this media type (tus appends). */
  bytes?: string;
  headers?: RequestHeader[];
  ok: Answer[];
  /** Error statuses, all answered in the one error shape. */
  errors: number[];
  /** Headers every error answer of the operation carries too. */
  errorHeaders?: Record<string, string>;
  /** Only served when the front end is built (webDir). */
  web?: true;
}

const BYTES_OK: Answer[] = [
  { status: 200, description: 'The whole content', body: 'bytes' },
  { status: 206, description: 'One range of the content (`Content-Range`)', body: 'bytes' },
  { status: 304, description: 'Not modified (`If-None-Match` / `If-Modified-Since`)' },
];
/** The page's bytes, preview or not, are answered as every download is (responses/send-file-content.ts): PDF is an attachment too. */
const PREVIEW_POLICY = {
  'Content-Security-Policy': '`sandbox`',
  'X-Content-Type-Options': '`nosniff`',
};
const PREVIEW_BYTES_OK: Answer[] = BYTES_OK.map((answer) => ({ ...answer, headers: PREVIEW_POLICY }));
const PAGE_OK: Answer[] = [
  { status: 200, description: 'The page: an open share, or the password form of a protected one', body: 'html' },
  { status: 404, description: 'The page saying the share does not exist', body: 'html' },
  { status: 410, description: 'The page saying the share expired or reached a maximum', body: 'html' },
  { status: 429, description: 'The page saying to wait (`Retry-After`): too many unknown ids', body: 'html' },
];
const FOLDER_PAGE_OK: Answer[] = PAGE_OK.map((answer) =>
  answer.status === 404
    ? { ...answer, description: 'The "not found" page: no such share, or a folder it does not reach (not a folder share, outside it, unknown)' }
    : answer,
);
const GRANT = 'The grant for this share only: `coffer_share`, Path=/s/{id}, HttpOnly, SameSite=Strict, Max-Age';
const PAGE_READ = [400, 401, 404, 410, 429];
const one = (schema: string, status = 200, description = schema): Answer[] => [{ status, description, schema }];
const none: Answer[] = [{ status: 204, description: 'Done; no body' }];
const owned = [400, 401, 403, 404];

// tus 1.0 (resumable uploads): the headers of the protocol, as the routes in routes/tus.ts read and answer them.
const TUS_RESUMABLE: RequestHeader = { name: 'Tus-Resumable', description: 'The protocol version: `1.0.0` (else 412)', required: true };
const TUS_ANSWER = { 'Tus-Resumable': '`1.0.0`' };
const TUS_STATE = {
  ...TUS_ANSWER,
  'Upload-Offset': 'Bytes received so far',
  'Upload-Expires': 'When the upload expires unless more bytes come (RFC 7231 date); absent once complete',
  'X-File-Id': 'Once complete: the id of the file it became (the upload\'s own id)',
  'X-Share-Id': 'Once complete, when the upload asked for a share (`share=true`): the id of its file\'s share',
  'X-Share-Url': 'With `X-Share-Id`: the share\'s page, `{public base}/s/{shareId}` (the `url` the API gives)',
};
const TUS_ERRORS = { ...TUS_ANSWER, 'Tus-Version': 'On 412: the version the server speaks, `1.0.0`' };
const CHECKSUM: RequestHeader = { name: 'Upload-Checksum', description: '`sha1 <base64 digest>` of this request\'s bytes (else 460, nothing stored)' };
const TUS_PATH = '/api/upload/tus';
const TUS_DISCOVERY: Answer[] = [
  {
    status: 204,
    description: 'The protocol the server speaks (no token needed)',
    headers: {
      'Tus-Resumable': '`1.0.0`',
      'Tus-Version': '`1.0.0`',
      'Tus-Extension': '`creation,creation-with-upload,termination,expiration,checksum`',
      'Tus-Max-Size': 'MAX_UPLOAD_BYTES',
      'Tus-Checksum-Algorithm': '`sha1`',
    },
  },
];
const read = [400, 401, 403, 404, 410, 429];
const SHELL_OK: Answer[] = [{ status: 200, description: 'HTML', body: 'html' }, { status: 304, description: 'Not modified' }];

/** The dashboard's pages: one shell for each of its paths (the page itself reads the path). */
const dashboardPages: Operation[] = DASHBOARD_PATHS.map((path) => ({
  method: 'get',
  path: path.replace(/:(\w+)/g, '{$1}'),
  tag: 'web',
  summary: 'A page of the dashboard (the front end\'s shell)',
  access: 'public',
  ok: SHELL_OK,
  errors: [503],
  web: true,
}));

/** Second factors (routes/mfa.ts): one block, to move beside its routes as the others are. */
const mfaOperations: Operation[] = [
  { method: 'post', path: '/api/auth/mfa/totp', tag: 'auth', summary: 'Set up TOTP: a new key, pending until confirmed (409 while TOTP is on)', access: 'session', ok: one('TotpSetup'), errors: [401, 403, 409] },
  { method: 'post', path: '/api/auth/mfa/totp/confirm', tag: 'auth', summary: 'Turn TOTP on with a code of the pending key: 10 recovery codes, shown once; ends your other sessions', access: 'session', json: body.mfaCodeBody, ok: one('RecoveryCodes'), errors: [400, 401, 403, 409, 413] },
  { method: 'delete', path: '/api/auth/mfa/totp', tag: 'auth', summary: 'Turn TOTP off (and its recovery codes): the password and a TOTP or recovery code', access: 'session', json: body.totpOffBody, ok: none, errors: [400, 401, 403, 409, 413, 429] },
  { method: 'post', path: '/api/auth/mfa/recovery-codes', tag: 'auth', summary: '10 new recovery codes for a TOTP or recovery code; the old ones stop working', access: 'session', json: body.mfaCodeBody, ok: one('RecoveryCodes'), errors: [400, 401, 403, 409, 413, 429] },
  { method: 'post', path: '/api/auth/login/mfa', tag: 'auth', summary: 'Finish a login with its mfaToken and a TOTP or recovery code: a session token', access: 'public', json: body.mfaLoginBody, ok: one('LoginResult'), errors: [400, 401, 413, 429] },
  { method: 'post', path: '/api/auth/session/mfa', tag: 'auth', summary: 'Finish a browser sign-in with its mfaToken and a code: the session goes into the HttpOnly cookie', access: 'public', json: body.mfaLoginBody, ok: one('Me'), errors: [400, 401, 403, 413, 429] },
  { method: 'delete', path: '/api/admin/users/{id}/mfa', tag: 'admin', summary: 'Turn every second factor of a user off', access: 'admin', ok: none, errors: owned },
];

/** Every route the HTTP adapter answers. The coverage test holds this list to the router's own. */
export const OPERATIONS: Operation[] = [
  { method: 'get', path: '/health', tag: 'health', summary: 'Liveness and the persistence in use', access: 'public', ok: one('Health'), errors: [] },
  { method: 'get', path: '/api/openapi.json', tag: 'reference', summary: 'This document', access: 'public', ok: [{ status: 200, description: 'The OpenAPI 3.1 document' }], errors: [] },
  { method: 'get', path: '/api/docs', tag: 'reference', summary: 'The API reference page', access: 'public', ok: [{ status: 200, description: 'HTML', body: 'html' }], errors: [] },
  { method: 'get', path: '/api/docs/{name}', tag: 'reference', summary: 'A script or style of the reference page', access: 'public', ok: [{ status: 200, description: 'The asset', body: 'asset' }], errors: [404] },

  { method: 'post', path: '/api/auth/login', tag: 'auth', summary: 'Log in: a session token, or MfaRequired for a user with a second factor', access: 'public', json: body.credentialsBody, ok: one('LoginAnswer'), errors: [400, 401, 413, 429] },
  { method: 'post', path: '/api/auth/register', tag: 'auth', summary: 'Create an account (REGISTRATION=open)', access: 'public', json: body.credentialsBody, ok: one('LoginResult', 201), errors: [400, 403, 409, 413, 429] },
  { method: 'post', path: '/api/auth/logout', tag: 'auth', summary: 'Revoke the session token presented (and clear the browser session\'s cookie)', access: 'session', ok: none, errors: [401, 403] },
  { method: 'post', path: '/api/auth/logout/everywhere', tag: 'auth', summary: 'Revoke every session of the user; API tokens stay', access: 'session', ok: none, errors: [401, 403] },
  { method: 'post', path: '/api/auth/session', tag: 'auth', summary: 'Sign a browser in (or up, register: true): the session goes into an HttpOnly cookie, never into the answer', access: 'public', json: body.browserSessionBody, ok: [{ status: 200, description: 'Me (the cookie is set), or MfaRequired (no cookie yet)', schema: 'SessionAnswer' }, ...one('Me', 201, 'Me (registered)')], errors: [400, 401, 403, 409, 413, 429] },
  { method: 'get', path: '/api/auth/session', tag: 'auth', summary: 'Who the browser is signed in as (null when no one)', access: 'public', ok: one('Session'), errors: [401] },
  { method: 'post', path: '/api/auth/password', tag: 'auth', summary: 'Change your own password; ends your other sessions', access: 'session', json: body.passwordChangeBody, ok: none, errors: [400, 401, 403, 409, 413, 429] },
  { method: 'get', path: '/api/auth/me', tag: 'auth', summary: 'The user of the token', access: 'session', ok: one('Me'), errors: [401, 403] },

  ...mfaOperations,

  { method: 'post', path: '/api/token', tag: 'tokens', summary: 'Create an uploader (API) token', access: 'session', json: body.tokenCreateBody, ok: one('CreatedToken', 201), errors: [400, 401, 403, 413] },
  { method: 'post', path: '/api/token/sharex', tag: 'tokens', summary: 'Create an uploader token inside a ShareX config', access: 'session', json: body.tokenCreateBody, ok: one('SharexConfig', 201), errors: [400, 401, 403, 413] },
  { method: 'get', path: '/api/token', tag: 'tokens', summary: 'Your API tokens', access: 'session', query: pageQuery, ok: one('Token[]'), errors: [400, 401, 403] },
  { method: 'delete', path: '/api/token/{id}', tag: 'tokens', summary: 'Revoke an API token', access: 'session', ok: none, errors: owned },

  { method: 'post', path: '/api/file', tag: 'files', summary: 'Upload a file (and share it with share=true)', access: 'session-or-uploader', multipart: UPLOAD_FORM, ok: one('File', 201), errors: [400, 401, 403, 404, 408, 413, 429] },
  { method: 'options', path: TUS_PATH, tag: 'resumable uploads', summary: 'tus 1.0: discover the protocol, extensions and maximum size', access: 'public', ok: TUS_DISCOVERY, errors: [] },
  { method: 'post', path: TUS_PATH, tag: 'resumable uploads', summary: 'tus 1.0: start a resumable upload (creation; creation-with-upload with a body)', access: 'session-or-uploader', bytes: 'application/offset+octet-stream', headers: [TUS_RESUMABLE, { name: 'Upload-Length', description: 'The whole upload\'s size in bytes (at most MAX_UPLOAD_BYTES: 413; beyond the storage left: 403)', required: true, integer: true }, { name: 'Upload-Metadata', description: 'Comma-separated `key base64value`: filename, filetype, folderId, name, share, password, expiresAt, maxViews, maxDownloads (as the multipart upload\'s fields); other keys are ignored' }, CHECKSUM], ok: [{ status: 201, description: 'Created; `Location` is the upload\'s URL', headers: { ...TUS_STATE, Location: 'The upload\'s URL, `/api/upload/tus/{id}`' } }], errors: [400, 401, 403, 404, 408, 412, 413, 415, 429, 460], errorHeaders: TUS_ERRORS },
  { method: 'head', path: `${TUS_PATH}/{id}`, tag: 'resumable uploads', summary: 'tus 1.0: where an upload stands (resume from Upload-Offset)', access: 'session-or-uploader', headers: [TUS_RESUMABLE], ok: [{ status: 200, description: 'No body', headers: { ...TUS_STATE, 'Upload-Length': 'The whole upload\'s size', 'Cache-Control': '`no-store`' } }], errors: [400, 401, 403, 404, 410, 412], errorHeaders: TUS_ERRORS },
  { method: 'patch', path: `${TUS_PATH}/{id}`, tag: 'resumable uploads', summary: 'tus 1.0: append bytes at Upload-Offset; the last append makes the file', access: 'session-or-uploader', bytes: 'application/offset+octet-stream', headers: [TUS_RESUMABLE, { name: 'Upload-Offset', description: 'Where these bytes go: the upload\'s offset (else 409, with `offset` in the error)', required: true, integer: true }, CHECKSUM], ok: [{ status: 204, description: 'Appended', headers: TUS_STATE }], errors: [400, 401, 403, 404, 408, 409, 410, 412, 413, 415, 429, 460], errorHeaders: TUS_ERRORS },
  { method: 'delete', path: `${TUS_PATH}/{id}`, tag: 'resumable uploads', summary: 'tus 1.0: end an unfinished upload (termination); its bytes and counts go', access: 'session-or-uploader', headers: [TUS_RESUMABLE], ok: [{ status: 204, description: 'Ended', headers: TUS_ANSWER }], errors: [400, 401, 403, 404, 412], errorHeaders: TUS_ERRORS },
  { method: 'options', path: `${TUS_PATH}/{id}`, tag: 'resumable uploads', summary: 'tus 1.0: discover the protocol', access: 'public', ok: TUS_DISCOVERY, errors: [] },

  { method: 'get', path: '/api/file/{id}', tag: 'files', summary: 'A file', access: 'session-or-share', ok: one('File'), errors: read },
  { method: 'get', path: '/api/file/{id}/content', tag: 'files', summary: 'A file\'s bytes (Range, conditional GET)', access: 'session-or-share', ok: BYTES_OK, errors: [...read, 416] },
  { method: 'patch', path: '/api/file/{id}', tag: 'files', summary: 'Rename or move a file', access: 'session', json: body.fileUpdateBody, ok: one('File'), errors: [...owned, 413] },
  { method: 'delete', path: '/api/file/{id}', tag: 'files', summary: 'Delete a file', access: 'session', ok: none, errors: owned },

  { method: 'post', path: '/api/folder', tag: 'folders', summary: 'Create a folder', access: 'session', json: body.folderCreateBody, ok: one('Folder', 201), errors: [...owned, 413] },
  { method: 'get', path: '/api/folder', tag: 'folders', summary: 'The top level', access: 'session', query: pageQuery, ok: one('Root'), errors: [400, 401, 403] },
  { method: 'get', path: '/api/folder/{id}', tag: 'folders', summary: 'A folder with its whole subtree', access: 'session-or-share', ok: one('Folder'), errors: read },
  { method: 'patch', path: '/api/folder/{id}', tag: 'folders', summary: 'Rename or move a folder', access: 'session', json: body.folderUpdateBody, ok: one('Folder'), errors: [...owned, 409, 413] },
  { method: 'delete', path: '/api/folder/{id}', tag: 'folders', summary: 'Delete a folder and its subtree', access: 'session', ok: none, errors: owned },

  { method: 'post', path: '/api/collection', tag: 'collections', summary: 'Create a collection', access: 'session', json: body.collectionCreateBody, ok: one('Collection', 201), errors: [400, 401, 403, 413] },
  { method: 'get', path: '/api/collection', tag: 'collections', summary: 'Your collections', access: 'session', query: pageQuery, ok: one('Collection[]'), errors: [400, 401, 403] },
  { method: 'get', path: '/api/collection/{id}', tag: 'collections', summary: 'A collection', access: 'session-or-share', ok: one('Collection'), errors: read },
  { method: 'patch', path: '/api/collection/{id}', tag: 'collections', summary: 'Rename a collection', access: 'session', json: body.collectionUpdateBody, ok: one('Collection'), errors: [...owned, 413] },
  { method: 'delete', path: '/api/collection/{id}', tag: 'collections', summary: 'Delete a collection (its files stay)', access: 'session', ok: none, errors: owned },
  { method: 'put', path: '/api/collection/{id}/file/{fileId}', tag: 'collections', summary: 'Add a file (idempotent)', access: 'session', ok: one('Collection'), errors: owned },
  { method: 'delete', path: '/api/collection/{id}/file/{fileId}', tag: 'collections', summary: 'Remove a file', access: 'session', ok: none, errors: owned },

  { method: 'post', path: '/api/paste', tag: 'pastes', summary: 'Create a paste (and share it with share: true)', access: 'session-or-uploader', json: body.pasteCreateBody, ok: one('Paste', 201), errors: [...owned, 409, 413] },
  { method: 'get', path: '/api/paste', tag: 'pastes', summary: 'Your pastes', access: 'session', query: pageQuery, ok: one('Paste[]'), errors: [400, 401, 403] },
  { method: 'get', path: '/api/paste/{id}', tag: 'pastes', summary: 'A paste', access: 'session-or-share', ok: one('Paste'), errors: read },
  { method: 'patch', path: '/api/paste/{id}', tag: 'pastes', summary: 'Change a paste', access: 'session', json: body.pasteUpdateBody, ok: one('Paste'), errors: [...owned, 409, 413] },
  { method: 'delete', path: '/api/paste/{id}', tag: 'pastes', summary: 'Delete a paste', access: 'session', ok: none, errors: owned },

  { method: 'post', path: '/api/share', tag: 'shares', summary: 'Share a file, folder, collection or paste', access: 'session-or-uploader', json: body.shareCreateBody, ok: one('Share', 201), errors: [...owned, 409, 413] },
  { method: 'get', path: '/api/share', tag: 'shares', summary: 'Your shares', access: 'session', ok: one('Share[]'), errors: [400, 401, 403] },
  { method: 'get', path: '/api/share/{id}', tag: 'shares', summary: 'A share (counts a view)', access: 'public', ok: one('Share'), errors: [400, 401, 404, 410, 429] },
  { method: 'get', path: '/api/share/{id}/content', tag: 'shares', summary: 'The bytes of a shared file or paste', access: 'public', ok: BYTES_OK, errors: [400, 401, 404, 410, 416, 429] },
  { method: 'patch', path: '/api/share/{id}', tag: 'shares', summary: 'Change a share\'s options', access: 'session', json: body.shareUpdateBody, ok: one('Share'), errors: [...owned, 413] },
  { method: 'delete', path: '/api/share/{id}', tag: 'shares', summary: 'Delete a share', access: 'session', ok: none, errors: owned },

  { method: 'post', path: '/api/search', tag: 'search', summary: 'Search names', access: 'session', json: body.searchBody, ok: one('Listing'), errors: [...owned, 413] },
  { method: 'get', path: '/api/usage/stats', tag: 'usage', summary: 'Your usage and limits', access: 'session-or-uploader', ok: one('Usage'), errors: [401] },

  { method: 'get', path: '/api/admin/users', tag: 'admin', summary: 'Every user', access: 'admin', ok: one('AdminUser[]'), errors: [401, 403] },
  { method: 'get', path: '/api/admin/users/{id}', tag: 'admin', summary: 'A user', access: 'admin', ok: one('AdminUser'), errors: owned },
  { method: 'post', path: '/api/admin/users', tag: 'admin', summary: 'Create a user', access: 'admin', json: body.adminCreateBody, ok: one('AdminUser', 201), errors: [400, 401, 403, 409, 413] },
  { method: 'patch', path: '/api/admin/users/{id}', tag: 'admin', summary: 'Change a user\'s type, password or limits', access: 'admin', json: body.adminUpdateBody, ok: one('AdminUser'), errors: [...owned, 409, 413] },
  { method: 'delete', path: '/api/admin/users/{id}', tag: 'admin', summary: 'Delete a user and all their data', access: 'admin', ok: none, errors: [...owned, 409] },

  { method: 'get', path: '/assets/{name}', tag: 'web', summary: 'An asset of the web front end', access: 'public', ok: [{ status: 200, description: 'The asset', body: 'asset' }, { status: 304, description: 'Not modified' }], errors: [404], web: true },
  { method: 'get', path: '/s/{id}', tag: 'web', summary: 'The page of a share, its state as status, its card tags (counts a view)', access: 'share-page', ok: PAGE_OK, errors: [503], web: true },
  { method: 'get', path: '/s/{id}/f/{folderId}', tag: 'web', summary: 'The page of one folder inside a shared folder (counts a view, as /s/{id} does)', access: 'share-page', ok: FOLDER_PAGE_OK, errors: [503], web: true },
  { method: 'post', path: '/s/{id}/unlock', tag: 'web', summary: 'Unlock a protected share for its page: the share (counts a view) and a grant cookie', access: 'public', json: body.unlockBody, ok: [{ status: 200, description: 'The share', schema: 'Share', headers: { 'Set-Cookie': GRANT } }], errors: [400, 401, 404, 410, 413, 429], web: true },
  { method: 'get', path: '/s/{id}/content', tag: 'web', summary: 'The shared file or paste: preview (?preview=1) or download', access: 'share-page', query: body.previewQuery, ok: PREVIEW_BYTES_OK, errors: [...PAGE_READ, 416], web: true },
  { method: 'get', path: '/s/{id}/files/{fileId}', tag: 'web', summary: 'A file inside a shared folder or collection', access: 'share-page', query: body.previewQuery, ok: PREVIEW_BYTES_OK, errors: [...PAGE_READ, 416], web: true },
  { method: 'get', path: '/s/{id}/folders/{folderId}', tag: 'web', summary: 'A folder inside a shared folder, with its subtree', access: 'share-page', ok: one('Folder'), errors: PAGE_READ, web: true },
  { method: 'get', path: '/s/{id}/collections/{collectionId}', tag: 'web', summary: 'The shared collection', access: 'share-page', ok: one('Collection'), errors: PAGE_READ, web: true },
  { method: 'get', path: '/s/{id}/archive', tag: 'web', summary: 'A shared folder or collection as one .zip under one top-level directory, streamed (counts a download)', access: 'share-page', ok: [{ status: 200, description: 'The archive (stored entries, exact Content-Length)', body: 'zip' }], errors: PAGE_READ, web: true },
  { method: 'get', path: '/s/{id}/folders/{folderId}/archive', tag: 'web', summary: 'One folder inside a shared folder as one .zip under a directory of its name, streamed (counts a download)', access: 'share-page', ok: [{ status: 200, description: 'The archive (stored entries, exact Content-Length)', body: 'zip' }], errors: PAGE_READ, web: true },
  ...dashboardPages,
];
