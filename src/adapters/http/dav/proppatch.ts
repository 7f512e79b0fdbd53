import { isDomainError } from '../../../domain/index.js';
import { DavStatus } from './lock-guard.js';
import { isDav, pathOf, sendXml, xmlBody, type DavRequest } from './dav-request.js';
import { isLive } from './properties.js';
import { hrefOfItem, resolve } from './resources.js';
import { esc, innerXml, tag } from './xml-write.js';

interface Instruction {
  ns: string;
  local: string;
  value: string | null;
}

/**
 * PROPPATCH (RFC 4918 §9.2): dead properties set and removed in order, all or nothing. A live property cannot be
 * changed (403 cannot-modify-protected-property for it, 424 for the rest); the root keeps none (403).
 */
export async function proppatch(req: DavRequest): Promise<void> {
  const { ctx, core, actor } = req;
  const body = await xmlBody(ctx);
  if (!body || !isDav(body, 'propertyupdate')) throw new DavStatus(400, 'The body must be a DAV:propertyupdate');
  const { item } = await resolve(core, actor, req.names);
  if (!item) throw new DavStatus(404, 'Nothing is here');
  await req.guard.checkConditions(null);
  await req.guard.assertMayChange(pathOf(req));
  const instructions: Instruction[] = [];
  for (const action of body.children) {
    const set = isDav(action, 'set');
    if (!set && !isDav(action, 'remove')) throw new DavStatus(400, 'propertyupdate holds only set and remove');
    for (const prop of action.children.filter((c) => isDav(c, 'prop'))) {
      for (const p of prop.children) instructions.push({ ns: p.ns, local: p.local, value: set ? innerXml(p) : null });
    }
  }
  if (instructions.length === 0) throw new DavStatus(400, 'propertyupdate names no property');
  const refused = instructions.filter((i) => isLive({ ns: i.ns, local: i.local }) || item.id === null);
  let failure: { status: string; names: Instruction[] } | null = null;
  if (refused.length === 0) {
    try {
      await core.patchProperties.execute({
        actor,
        itemId: item.id!,
        changes: instructions.map((i) => ({ ns: i.ns, name: i.local, value: i.value })),
      });
    } catch (err) {
      if (!isDomainError(err) || err.code !== 'payload_too_large') throw err;
      failure = { status: 'HTTP/1.1 507 Insufficient Storage', names: instructions };
    }
  }
  const names = (list: Instruction[]) => list.map((i) => tag(i.ns, i.local, null)).join('');
  const stat = (list: Instruction[], status: string) =>
    list.length ? `<D:propstat><D:prop>${names(list)}</D:prop><D:status>${status}</D:status></D:propstat>` : '';
  let stats: string;
  if (refused.length > 0) {
    const rest = instructions.filter((i) => !refused.includes(i));
    stats =
      stat(refused, 'HTTP/1.1 403 Forbidden').replace('</D:propstat>', '<D:responsedescription>A live property cannot be changed here</D:responsedescription></D:propstat>') +
      stat(rest, 'HTTP/1.1 424 Failed Dependency');
  } else if (failure) {
    stats = stat(failure.names, failure.status);
  } else {
    stats = stat(instructions, 'HTTP/1.1 200 OK');
  }
  sendXml(ctx, 207, `<D:multistatus xmlns:D="DAV:"><D:response><D:href>${esc(hrefOfItem(item))}</D:href>${stats}</D:response></D:multistatus>\n`);
}
