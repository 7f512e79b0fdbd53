import type { ItemProperty, WriteLock } from '../../../domain/index.js';
import { covers } from '../../../domain/index.js';
import { dav, esc, tag } from './xml-write.js';
import { hrefOf } from './dav-path.js';
import { etagOf, hrefOfItem, isCollection, lockPathOf, type Item } from './resources.js';

export interface PropName {
  ns: string;
  local: string;
}

/** What PROPFIND asks for: every property (allprop, plus `include`), their names only, or the ones named. */
export type PropRequest = { kind: 'allprop'; include: PropName[] } | { kind: 'propname' } | { kind: 'prop'; names: PropName[] };

export interface Quota {
  used: number;
  /** Null: no maximum. */
  available: number | null;
}

const LIVE = [
  'resourcetype',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'creationdate',
  'supportedlock',
  'lockdiscovery',
  'quota-available-bytes',
  'quota-used-bytes',
] as const;
type Live = (typeof LIVE)[number];
/** RFC 4331: the quota properties are not part of allprop. */
const NOT_IN_ALLPROP = new Set<string>(['quota-available-bytes', 'quota-used-bytes']);
export const isLive = (name: PropName) => name.ns === 'DAV:' && (LIVE as readonly string[]).includes(name.local);

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** One lock as lockdiscovery and a LOCK answer show it. */
export function activeLock(lock: WriteLock, now: Date): string {
  const left = Math.max(0, Math.round((lock.expiresAt.getTime() - now.getTime()) / 1000));
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === 0 ? '0' : 'infinity'}</D:depth>` +
    (lock.owner ? `<D:owner>${lock.owner}</D:owner>` : '') +
    `<D:timeout>Second-${left}</D:timeout>` +
    `<D:locktoken><D:href>${esc(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${esc(hrefOfLockRoot(lock))}</D:href></D:lockroot></D:activelock>`
  );
}

function hrefOfLockRoot(lock: WriteLock): string {
  return hrefOf(lock.path === '/' ? [] : lock.path.slice(1).split('/'), false);
}

/** The value of a live property of the item, or undefined when the item has no such property. */
function liveValue(name: Live, item: Item, locks: readonly WriteLock[], quota: Quota | null, now: Date): string | undefined {
  const file = item.file;
  const created = file?.createdAt ?? item.folder?.createdAt ?? null;
  const modified = file?.updatedAt ?? item.folder?.updatedAt ?? null;
  switch (name) {
    case 'resourcetype':
      return isCollection(item) ? '<D:collection/>' : '';
    case 'displayname':
      return esc(item.names.at(-1) ?? '');
    case 'getcontentlength':
      return file ? file.size : undefined;
    case 'getcontenttype':
      return file ? esc(file.mime) : undefined;
    case 'getetag':
      return file ? esc(etagOf(file)) : undefined;
    case 'getlastmodified':
      return modified ? new Date(modified).toUTCString() : undefined;
    case 'creationdate':
      return created ?? undefined;
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery': {
      const path = lockPathOf(item);
      return locks.filter((lock) => covers(lock, path)).map((lock) => activeLock(lock, now)).join('');
    }
    case 'quota-available-bytes':
      return isCollection(item) && quota && quota.available !== null ? String(quota.available) : undefined;
    case 'quota-used-bytes':
      return isCollection(item) && quota ? String(quota.used) : undefined;
  }
}

const OK = 'HTTP/1.1 200 OK';
const NOT_FOUND = 'HTTP/1.1 404 Not Found';

function propstat(props: string, status: string): string {
  return `<D:propstat><D:prop>${props}</D:prop><D:status>${status}</D:status></D:propstat>`;
}

/** One <D:response> of a PROPFIND answer. */
export function propfindResponse(
  item: Item,
  request: PropRequest,
  dead: readonly ItemProperty[],
  locks: readonly WriteLock[],
  quota: Quota | null,
  now: Date,
): string {
  let found = '';
  let missing = '';
  const value = (name: Live) => liveValue(name, item, locks, quota, now);
  if (request.kind === 'propname') {
    for (const name of LIVE) if (value(name) !== undefined) found += `<D:${name}/>`;
    for (const prop of dead) found += tag(prop.ns, prop.name, null);
  } else {
    const names: PropName[] =
      request.kind === 'prop'
        ? request.names
        : [
            ...LIVE.filter((name) => !NOT_IN_ALLPROP.has(name)).map((local) => ({ ns: 'DAV:', local })),
            ...dead.map((prop) => ({ ns: prop.ns, local: prop.name })),
            ...request.include.filter((name) => isLive(name) && NOT_IN_ALLPROP.has(name.local)),
          ];
    for (const name of names) {
      if (isLive(name)) {
        const v = value(name.local as Live);
        if (v === undefined) missing += tag(name.ns, name.local, null);
        else found += v === '' ? `<D:${name.local}/>` : `<D:${name.local}>${v}</D:${name.local}>`;
        continue;
      }
      const stored = dead.find((prop) => prop.ns === name.ns && prop.name === name.local);
      if (stored) found += tag(stored.ns, stored.name, stored.value);
      else if (request.kind === 'prop') missing += tag(name.ns, name.local, null);
    }
  }
  let out = `<D:response><D:href>${esc(hrefOfItem(item))}</D:href>`;
  if (found || request.kind !== 'prop' || !missing) out += propstat(found, OK);
  if (missing) out += propstat(missing, NOT_FOUND);
  return `${out}</D:response>\n`;
}

export { dav };
