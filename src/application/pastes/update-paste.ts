import type { Actor, Paste } from '../../domain/index.js';
import { assertMay, badRequest, conflict, normalizePasteType, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { PastePatch, Ports } from '../ports/index.js';
import { reserve } from '../usage/usage-limits.js';
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
 */
export class UpdatePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares' | 'users' | 'usage' | 'settings' | 'clock'>) {}

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
      const updated = await this.write(actor, id, { ...patch, ifSize: current.size }, current.size);
      if (updated) {
        const shareIds = await this.p.shares.idsForItems('paste', [id]);
        return pasteView(updated, shareIds.get(id) ?? null);
      }
    }
    throw conflict('The paste is being changed by another request; try again');
  }

  /** One conditional write with its storage accounting; null when the stored size moved on meanwhile. */
  private async write(actor: Actor, id: string, patch: PastePatch, currentSize: number): Promise<Paste | null> {
    const { userId } = actor;
    const growth = patch.size === undefined ? 0 : patch.size - currentSize;
    if (growth > 0) await reserve(this.p, actor, 'storage', growth);
    let updated: Paste | null;
    try {
      updated = await this.p.pastes.update(id, patch);
    } catch (err) {
      if (growth > 0) await this.p.usage.release(userId, 'storage', growth);
      throw err;
    }
    if (!updated) {
      if (growth > 0) await this.p.usage.release(userId, 'storage', growth);
      // Gone (the delete released its size) or changed by someone else: the caller re-reads and decides.
      if (!(await this.p.pastes.findById(id))) throw notFound('Paste');
      return null;
    }
    if (growth < 0) await this.p.usage.release(userId, 'storage', -growth);
    return updated;
  }
}
