import type { FileView } from '../../../application/views.js';
import { answerNow } from '../responses/answer-now.js';
import { publicBase } from '../server/public-url.js';
import { addShareUrls } from '../responses/share-urls.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { receiveUpload } from '../uploads/multipart-upload.js';
import { fileUpdateBody, parse, parseId } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function fileRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  // The answer goes out before the upload commits: a client that cannot hear it (gone before the answer) gets its
  // upload undone instead of a file it never learns of.
  router.post('/api/file', auth.required, async (ctx) => {
    const actor = actorOf(ctx);
    const base = publicBase(ctx, options.publicUrl);
    const deliver = (file: FileView) => {
      addShareUrls(file, base);
      return answerNow(ctx, 201, file);
    };
    await receiveUpload(ctx.req, options.maxUploadBytes, (part) => core.uploadFile.execute({ actor, ...part, deliver }));
  });

  router.get('/api/file/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    ctx.body = await core.getFile.execute({ access: await auth.readAccess(ctx), id });
  });

  router.get('/api/file/:id/content', async (ctx) => {
    const id = parseId(ctx.params.id);
    await sendFileContent(ctx, await core.openFileContent.execute({ access: await auth.readAccess(ctx), id }));
  });

  router.patch('/api/file/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const changes = parse(fileUpdateBody, ctx.request.body);
    ctx.body = await core.updateFile.execute({ actor: actorOf(ctx), id, ...changes });
  });

  router.delete('/api/file/:id', auth.required, async (ctx) => {
    await core.deleteFile.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
