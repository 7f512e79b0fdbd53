import type { Context } from 'koa';
import type { ShareKey } from '../../../application/contract.js';
import { DomainError, isDomainError } from '../../../domain/index.js';
import { fromOwnOrigin } from '../session/csrf.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { folderPageUrl, publicBase, shareUrl } from '../server/public-url.js';
import { sendArchive } from '../responses/send-archive.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { readerOf } from '../server/reader.js';
import { parse, parseId, previewQuery, unlockBody } from '../validation.js';
import { grantCookie, setGrantCookie } from '../session/grant-cookie.js';
import { isLinkPreviewBot, isSpeculative } from './link-preview-bots.js';
import type { PageData } from '../responses/pages/page-data.js';
import { sendSharePage } from '../responses/pages/send-share-page.js';
import { BYTES_OK, one, type Answer, type Operation } from '../openapi/operation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

const isPreview = (ctx: Context) => parse(previewQuery, ctx.query).preview === '1';

const STATUS: Record<PageData['state'], number> = {
  open: 200,
  locked: 200,
  'not-found': 404,
  gone: 410,
  throttled: 429,
};

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
const ARCHIVE_OK: Answer[] = [{ status: 200, description: 'The archive (stored entries, exact Content-Length)', body: 'zip' }];

/** What reading the share for its page came to; anything unexpected is not a page state and is thrown on. */
function pageDataOf(err: unknown): PageData {
  if (!isDomainError(err)) throw err;
  switch (err.code) {
    case 'share_password_required':
    case 'share_password_invalid':
      return { state: 'locked' };
    case 'not_found':
    case 'bad_request':
      return { state: 'not-found' };
    case 'gone':
      return { state: 'gone' };
    case 'rate_limited':
      return { state: 'throttled', retryAfter: Number(err.details?.['retryAfter'] ?? 60) };
    default:
      throw err;
  }
}

/**
 * The share's page and everything it loads, all below /s/{id} so the unlock grant's cookie (scoped to that path)
 * goes with each plain link: previews, downloads, ranges and the archive. A visit counts one view when the page is
 * answered (or, for a protected share, when it is unlocked); previews count nothing more (ShareKey.preview).
 */
