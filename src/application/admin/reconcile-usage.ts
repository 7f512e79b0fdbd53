import type { Usage } from '../../domain/index.js';
import { assertAdmin, LIMIT_KINDS, TOKEN_SCOPES } from '../../domain/index.js';
import type { Core, UsageDrift } from '../contract.js';
import type { Ports } from '../ports/index.js';

type Port = Core['reconcileUsage'];
type Deps = Pick<Ports, 'users' | 'tokens' | 'files' | 'folders' | 'collections' | 'pastes' | 'shares' | 'usage' | 'requests'>;

function differences(stored: Usage, actual: Usage): Partial<Usage> {
  const drift: Partial<Usage> = {};
  for (const kind of LIMIT_KINDS) if (stored[kind] !== actual[kind]) drift[kind] = actual[kind] - stored[kind];
  return drift;
}

/**
 * Recomputes every user's counters from what they own and reports where the stored counters drifted (a crash
 * between a write and its release, a hand edit of the database). With `fix`, the drifted counters are overwritten.
 *
 * Counting and overwriting are two steps: a create or delete that lands in between can make a busy account look
 * drifted, and fixing it then would be wrong by that one change. Run it when the service is quiet, or run the
 * report twice and fix what both runs agree on. The same holds for the admin count of the last-admin guard, which only
 * a crash mid-demotion leaves too low.
 */
export class ReconcileUsage implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, fix }: Parameters<Port['execute']>[0]) {
    if (actor !== null) assertAdmin(actor);
    const users = await this.p.users.list();
    const drifted: UsageDrift[] = [];
    for (const user of users) {
      const actual = await this.count(user.id);
      const stored = await this.p.usage.get(user.id);
      const drift = differences(stored, actual);
      if (Object.keys(drift).length === 0) continue;
      if (fix) await this.p.usage.set(user.id, actual);
      drifted.push({ userId: user.id, username: user.username, stored, actual, drift });
    }
    const admins = await this.p.users.checkAdminCount(fix);
    return { checked: users.length, fixed: fix, drifted, admins };
  }

  /** What the counters must say: the same units the use cases reserve (a paste's bytes count toward storage). */
  private async count(userId: string): Promise<Usage> {
    const [files, folders, pastes, collections, shares, tokens, requests] = await Promise.all([
      this.p.files.listByOwner(userId),
      this.p.folders.listByOwner(userId),
      this.p.pastes.listByOwner(userId),
      this.p.collections.listByOwner(userId),
      this.p.shares.listByOwner(userId),
      this.p.tokens.listByUser(userId, TOKEN_SCOPES),
      this.p.requests.listByOwner(userId),
    ]);
    const bytes = (items: { size: number }[]) => items.reduce((sum, item) => sum + item.size, 0);
    return {
      storage: bytes(files) + bytes(pastes),
      files: files.length,
      folders: folders.length,
      pastes: pastes.length,
      collections: collections.length,
      shares: shares.length,
      tokens: tokens.length,
      requests: requests.length,
    };
  }
}
