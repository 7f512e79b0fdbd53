import type { Actor, Paste } from '../../domain/index.js';
import { assertMay, badRequest, conflict, normalizePasteType, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Hold, PastePatch, Ports } from '../ports/index.js';
import { limitsOf, refusal } from '../usage/usage-limits.js';
import { endedAsLanded, endRewrite } from './rewrite-hold.js';
import { owned } from '../owned.js';
import { pasteView } from '../views.js';
import { contentSize } from './paste-input.js';

type Port = Core['updatePaste'];

/** Concurrent edits of one paste's content retry this often before giving up with a conflict. */
const ATTEMPTS = 5;

/**
 * Growth is reserved before the write (so storage never exceeds its maximum, even briefly) and shrinkage released
 * after it (so the counter never drops below what is stored). The write only lands while the stored size is still
 * the one the difference was computed from, so two concurrent edits can never count the same change twice.
 *
 * A change of size is done under a hold of its own naming this instance (task `rewrite`): a growth is reserved into
 * it in the one conditional update that checks the maximum, a shrinkage is written into it first (beginTask), and the
 * write names the hold on the paste (`rewrites`). So a rewrite cut anywhere is known from the database, and the sweep
 * of gone instances ends it by whether the paste names the hold: one command more than a rewrite took before.
 */
export class UpdatePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares' | 'users' | 'usage' | 'settings' | 'clock' | 'ids' | 'instance'>) {}

  async execute({ actor, id, name, type, content }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.update');
    const patch: PastePatch = { updatedAt: this.p.clock.now() };
    if (name !== undefined) patch.name = requireName(name);
    if (type !== undefined) patch.type = normalizePasteType(type);
    if (content !== undefined) {
      patch.size = contentSize(content);
      patch.content = content;
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = owned(await this.p.pastes.findById(id), actor.userId, 'Paste');
      // Its key is not the server's, so nothing could check an edit: an encrypted paste is replaced, not edited.
      if (current.encrypted) throw badRequest('An encrypted paste cannot be edited; create a new one', { field: 'encrypted' });
      const updated = await this.write(actor, id, { ...patch, ifSize: current.size }, current);
      if (updated) {
        const shareIds = await this.p.shares.idsForItems('paste', [id]);
        return pasteView(updated, shareIds.get(id) ?? null);
      }
    }
    throw conflict('The paste is being changed by another request; try again');
  }

  /** One conditional write with its storage accounting; null when the stored size moved on meanwhile. */
  private async write(actor: Actor, id: string, patch: PastePatch, current: Paste): Promise<Paste | null> {
    const { userId } = actor;
    const growth = patch.size === undefined ? 0 : patch.size - current.size;
    if (growth === 0) return this.landed(id, await this.p.pastes.update(id, patch));
    const grows = growth > 0;
    const hold: Hold = { id: this.p.ids.newId(), at: this.p.clock.now(), by: this.p.instance.id() };
    const task = { kind: 'rewrite' as const, pasteId: id, grows };
    if (grows) {
      const max = limitsOf(this.p, actor).storage;
      if (!(await this.p.usage.reserve(userId, 'storage', growth, max, { ...hold, task }))) {
        throw await refusal(this.p, userId, 'storage', max);
      }
    } else {
      await this.p.usage.beginTask(userId, hold, task, { storage: -growth });
    }
    const end = (landed: boolean) => endRewrite(this.p, userId, hold.id, grows, landed, hold.by, false);
    let updated: Paste | null;
    try {
      updated = await this.p.pastes.update(id, { ...patch, rewrite: hold.id });
    } catch (err) {
      // Whether the write landed is read back; if even that fails, the hold waits for this instance's stop.
      const now = await this.p.pastes.findById(id).catch(() => undefined);
      if (now !== undefined) await end((now?.rewrites ?? []).includes(hold.id)).catch(() => undefined);
      throw err;
    }
    // A failed end leaves the hold to this instance's stop (or to a delete of the paste, when it landed).
    const ended = await end(updated !== null).catch(() => null);
    if (updated && ended?.ended === false && !(await endedAsLanded(this.p, userId, hold.id, grows))) await this.outlived(updated, current);
    return this.landed(id, updated);
  }

  /**
   * The write landed, but its hold was ended as not landed meanwhile: this instance was taken for dead (its lease ran
   * out while it stalled before the write) and the sweep, finding the paste without this rewrite, counted the old
   * size. The paste goes back to what it was (only while it is still what this write made), so it matches its count.
   */
  private async outlived(updated: Paste, before: Paste): Promise<never> {
    const { name, type, content, size, updatedAt } = before;
    await this.p.pastes.update(updated.id, { name, type, content, size, updatedAt, ifSize: updated.size }).catch(() => null);
    throw new Error('The rewrite outlived its instance’s lease and its count was ended as not landed');
  }

  /** The paste written, or null when it changed meanwhile (the caller re-reads); not found when it is gone. */
  private async landed(id: string, updated: Paste | null): Promise<Paste | null> {
    // Gone (the delete released its size) or changed by someone else: the caller re-reads and decides.
    if (!updated && !(await this.p.pastes.findById(id))) throw notFound('Paste');
    return updated;
  }
}
