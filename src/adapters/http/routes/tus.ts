import type { Context, Next } from 'koa';
import type { Core, RequestKey, ResumableUploadState } from '../../../application/contract.js';
import { DomainError, type Actor } from '../../../domain/index.js';
import { sendError, toHttpFailure } from '../responses/errors.js';
import { publicBase, shareUrl } from '../server/public-url.js';
import { parseId } from '../validation.js';
import { appendBody } from '../uploads/tus/append-body.js';
import {
  OFFSET_STREAM,
  TUS_CHECKSUMS,
  TUS_EXTENSIONS,
  TUS_VERSION,
  byteCount,
  namesRequest,
  uploadChecksum,
  uploadMetadata,
} from '../uploads/tus/tus-headers.js';
import { requestPassword } from './requests.js';
import type { Answer, Operation, RequestHeader } from '../openapi/operation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export const TUS_PATH = '/api/upload/tus';

// tus 1.0 (resumable uploads): the headers of the protocol, as the routes below read and answer them.
export const TUS_RESUMABLE: RequestHeader = { name: 'Tus-Resumable', description: 'The protocol version: `1.0.0` (else 412)', required: true };
const TUS_ANSWER = { 'Tus-Resumable': '`1.0.0`' };
export const TUS_STATE = {
  ...TUS_ANSWER,
  'Upload-Offset': 'Bytes received so far',
  'Upload-Expires': 'When the upload expires unless more bytes come (RFC 7231 date); absent once complete',
  'X-File-Id': 'Once complete: the id of the file it became (the upload\'s own id)',
  'X-Share-Id': 'Once complete, when the upload asked for a share (`share=true`): the id of its file\'s share',
  'X-Share-Url': 'With `X-Share-Id`: the share\'s page, `{public base}/s/{shareId}` (the `url` the API gives)',
};
export const TUS_ERRORS = { ...TUS_ANSWER, 'Tus-Version': 'On 412: the version the server speaks, `1.0.0`' };
export const CHECKSUM: RequestHeader = { name: 'Upload-Checksum', description: '`sha1 <base64 digest>` of this request\'s bytes (else 460, nothing stored)' };
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

/**
 * tus 1.0 answers carry Tus-Resumable, errors included, and refuse a request that speaks another version (412).
 * Errors are answered here so that header survives; unexpected ones go on to the app's error middleware (500).
 */
export async function tusProtocol(ctx: Context, next: Next): Promise<void> {
  try {
    if (ctx.get('Tus-Resumable') !== TUS_VERSION) {
      ctx.set('Tus-Version', TUS_VERSION);
      throw new DomainError('precondition_failed', `Tus-Resumable must be ${TUS_VERSION}`, { version: TUS_VERSION });
    }
    await next();
  } catch (err) {
    const failure = toHttpFailure(err);
    if (failure.status >= 500 || ctx.headerSent) throw err;
    sendError(ctx, failure.status, failure.body);
    if (failure.status === 412) ctx.set('Tus-Version', TUS_VERSION);
  }
  ctx.set('Tus-Resumable', TUS_VERSION);
}

/**
 * tus creation (and creation-with-upload): an upload of the caller's, or, with `request`, one into a file request,
 * which needs no credential (the request's password or its page's grant instead). Returns the upload's state.
 */
