import type { FileView } from '../../../application/views.js';
import { BYTES_OK, none, one, owned, read } from '../openapi/operation.js';
import { answerNow } from '../responses/answer-now.js';
import { publicBase } from '../server/public-url.js';
import { addShareUrls } from '../responses/share-urls.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { receiveUpload } from '../uploads/multipart-upload.js';
import { UPLOAD_FORM } from '../uploads/upload-fields.js';
import { fileUpdateBody, parse, parseId } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/** The multipart upload; the resumable one (tus.ts) registers after it, then the reads and changes of a file. */
export function uploadRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  // The answer goes out before the upload commits: a client that cannot hear it (gone before the answer) gets its
  // upload undone instead of a file it never learns of.
  routes.add(
    { method: 'post', path: '/api/file', tag: 'files', summary: 'Upload a file (and share it with share=true)', access: 'session-or-uploader', multipart: UPLOAD_FORM, ok: one('File', 201), errors: [400, 401, 403, 404, 408, 413, 429] },
    auth.required,
    async (ctx) => {
      const actor = actorOf(ctx);
      const base = publicBase(ctx, options.publicUrl);
      const deliver = (file: FileView) => {
        addShareUrls(file, base);
        return answerNow(ctx, 201, file);
      };
      await receiveUpload(ctx.req, options.maxUploadBytes, (part) => core.uploadFile.execute({ actor, ...part, deliver }));
    },
  );
}

export function fileRoutes(routes: RouteTable, { core, auth }: RouteDeps): void {
  routes.add(
    { method: 'get', path: '/api/file/{id}', tag: 'files', summary: 'A file', access: 'session-or-share', ok: one('File'), errors: read },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      ctx.body = await core.getFile.execute({ access: await auth.readAccess(ctx), id });
    },
  );

  routes.add(
    { method: 'get', path: '/api/file/{id}/content', tag: 'files', summary: 'A file\'s bytes (Range, conditional GET)', access: 'session-or-share', ok: BYTES_OK, errors: [...read, 416] },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      await sendFileContent(ctx, await core.openFileContent.execute({ access: await auth.readAccess(ctx), id }));
    },
  );

  routes.add(
    { method: 'patch', path: '/api/file/{id}', tag: 'files', summary: 'Rename or move a file', access: 'session', json: fileUpdateBody, ok: one('File'), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const changes = parse(fileUpdateBody, ctx.request.body);
      ctx.body = await core.updateFile.execute({ actor: actorOf(ctx), id, ...changes });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/file/{id}', tag: 'files', summary: 'Delete a file', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteFile.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}
