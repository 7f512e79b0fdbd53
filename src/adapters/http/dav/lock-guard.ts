import type { Actor, WriteLock } from '../../../domain/index.js';
import { covers, isWithin } from '../../../domain/index.js';
import type { Core } from '../../../application/contract.js';
import { DavPathError, lockPath, segmentsOf } from './dav-path.js';
import { IfHeaderError, parseIf, submittedTokens, type IfList } from './if-header.js';
import { etagOf, resolve } from './resources.js';

export class DavStatus extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A precondition element of RFC 4918 §16 to name in the body, if any. */
    readonly condition?: string,
  ) {
    super(message);
  }
}

/**
 * The If header and the locks of one request: whether the header's conditions hold (else 412), and whether every
 * lock over what the request changes had its token submitted (else 423).
 */
export class LockGuard {
  private locks: WriteLock[] | null = null;
  readonly lists: IfList[] | null;
  readonly tokens: Set<string>;

  constructor(
    private readonly core: Core,
    private readonly actor: Actor,
    private readonly requestPath: string,
    header: string,
  ) {
    try {
      this.lists = header ? parseIf(header) : null;
    } catch (err) {
      if (err instanceof IfHeaderError) throw new DavStatus(400, err.message);
      throw err;
    }
    this.tokens = this.lists ? submittedTokens(this.lists) : new Set();
  }

  async live(): Promise<WriteLock[]> {
    this.locks ??= await this.core.listLocks.execute({ actor: this.actor });
    return this.locks;
  }

  /** 412 unless one list of the If header holds (no header: nothing to hold). `etag`: the request's resource's. */
  async checkConditions(etag: string | null): Promise<void> {
    if (!this.lists) return;
    const locks = await this.live();
    for (const list of this.lists) {
      if (list.path === '\0') continue;
      const path = list.path === null ? this.requestPath : lockPath(segmentsOfSafe(list.path));
      const listEtag = list.path === null ? etag : await this.etagAt(list.path);
      const holds = list.conditions.every((c) => {
        const match = c.token !== undefined
          ? locks.some((lock) => lock.token === c.token && covers(lock, path))
          : listEtag !== null && c.etag === listEtag;
        return match !== c.not;
      });
      if (holds) return;
    }
    throw new DavStatus(412, 'The If header does not hold');
  }

  /**
   * 423 unless the request submitted a token of a lock over each place it changes: `path` itself (and, with `deep`,
   * every lock below it), and its parent's membership when `parent` (a create, delete or move changes it).
   */
  async assertMayChange(path: string, { deep = false, parent = false } = {}): Promise<void> {
    const locks = await this.live();
    const over = locks.filter((lock) => covers(lock, path));
    if (over.length > 0 && !over.some((lock) => this.tokens.has(lock.token))) {
      throw new DavStatus(423, 'The resource is locked', 'lock-token-submitted');
    }
    if (deep) {
      const below = locks.filter((lock) => lock.path !== path && isWithin(lock.path, path));
      if (below.some((lock) => !this.tokens.has(lock.token))) {
        throw new DavStatus(423, 'Something below the resource is locked', 'lock-token-submitted');
      }
    }
    if (parent && path !== '/') {
      const parentPath = path.slice(0, path.lastIndexOf('/')) || '/';
      const onParent = locks.filter((lock) => lock.path === parentPath || covers(lock, parentPath));
      if (onParent.length > 0 && !onParent.some((lock) => this.tokens.has(lock.token))) {
        throw new DavStatus(423, 'The collection is locked', 'lock-token-submitted');
      }
    }
  }

  private async etagAt(davPath: string): Promise<string | null> {
    const { item } = await resolve(this.core, this.actor, segmentsOfSafe(davPath));
    return item?.file ? etagOf(item.file) : null;
  }
}

function segmentsOfSafe(path: string): string[] {
  try {
    return segmentsOf(path);
  } catch (err) {
    if (err instanceof DavPathError) return ['\0'];
    throw err;
  }
}