export async function createTusUpload(
  ctx: Context,
  core: Core,
  who: { actor: Actor } | { request: Omit<RequestKey, 'id'> & { id?: string } },
): Promise<ResumableUploadState> {
  if (ctx.get('Upload-Defer-Length')) throw new DomainError('bad_request', 'Upload-Defer-Length is not supported');
  const length = byteCount(ctx.get('Upload-Length') || undefined, 'Upload-Length');
  const metadata = uploadMetadata(ctx.get('Upload-Metadata') || undefined);
  const withBytes = ctx.get('Content-Type') !== '';
  if (withBytes) assertOffsetStream(ctx);
  const checksum = uploadChecksum(ctx.get('Upload-Checksum') || undefined);
  let state: ResumableUploadState;
  let actor: Actor | null = null;
  if ('actor' in who) {
    if (metadata.request) throw new DomainError('bad_request', 'requestId goes to a file request\'s upload only');
    actor = who.actor;
    state = await core.createUpload.execute({ actor, length, ...metadata });
  } else {
    const id = who.request.id ?? metadata.request?.id;
    if (id === undefined || (metadata.request && metadata.request.id !== id)) {
      throw new DomainError('bad_request', 'Upload-Metadata requestId must name this request', { header: 'Upload-Metadata' });
    }
    const { uploaderName = null, note = null } = metadata.request ?? {};
    const { filename, mime } = metadata;
    state = await core.createRequestUpload.execute({ ...who.request, id, uploaderName, note, length, filename, mime });
  }
  if (withBytes && state.fileId === null) {
    const content = appendBody(ctx.req, checksum);
    state = await core.appendUpload.execute({ actor, id: state.id, offset: 0, content });
  }
  return state;
}

function assertOffsetStream(ctx: Context): void {
  if (ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase() !== OFFSET_STREAM) {
    throw new DomainError('unsupported_media_type', `The bytes of an upload come as ${OFFSET_STREAM}`);
  }
}

/**
 * A complete upload names its file and, when its file is shared (the share the upload asked for), that share and
 * its page: the way an uploader token, which cannot list shares, learns the link it made.
 */
export function tusState(ctx: Context, state: ResumableUploadState, publicUrl: string | null | undefined): void {
  ctx.set('Upload-Offset', String(state.offset));
  if (state.expiresAt) ctx.set('Upload-Expires', state.expiresAt.toUTCString());
  if (state.fileId) ctx.set('X-File-Id', state.fileId);
  if (state.shareId) {
    ctx.set('X-Share-Id', state.shareId);
    ctx.set('X-Share-Url', shareUrl(publicBase(ctx, publicUrl), state.shareId));
  }
}

