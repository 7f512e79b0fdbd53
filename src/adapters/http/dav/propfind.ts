import { Readable } from 'node:stream';
import type { ItemProperty } from '../../../domain/index.js';
import { DavStatus } from './lock-guard.js';
import { depthOf, isDav, xmlBody, type DavRequest } from './dav-request.js';
import { propfindResponse, type PropName, type PropRequest, type Quota } from './properties.js';
import { itemOfFile, itemOfFolder, resolve, type Item } from './resources.js';
import type { XmlElement } from './xml-read.js';

/** Children are read a page at a time, so an answer about 10,000 of them holds one page at once, not the folder. */
const PAGE = 250;

function propRequestOf(body: XmlElement | null): PropRequest {
  if (body === null) return { kind: 'allprop', include: [] };
  if (!isDav(body, 'propfind')) throw new DavStatus(400, 'The body must be a DAV:propfind');
  const names = (element: XmlElement): PropName[] => element.children.map(({ ns, local }) => ({ ns, local }));
  const [first] = body.children;
  if (!first) throw new DavStatus(400, 'DAV:propfind needs allprop, propname or prop');
  if (isDav(first, 'propname')) return { kind: 'propname' };
  if (isDav(first, 'allprop')) {
    const include = body.children.find((c) => isDav(c, 'include'));
    return { kind: 'allprop', include: include ? names(include) : [] };
  }
  if (isDav(first, 'prop')) return { kind: 'prop', names: names(first) };
  throw new DavStatus(400, 'DAV:propfind needs allprop, propname or prop');
}

/** PROPFIND at depth 0 or 1 (RFC 4918 §9.1); depth infinity is refused with propfind-finite-depth. */
export async function propfind(req: DavRequest): Promise<void> {
  const { ctx, core, actor } = req;
  const depth = depthOf(ctx, 'infinity');
  if (depth === 'infinity') throw new DavStatus(403, 'Depth infinity is not served: ask with Depth 0 or 1', 'propfind-finite-depth');
  const request = propRequestOf(await xmlBody(ctx));
  const { item } = await resolve(core, actor, req.names);
  if (!item) throw new DavStatus(404, 'Nothing is here');
  const locks = await req.guard.live();
  const wantsQuota =
    request.kind === 'propname' ||
    (request.kind === 'prop' && request.names.some((n) => n.ns === 'DAV:' && n.local.startsWith('quota-'))) ||
    (request.kind === 'allprop' && request.include.some((n) => n.ns === 'DAV:' && n.local.startsWith('quota-')));
  const quota = wantsQuota ? await quotaOf(req) : null;
  const now = new Date();
  const props = async (items: readonly Item[]) => {
    const ids = items.flatMap((i) => (i.id ? [i.id] : []));
    return ids.length ? core.getProperties.execute({ actor, itemIds: ids }) : ({} as Record<string, ItemProperty[]>);
  };
  const one = (entry: Item, dead: Record<string, ItemProperty[]>) =>
    propfindResponse(entry, request, (entry.id && dead[entry.id]) || [], locks, quota, now);

  async function* lines(): AsyncGenerator<string> {
    yield '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">\n';
    yield one(item!, await props([item!]));
    if (depth === '1' && item!.kind !== 'file') {
      // Names are display names: where two children share one, the first (a folder before a file) answers for it.
      const folderNames = new Set<string>();
      let lastFile: string | null = null;
      let cursor: string | null = null;
      do {
        const page = await core.listRoot.execute({ actor, folderId: item!.id, limit: PAGE, cursor });
        const entries: Item[] = [];
        for (const folder of page.folders) {
          if (folderNames.has(folder.name)) continue;
          folderNames.add(folder.name);
          entries.push(itemOfFolder([...req.names, folder.name], folder));
        }
        for (const file of page.files) {
          if (folderNames.has(file.name) || file.name === lastFile) continue;
          lastFile = file.name;
          entries.push(itemOfFile([...req.names, file.name], file));
        }
        const dead = await props(entries);
        let chunk = '';
        for (const entry of entries) chunk += one(entry, dead);
        yield chunk;
        cursor = page.nextCursor;
      } while (cursor !== null);
    }
    yield '</D:multistatus>\n';
  }
  ctx.status = 207;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Readable.from(lines());
}

async function quotaOf(req: DavRequest): Promise<Quota> {
  const usage = await req.core.getUsage.execute({ actor: req.actor });
  const used = Number(usage.storage.current);
  const max = usage.storage.max === null ? null : Number(usage.storage.max);
  return { used, available: max === null ? null : Math.max(0, max - used) };
}
