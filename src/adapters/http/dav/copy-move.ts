import type { Actor } from '../../../domain/index.js';
import type { Core } from '../../../application/contract.js';
import type { FileView } from '../../../application/views.js';
import { davPathOf, DavPathError, lockPath, segmentsOf } from './dav-path.js';
import { DavStatus } from './lock-guard.js';
import { depthOf, pathOf, type DavRequest } from './dav-request.js';
import { etagOf, resolve, type Item } from './resources.js';
import { newName, removeItem } from './write-methods.js';

const PAGE = 250;

/** The Destination header's names; 400 without one, 502 when it points outside /dav/ (RFC 4918 §9.8.5). */
function destinationOf(req: DavRequest): string[] {
  const header = req.ctx.get('Destination');
  if (!header) throw new DavStatus(400, 'Destination is required');
  const path = davPathOf(header);
  if (path === null) throw new DavStatus(502, 'The destination is not on this WebDAV server');
  try {
    return segmentsOf(path);
  } catch (err) {
    if (err instanceof DavPathError) throw new DavStatus(400, err.message);
    throw err;
  }
}

const within = (names: readonly string[], root: readonly string[]) =>
  names.length >= root.length && root.every((name, i) => names[i] === name);

/**
 * COPY and MOVE (RFC 4918 §9.8, §9.9) with Depth and Overwrite. What stood at the destination goes only once the copy
 * or move has landed beside it (names may repeat, so both stand for a moment), so a copy refused midway (507, a limit)
 * loses nothing: its partial copy goes instead. A move is the API's rename/move, keeping ids (and properties), and
 * never makes a cycle.
 */
export async function copyOrMove(req: DavRequest, move: boolean): Promise<void> {
  const { ctx, core, actor } = req;
  const depth = depthOf(ctx, 'infinity');
  if (move && depth !== 'infinity') throw new DavStatus(400, 'A MOVE moves everything: Depth must be infinity');
  if (depth === '1') throw new DavStatus(400, 'COPY takes Depth 0 or infinity');
  const overwrite = (ctx.get('Overwrite') || 'T').trim().toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw new DavStatus(400, 'Overwrite must be T or F');
  const { item } = await resolve(core, actor, req.names);
  if (!item) throw new DavStatus(404, 'Nothing is here');
  if (item.kind === 'root') throw new DavStatus(403, 'The root cannot be copied or moved');
  const to = destinationOf(req);
  if (to.length === 0) throw new DavStatus(403, 'The root cannot be overwritten');
  if (within(to, req.names)) throw new DavStatus(403, 'The destination lies within the source');
  const name = newName(to);
  const target = await resolve(core, actor, to);
  if (target.parentId === undefined) throw new DavStatus(409, 'The destination collection does not exist');
  if (target.item && overwrite === 'F') throw new DavStatus(412, 'Something stands at the destination (Overwrite: F)');
  if (within(req.names, to)) throw new DavStatus(403, 'The destination lies above the source');
  await req.guard.checkConditions(item.file ? etagOf(item.file) : null);
  if (move) await req.guard.assertMayChange(pathOf(req), { deep: true, parent: true });
  await req.guard.assertMayChange(lockPath(to), { deep: true, parent: true });

  if (move) {
    if (item.kind === 'file') await core.updateFile.execute({ actor, id: item.id!, name, folderId: target.parentId });
    else await core.updateFolder.execute({ actor, id: item.id!, name, parentId: target.parentId });
    await core.dropLocks.execute({ actor, path: pathOf(req) });
  } else {
    await copyTree(core, actor, item, target.parentId, name, depth === 'infinity');
  }
  if (target.item) await removeItem(req, target.item);
  ctx.status = target.item ? 204 : 201;
}

/** Copies an item under `parentId` as `name`; on failure whatever was copied goes, and the failure is told. */
async function copyTree(core: Core, actor: Actor, item: Item, parentId: string | null, name: string, deep: boolean) {
  const pairs: [string, string][] = [];
  if (item.kind === 'file') {
    const id = await copyFile(core, actor, item.file!, parentId, name);
    pairs.push([item.id!, id]);
  } else {
    const top = await core.createFolder.execute({ actor, name, parentId });
    pairs.push([item.id!, top.id]);
    try {
      if (deep) await copyChildren(core, actor, item.id!, top.id, pairs);
    } catch (err) {
      await Promise.allSettled([core.deleteFolder.execute({ actor, id: top.id })]);
      throw err;
    }
  }
  await core.copyProperties.execute({ actor, pairs });
}

/** A file's copy is an upload of its bytes (same checks, maxima and holds), under its stored type. */
async function copyFile(core: Core, actor: Actor, from: FileView, folderId: string | null, name: string): Promise<string> {
  const content = await core.openFileContent.execute({ access: { actor, share: null }, id: from.id });
  const bytes = await content.open();
  const file = await core.uploadFile.execute({ actor, folderId, name, filename: name, mime: from.mime, content: bytes });
  return file.id;
}

/** Depth first, a page of children at a time. */
async function copyChildren(core: Core, actor: Actor, from: string, to: string, pairs: [string, string][]) {
  let cursor: string | null = null;
  do {
    const page = await core.listRoot.execute({ actor, folderId: from, limit: PAGE, cursor });
    for (const folder of page.folders) {
      const made = await core.createFolder.execute({ actor, name: folder.name, parentId: to });
      pairs.push([folder.id, made.id]);
      await copyChildren(core, actor, folder.id, made.id, pairs);
    }
    for (const file of page.files) pairs.push([file.id, await copyFile(core, actor, file, to, file.name)]);
    cursor = page.nextCursor;
  } while (cursor !== null);
}