export function tusRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const setState = (ctx: Context, state: ResumableUploadState): void => tusState(ctx, state, options.publicUrl);

  const discovery = (ctx: Context) => {
    ctx.set('Tus-Resumable', TUS_VERSION);
    ctx.set('Tus-Version', TUS_VERSION);
    ctx.set('Tus-Extension', TUS_EXTENSIONS);
    ctx.set('Tus-Max-Size', String(options.maxUploadBytes));
    ctx.set('Tus-Checksum-Algorithm', TUS_CHECKSUMS);
    ctx.status = 204;
  };
  routes.add(
    { method: 'options', path: TUS_PATH, tag: 'resumable uploads', summary: 'tus 1.0: discover the protocol, extensions and maximum size', access: 'public', ok: TUS_DISCOVERY, errors: [] },
    discovery,
  );

  // creation and creation-with-upload: the first bytes may come with the request that starts the upload.
  const creation: Operation = {
    method: 'post',
    path: TUS_PATH,
    tag: 'resumable uploads',
    summary: 'tus 1.0: start a resumable upload (creation; creation-with-upload with a body)',
    access: 'session-or-uploader',
    bytes: OFFSET_STREAM,
    headers: [
      TUS_RESUMABLE,
      { name: 'Upload-Length', description: 'The whole upload\'s size in bytes (at most MAX_UPLOAD_BYTES: 413; beyond the storage left: 403)', required: true, integer: true },
      { name: 'Upload-Metadata', description: 'Comma-separated `key base64value`: filename, filetype, folderId, name, share, password, expiresAt, maxViews, maxDownloads, encryptedMetadata (as the multipart upload\'s fields; with encryptedMetadata the upload is end-to-end encrypted and filename and filetype are not kept); or, into a file request (no credential needed), requestId, uploaderName, note; other keys are ignored' },
      { name: 'X-Request-Password', description: 'With requestId: the password of a protected file request' },
      CHECKSUM,
    ],
    ok: [{ status: 201, description: 'Created; `Location` is the upload\'s URL', headers: { ...TUS_STATE, Location: 'The upload\'s URL, `/api/upload/tus/{id}`' } }],
    errors: [400, 401, 403, 404, 408, 410, 412, 413, 415, 429, 460],
    errorHeaders: TUS_ERRORS,
  };
  routes.add(creation, tusProtocol, async (ctx) => {
    // An upload into a file request needs no credential; any other is the caller's own, as before.
    const requested = namesRequest(ctx.get('Upload-Metadata') || undefined);
    const who = requested
      ? { request: { password: requestPassword(ctx), client: auth.client(ctx) } }
      : { actor: await auth.requireActor(ctx) };
    const state = await createTusUpload(ctx, core, who);
    ctx.set('Location', `${TUS_PATH}/${state.id}`);
    setState(ctx, state);
    ctx.status = 201;
  });

  const stateOp: Operation = {
    method: 'head',
    path: `${TUS_PATH}/{id}`,
    tag: 'resumable uploads',
    summary: 'tus 1.0: where an upload stands (resume from Upload-Offset)',
    access: 'session-or-uploader',
    headers: [TUS_RESUMABLE],
    ok: [{ status: 200, description: 'No body', headers: { ...TUS_STATE, 'Upload-Length': 'The whole upload\'s size', 'Cache-Control': '`no-store`' } }],
    errors: [400, 401, 403, 404, 410, 412],
    errorHeaders: TUS_ERRORS,
  };
  // HEAD, PATCH and DELETE read a credential when one comes; an upload into a file request needs none (the core
  // decides: without one, any other upload is unauthorized).
  routes.add(stateOp, tusProtocol, async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const state = await core.getUpload.execute({ actor, id: parseId(ctx.params.id) });
    setState(ctx, state);
    ctx.set('Upload-Length', String(state.length));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
  });

  const append: Operation = {
    method: 'patch',
    path: `${TUS_PATH}/{id}`,
    tag: 'resumable uploads',
    summary: 'tus 1.0: append bytes at Upload-Offset; the last append makes the file',
    access: 'session-or-uploader',
    bytes: OFFSET_STREAM,
    headers: [
      TUS_RESUMABLE,
      { name: 'Upload-Offset', description: 'Where these bytes go: the upload\'s offset (else 409, with `offset` in the error)', required: true, integer: true },
      CHECKSUM,
    ],
    ok: [{ status: 204, description: 'Appended', headers: TUS_STATE }],
    errors: [400, 401, 403, 404, 408, 409, 410, 412, 413, 415, 429, 460],
    errorHeaders: TUS_ERRORS,
  };
  routes.add(append, tusProtocol, async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const id = parseId(ctx.params.id);
    assertOffsetStream(ctx);
    const offset = byteCount(ctx.get('Upload-Offset') || undefined, 'Upload-Offset');
    const content = appendBody(ctx.req, uploadChecksum(ctx.get('Upload-Checksum') || undefined));
    setState(ctx, await core.appendUpload.execute({ actor, id, offset, content }));
    ctx.status = 204;
  });

  const termination: Operation = {
    method: 'delete',
    path: `${TUS_PATH}/{id}`,
    tag: 'resumable uploads',
    summary: 'tus 1.0: end an unfinished upload (termination); its bytes and counts go',
    access: 'session-or-uploader',
    headers: [TUS_RESUMABLE],
    ok: [{ status: 204, description: 'Ended', headers: TUS_ANSWER }],
    errors: [400, 401, 403, 404, 412],
    errorHeaders: TUS_ERRORS,
  };
  routes.add(termination, tusProtocol, async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    await core.terminateUpload.execute({ actor, id: parseId(ctx.params.id) });
    ctx.status = 204;
  });

  routes.add(
    { method: 'options', path: `${TUS_PATH}/{id}`, tag: 'resumable uploads', summary: 'tus 1.0: discover the protocol', access: 'public', ok: TUS_DISCOVERY, errors: [] },
    discovery,
  );
}
