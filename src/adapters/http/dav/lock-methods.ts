import { covers, DEFAULT_LOCK_SECONDS, isDomainError, MAX_LOCK_OWNER_BYTES, MAX_LOCK_SECONDS } from '../../../domain/index.js';
import { DavStatus } from './lock-guard.js';
import { depthOf, isDav, pathOf, sendXml, xmlBody, type DavRequest } from './dav-request.js';
import { activeLock } from './properties.js';
import { etagOf, resolve } from './resources.js';
import { innerXml } from './xml-write.js';
import { newName } from './write-methods.js';

/** `Timeout: Second-n, Infinite` (RFC 4918 §10.7): the first the server takes, bounded by MAX_LOCK_SECONDS. */
function timeoutOf(header: string): number {
  for (const part of header.split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return MAX_LOCK_SECONDS;
    const m = /^second-(\d{1,12})$/i.exec(value);
    if (m) return Math.min(MAX_LOCK_SECONDS, Math.max(1, Number(m[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}

const lockAnswer = (body: string) => `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${body}</D:lockdiscovery></D:prop>\n`;

/**
 * LOCK (RFC 4918 §9.10): a new exclusive or shared write lock (Depth 0 or infinity), or with no body a refresh of
 * the lock whose token the If header names. A lock on an unmapped name makes an empty file there (§7.3), 201.
 */
export async function lock(req: DavRequest): Promise<void> {
  const { ctx, core, actor } = req;
  const body = await xmlBody(ctx);
  const timeoutSeconds = timeoutOf(ctx.get('Timeout'));
  const now = new Date();
  if (body === null) {
    const [token] = req.guard.tokens;
    if (!token) throw new DavStatus(400, 'A refresh names its lock in the If header');
    try {
      const refreshed = await core.refreshLock.execute({ actor, token, timeoutSeconds });
      sendXml(ctx, 200, lockAnswer(activeLock(refreshed, now)));
    } catch (err) {
      if (isDomainError(err) && err.code === 'not_found') throw new DavStatus(412, 'No such lock here', 'lock-token-matches-request-uri');
      throw err;
    }
    return;
  }
  if (!isDav(body, 'lockinfo')) throw new DavStatus(400, 'The body must be a DAV:lockinfo');
  const scopeElement = body.children.find((c) => isDav(c, 'lockscope'))?.children[0];
  const scope = isDav(scopeElement, 'exclusive') ? 'exclusive' : isDav(scopeElement, 'shared') ? 'shared' : null;
  if (!scope) throw new DavStatus(400, 'lockscope must be exclusive or shared');
  if (!isDav(body.children.find((c) => isDav(c, 'locktype'))?.children[0], 'write')) {
    throw new DavStatus(400, 'Only write locks exist');
  }
  const ownerElement = body.children.find((c) => isDav(c, 'owner'));
  const owner = ownerElement ? innerXml(ownerElement) : '';
  if (Buffer.byteLength(owner) > MAX_LOCK_OWNER_BYTES) throw new DavStatus(400, 'The lock owner is too long');
  const depth = depthOf(ctx, 'infinity');
  if (depth === '1') throw new DavStatus(400, 'A lock has Depth 0 or infinity');
  const { item, parentId } = await resolve(core, actor, req.names);
  await req.guard.checkConditions(item?.file ? etagOf(item.file) : null);
  let created = false;
  if (!item) {
    const name = newName(req.names);
    if (parentId === undefined) throw new DavStatus(409, 'The parent collection does not exist');
    await req.guard.assertMayChange(pathOf(req), { parent: true });
    await core.uploadFile.execute({ actor, folderId: parentId, name, filename: name, mime: undefined, content: empty() });
    created = true;
  }
  let taken;
  try {
    taken = await core.takeLock.execute({ actor, path: pathOf(req), depth: depth === '0' ? 0 : 'infinity', scope, owner, timeoutSeconds });
  } catch (err) {
    if (isDomainError(err) && err.code === 'conflict') throw new DavStatus(423, 'Locked', 'no-conflicting-lock');
    throw err;
  }
  ctx.set('Lock-Token', `<${taken.token}>`);
  sendXml(ctx, created ? 201 : 200, lockAnswer(activeLock(taken, now)));
}

async function* empty(): AsyncIterable<Uint8Array> {}

/** UNLOCK (RFC 4918 §9.11): 204; 400 without a Lock-Token, 409 when no such lock covers the resource. */
export async function unlock(req: DavRequest): Promise<void> {
  const header = req.ctx.get('Lock-Token').trim();
  const m = /^<([^>]+)>$/.exec(header);
  if (!m) throw new DavStatus(400, 'Lock-Token: <token> is required');
  const token = m[1]!;
  const locks = await req.guard.live();
  const path = pathOf(req);
  const found = locks.find((l) => l.token === token);
  if (!found || !covers(found, path)) {
    throw new DavStatus(409, 'No such lock on this resource', 'lock-token-matches-request-uri');
  }
  try {
    await req.core.releaseLock.execute({ actor: req.actor, token });
  } catch (err) {
    if (isDomainError(err) && err.code === 'not_found') throw new DavStatus(409, 'No such lock', 'lock-token-matches-request-uri');
    throw err;
  }
  req.ctx.status = 204;
}