export function sharePageRoutes(routes: RouteTable, { core, auth, options, web }: RouteDeps): void {
  if (!options.webDir) return;
  const base = (ctx: Context) => publicBase(ctx, options.publicUrl);
  const keyOf = (ctx: Context, id: string): ShareKey => ({
    id,
    password: null,
    grant: grantCookie(ctx, fromOwnOrigin(ctx, options.publicUrl)),
    client: auth.client(ctx),
    reader: readerOf(ctx),
    peek:
      ctx.method === 'HEAD' ||
      isLinkPreviewBot(ctx.get('User-Agent')) ||
      isSpeculative(ctx.get('Sec-Purpose'), ctx.get('Purpose')),
    preview: isPreview(ctx),
  });

  /**
   * The page of the share, or of one folder inside a folder share (`folder`: the raw id of /s/{id}/f/{folderId}).
   * Either is one visit of the share's page and counts one view, as the share's own address does; a folder the
   * share does not reach is the 404 page and counts nothing.
   */
  const page = async (ctx: Context, folder?: string) => {
    if (!web) throw new DomainError('unavailable', 'The web front end is not built: run npm run build:web');
    const raw = ctx.params.id ?? '';
    const url = shareUrl(base(ctx), raw);
    const pageUrl = folder === undefined ? url : folderPageUrl(url, folder);
    let data: PageData;
    try {
      const id = parseId(raw);
      const folderId = folder === undefined ? undefined : parseId(folder, 'folderId');
      const at = folderId === undefined ? {} : { folderId };
      // The owner's own visit (their browser session, sent on a same-origin navigation) counts nothing.
      const share = await core.getShare.execute({ actor: await auth.optionalActor(ctx), ...keyOf(ctx, id), ...at });
      data = { state: 'open', share: { ...share, url }, ...at };
    } catch (err) {
      data = pageDataOf(err);
      if (data.state === 'locked' && folder !== undefined) data = { ...data, folderId: folder };
    }
    if (data.state === 'throttled') ctx.set('Retry-After', String(Math.ceil(data.retryAfter)));
    sendSharePage(ctx, STATUS[data.state], web.shell, data, pageUrl);
  };

  routes.add(
    { method: 'get', path: '/s/{id}', tag: 'web', summary: 'The page of a share, its state as status, its card tags (counts a view)', access: 'share-page', ok: PAGE_OK, errors: [503] },
    (ctx) => page(ctx),
  );
  routes.add(
    { method: 'get', path: '/s/{id}/f/{folderId}', tag: 'web', summary: 'The page of one folder inside a shared folder (counts a view, as /s/{id} does)', access: 'share-page', ok: FOLDER_PAGE_OK, errors: [503] },
    (ctx) => page(ctx, ctx.params.folderId ?? ''),
  );

  const unlockOp: Operation = {
    method: 'post',
    path: '/s/{id}/unlock',
    tag: 'web',
    summary: 'Unlock a protected share for its page: the share (counts a view) and a grant cookie',
    access: 'public',
    json: unlockBody,
    ok: [{ status: 200, description: 'The share', schema: 'Share', headers: { 'Set-Cookie': GRANT } }],
    errors: [400, 401, 404, 410, 413, 429],
  };
  routes.add(unlockOp, jsonBody(AUTH_JSON_LIMIT), async (ctx) => {
    const id = parseId(ctx.params.id);
    const { password } = parse(unlockBody, ctx.request.body);
    const key = { ...keyOf(ctx, id), password, grant: null, peek: false };
    const { share, grant } = await core.unlockShare.execute({ actor: null, ...key });
    if (grant) setGrantCookie(ctx, id, grant, base(ctx).startsWith('https:'));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...share, url: shareUrl(base(ctx), id) };
  });

  const contentOp: Operation = {
    method: 'get',
    path: '/s/{id}/content',
    tag: 'web',
    summary: 'The shared file or paste: preview (?preview=1) or download',
    access: 'share-page',
    query: previewQuery,
    ok: PREVIEW_BYTES_OK,
    errors: [...PAGE_READ, 416],
  };
  routes.add(contentOp, async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const content = await core.openShareContent.execute({ actor, ...keyOf(ctx, parseId(ctx.params.id)) });
    await sendFileContent(ctx, content);
  });

  const fileOp: Operation = { ...contentOp, path: '/s/{id}/files/{fileId}', summary: 'A file inside a shared folder or collection' };
  routes.add(fileOp, async (ctx) => {
    const access = { actor: await auth.optionalActor(ctx), share: keyOf(ctx, parseId(ctx.params.id)) };
    const content = await core.openFileContent.execute({ access, id: parseId(ctx.params.fileId) });
    await sendFileContent(ctx, content);
  });

  const folderOp: Operation = {
    method: 'get',
    path: '/s/{id}/folders/{folderId}',
    tag: 'web',
    summary: 'A folder inside a shared folder, with its subtree',
    access: 'share-page',
    ok: one('Folder'),
    errors: PAGE_READ,
  };
  routes.add(folderOp, async (ctx) => {
    const access = { actor: null, share: keyOf(ctx, parseId(ctx.params.id)) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await core.getFolder.execute({ access, id: parseId(ctx.params.folderId) });
  });

  const collectionOp: Operation = { ...folderOp, path: '/s/{id}/collections/{collectionId}', summary: 'The shared collection', ok: one('Collection') };
  routes.add(collectionOp, async (ctx) => {
    const access = { actor: null, share: keyOf(ctx, parseId(ctx.params.id)) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await core.getCollection.execute({ access, id: parseId(ctx.params.collectionId) });
  });

  const archiveOp: Operation = {
    method: 'get',
    path: '/s/{id}/archive',
    tag: 'web',
    summary: 'A shared folder or collection as one .zip under one top-level directory, streamed (counts a download)',
    access: 'share-page',
    ok: ARCHIVE_OK,
    errors: PAGE_READ,
  };
  routes.add(archiveOp, async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const archive = await core.openShareArchive.execute({ actor, ...keyOf(ctx, parseId(ctx.params.id)) });
    sendArchive(ctx, archive);
  });

  const folderArchiveOp: Operation = {
    ...archiveOp,
    path: '/s/{id}/folders/{folderId}/archive',
    summary: 'One folder inside a shared folder as one .zip under a directory of its name, streamed (counts a download)',
  };
  routes.add(folderArchiveOp, async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const key = keyOf(ctx, parseId(ctx.params.id));
    const folderId = parseId(ctx.params.folderId, 'folderId');
    sendArchive(ctx, await core.openShareArchive.execute({ actor, ...key, folderId }));
  });
}
