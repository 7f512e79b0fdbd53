import type { Context, Next } from 'koa';
import type { ResumableUploadState } from '../../../application/contract.js';
import { DomainError } from '../../../domain/index.js';
import { actorOf } from '../session/auth.js';
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
  uploadChecksum,
  uploadMetadata,
} from '../uploads/tus/tus-headers.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export const TUS_PATH = '/api/upload/tus';

/**
 * tus 1.0 answers carry Tus-Resumable, errors included, and refuse a request that speaks another version (412).
 * Errors are answered here so that header survives; unexpected ones go on to the app's error middleware (500).
 */
async function tusProtocol(ctx: Context, next: Next): Promise<void> {
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

function assertOffsetStream(ctx: Context): void {
  if (ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase() !== OFFSET_STREAM) {
    throw new DomainError('unsupported_media_type', `The bytes of an upload come as ${OFFSET_STREAM}`);
  }
}

export function tusRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  /**
   * A complete upload names its file and, when its file is shared (the share the upload asked for), that share and
   * its page: the way an uploader token, which cannot list shares, learns the link it made.
   */
  const setState = (ctx: Context, state: ResumableUploadState): void => {
    ctx.set('Upload-Offset', String(state.offset));
    if (state.expiresAt) ctx.set('Upload-Expires', state.expiresAt.toUTCString());
    if (state.fileId) ctx.set('X-File-Id', state.fileId);
    if (state.shareId) {
      ctx.set('X-Share-Id', state.shareId);
      ctx.set('X-Share-Url', shareUrl(publicBase(ctx, options.publicUrl), state.shareId));
    }
  };

  const discovery = (ctx: Context) => {
    ctx.set('Tus-Resumable', TUS_VERSION);
    ctx.set('Tus-Version', TUS_VERSION);
    ctx.set('Tus-Extension', TUS_EXTENSIONS);
    ctx.set('Tus-Max-Size', String(options.maxUploadBytes));
    ctx.set('Tus-Checksum-Algorithm', TUS_CHECKSUMS);
    ctx.status = 204;
  };
  router.options(TUS_PATH, discovery);
  router.options(`${TUS_PATH}/:id`, discovery);

  // creation and creation-with-upload: the first bytes may come with the request that starts the upload.
  router.post(TUS_PATH, tusProtocol, auth.required, async (ctx) => {
    const actor = actorOf(ctx);
    if (ctx.get('Upload-Defer-Length')) throw new DomainError('bad_request', 'Upload-Defer-Length is not supported');
    const length = byteCount(ctx.get('Upload-Length') || undefined, 'Upload-Length');
    const metadata = uploadMetadata(ctx.get('Upload-Metadata') || undefined);
    const withBytes = ctx.get('Content-Type') !== '';
    if (withBytes) assertOffsetStream(ctx);
    const checksum = uploadChecksum(ctx.get('Upload-Checksum') || undefined);
    let state = await core.createUpload.execute({ actor, length, ...metadata });
    if (withBytes && state.fileId === null) {
      const content = appendBody(ctx.req, checksum);
      state = await core.appendUpload.execute({ actor, id: state.id, offset: 0, content });
    }
    ctx.set('Location', `${TUS_PATH}/${state.id}`);
    setState(ctx, state);
    ctx.status = 201;
  });

  router.head(`${TUS_PATH}/:id`, tusProtocol, auth.required, async (ctx) => {
    const state = await core.getUpload.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    setState(ctx, state);
    ctx.set('Upload-Length', String(state.length));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
  });

  router.patch(`${TUS_PATH}/:id`, tusProtocol, auth.required, async (ctx) => {
    const id = parseId(ctx.params.id);
    assertOffsetStream(ctx);
    const offset = byteCount(ctx.get('Upload-Offset') || undefined, 'Upload-Offset');
    const content = appendBody(ctx.req, uploadChecksum(ctx.get('Upload-Checksum') || undefined));
    setState(ctx, await core.appendUpload.execute({ actor: actorOf(ctx), id, offset, content }));
    ctx.status = 204;
  });

  router.delete(`${TUS_PATH}/:id`, tusProtocol, auth.required, async (ctx) => {
    await core.terminateUpload.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
