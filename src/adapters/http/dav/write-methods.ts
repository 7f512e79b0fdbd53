import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../../domain/index.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { streamChunks } from '../uploads/stream-chunks.js';
import { storable } from './dav-path.js';
import { DavStatus } from './lock-guard.js';
import { pathOf, type DavRequest } from './dav-request.js';
import { etagOf, resolve, type Item } from './resources.js';

/** GET and HEAD: a file's bytes as the API serves them (Range, conditional GET), with the WebDAV ETag. */
export async function getContent(req: DavRequest): Promise<void> {
  const { item } = await resolve(req.core, req.actor, req.names);
  if (!item) throw new DavStatus(404, 'Nothing is here');
  if (item.kind !== 'file') {
    // A collection has no body of its own; a short text says what it is (browsers open /dav/ too).
    req.ctx.status = 200;
    req.ctx.type = 'text/plain; charset=utf-8';
    req.ctx.body = req.ctx.method === 'HEAD' ? null : 'This is a WebDAV folder of Coffer: open it with a WebDAV client.\n';
    return;
  }
  const content = await req.core.openFileContent.execute({ access: { actor: req.actor, share: null }, id: item.id! });
  await sendFileContent(req.ctx, { ...content, etag: etagOf(item.file!), lastModified: new Date(item.file!.updatedAt) });
}

/** The new item's name, or 400 when the domain's name rules would store another. */
export function newName(names: readonly string[]): string {
  const name = names.at(-1);
  if (name === undefined) throw new DavStatus(405, 'The root cannot be replaced');
  if (!storable(name)) {
    throw new DavStatus(400, 'This name cannot be stored: names may not hold "/", "\\", control or invisible characters, nor begin or end with spaces, and NFC is how they are kept');
  }
  return name;
}

/** A request body as an upload's content; a client that goes away mid-body makes the upload fail (nothing stays). */
async function* body(req: IncomingMessage): AsyncIterable<Uint8Array> {
  let read = false;
  try {
    for await (const chunk of streamChunks(req, { destroyOnReturn: false })) yield chunk;
    read = true;
  } catch {
    throw badRequest('The client went away before the whole body came');
  } finally {
    // A body refused midway (a limit) drains, so the client still hears why.
    if (!read) req.resume();
  }
}

/** Answers If-Match / If-None-Match for a PUT (RFC 9110 §13.1), 412 when they fail. */
function checkPreconditions(req: DavRequest, existing: Item | null): void {
  const ifMatch = req.ctx.get('If-Match');
  const ifNoneMatch = req.ctx.get('If-None-Match');
  const etag = existing?.file ? etagOf(existing.file) : null;
  const tags = (header: string) => header.split(',').map((t) => t.trim());
  if (ifMatch && (etag === null || (ifMatch.trim() !== '*' && !tags(ifMatch).includes(etag)))) {
    throw new DavStatus(412, 'If-Match does not hold');
  }
  if (ifNoneMatch && existing && (ifNoneMatch.trim() === '*' || (etag !== null && tags(ifNoneMatch).includes(etag)))) {
    throw new DavStatus(412, 'If-None-Match does not hold');
  }
}

/** PUT: a new file (201), or new bytes for the file there, which keeps its id, share and collections (204). */
export async function put(req: DavRequest): Promise<void> {
  const { ctx, core, actor } = req;
  const name = newName(req.names);
  if (ctx.get('Content-Range')) throw new DavStatus(400, 'A PUT replaces the whole file: Content-Range is not accepted');
  const length = Number(ctx.get('Content-Length') || '0');
  if (length > req.maxUploadBytes) throw new DavStatus(413, `A file may hold at most ${req.maxUploadBytes} bytes`);
  const { item, parentId } = await resolve(core, actor, req.names);
  if (parentId === undefined) throw new DavStatus(409, 'The parent collection does not exist');
  if (item && item.kind !== 'file') throw new DavStatus(405, 'A collection stands here');
  checkPreconditions(req, item);
  await req.guard.checkConditions(item?.file ? etagOf(item.file) : null);
  await req.guard.assertMayChange(pathOf(req), { parent: !item });
  const mime = ctx.get('Content-Type') || undefined;
  if (item) {
    const file = await core.replaceFileContent.execute({ actor, id: item.id!, mime, content: body(ctx.req) });
    ctx.set('ETag', etagOf(file));
    ctx.status = 204;
    return;
  }
  const file = await core.uploadFile.execute({ actor, folderId: parentId, name, filename: name, mime, content: body(ctx.req) });
  ctx.set('ETag', etagOf(file));
  ctx.status = 201;
}

/** MKCOL: a new folder (201); 405 where something stands, 409 without a parent, 415 with a body. */
export async function mkcol(req: DavRequest): Promise<void> {
  const { ctx, core, actor } = req;
  if (Number(ctx.get('Content-Length') || '0') > 0 || ctx.get('Transfer-Encoding')) {
    throw new DavStatus(415, 'MKCOL takes no body');
  }
  const name = newName(req.names);
  const { item, parentId } = await resolve(core, actor, req.names);
  if (item) throw new DavStatus(405, 'Something stands here already');
  if (parentId === undefined) throw new DavStatus(409, 'The parent collection does not exist');
  await req.guard.checkConditions(null);
  await req.guard.assertMayChange(pathOf(req), { parent: true });
  await core.createFolder.execute({ actor, name, parentId });
  ctx.status = 201;
}

/** Deletes a file or a folder with everything below it (as the API does); its properties and locks go too. */
export async function removeItem(req: DavRequest, item: Item): Promise<void> {
  const { core, actor } = req;
  if (item.kind === 'file') await core.deleteFile.execute({ actor, id: item.id! });
  else if (item.kind === 'folder') await core.deleteFolder.execute({ actor, id: item.id! });
  await core.dropProperties.execute({ actor, itemIds: [item.id!] });
  await core.dropLocks.execute({ actor, path: pathOf({ ...req, names: item.names }) });
}

/** DELETE (RFC 4918 §9.6): 204; the root cannot go (403). */
export async function del(req: DavRequest): Promise<void> {
  const { item } = await resolve(req.core, req.actor, req.names);
  if (!item) throw new DavStatus(404, 'Nothing is here');
  if (item.kind === 'root') throw new DavStatus(403, 'The root cannot be deleted');
  const depth = req.ctx.get('Depth');
  if (depth && depth.toLowerCase() !== 'infinity' && item.kind !== 'file') throw new DavStatus(400, 'A collection is deleted with Depth infinity only');
  await req.guard.checkConditions(item.file ? etagOf(item.file) : null);
  await req.guard.assertMayChange(pathOf(req), { deep: true, parent: true });
  await removeItem(req, item);
  req.ctx.status = 204;
}
