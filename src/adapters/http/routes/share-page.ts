import type { Context } from 'koa';
import type { ShareKey } from '../../../application/contract.js';
import { DomainError, isDomainError } from '../../../domain/index.js';
import { fromOwnOrigin } from '../session/csrf.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { folderPageUrl, publicBase, shareUrl } from '../server/public-url.js';
import { sendArchive } from '../responses/send-archive.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { parse, parseId, previewQuery, unlockBody } from '../validation.js';
import { grantCookie, setGrantCookie } from '../session/grant-cookie.js';
import { isLinkPreviewBot, isSpeculative } from './link-preview-bots.js';
import type { PageData } from '../responses/pages/page-data.js';
import { sendSharePage } from '../responses/pages/send-share-page.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

const isPreview = (ctx: Context) => parse(previewQuery, ctx.query).preview === '1';

const STATUS: Record<PageData['state'], number> = {
  open: 200,
  locked: 200,
  'not-found': 404,
  gone: 410,
  throttled: 429,
};

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
export function sharePageRoutes(router: AppRouter, { core, auth, options, web }: RouteDeps): void {
  if (!options.webDir) return;
  const base = (ctx: Context) => publicBase(ctx, options.publicUrl);
  const keyOf = (ctx: Context, id: string): ShareKey => ({
    id,
    password: null,
    grant: grantCookie(ctx, fromOwnOrigin(ctx, options.publicUrl)),
    client: auth.client(ctx),
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

  router.get('/s/:id', (ctx) => page(ctx));
  router.get('/s/:id/f/:folderId', (ctx) => page(ctx, ctx.params.folderId ?? ''));

  router.post('/s/:id/unlock', jsonBody(AUTH_JSON_LIMIT), async (ctx) => {
    const id = parseId(ctx.params.id);
    const { password } = parse(unlockBody, ctx.request.body);
    const key = { ...keyOf(ctx, id), password, grant: null, peek: false };
    const { share, grant } = await core.unlockShare.execute({ actor: null, ...key });
    if (grant) setGrantCookie(ctx, id, grant, base(ctx).startsWith('https:'));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...share, url: shareUrl(base(ctx), id) };
  });

  router.get('/s/:id/content', async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const content = await core.openShareContent.execute({ actor, ...keyOf(ctx, parseId(ctx.params.id)) });
    await sendFileContent(ctx, content);
  });

  router.get('/s/:id/files/:fileId', async (ctx) => {
    const access = { actor: await auth.optionalActor(ctx), share: keyOf(ctx, parseId(ctx.params.id)) };
    const content = await core.openFileContent.execute({ access, id: parseId(ctx.params.fileId) });
    await sendFileContent(ctx, content);
  });

  router.get('/s/:id/folders/:folderId', async (ctx) => {
    const access = { actor: null, share: keyOf(ctx, parseId(ctx.params.id)) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await core.getFolder.execute({ access, id: parseId(ctx.params.folderId) });
  });

  router.get('/s/:id/collections/:collectionId', async (ctx) => {
    const access = { actor: null, share: keyOf(ctx, parseId(ctx.params.id)) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await core.getCollection.execute({ access, id: parseId(ctx.params.collectionId) });
  });

  router.get('/s/:id/archive', async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const archive = await core.openShareArchive.execute({ actor, ...keyOf(ctx, parseId(ctx.params.id)) });
    sendArchive(ctx, archive);
  });

  router.get('/s/:id/folders/:folderId/archive', async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    const key = keyOf(ctx, parseId(ctx.params.id));
    const folderId = parseId(ctx.params.folderId, 'folderId');
    sendArchive(ctx, await core.openShareArchive.execute({ actor, ...key, folderId }));
  });
}
