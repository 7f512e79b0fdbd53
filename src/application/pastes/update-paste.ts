import type { Paste } from '../../domain/index.js';
import { assertMay, normalizePasteType, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { PastePatch, Ports } from '../ports/index.js';
import { shareIdsOf } from '../share-ids.js';
import { owned, reserve } from '../usage-limits.js';
import { pasteView } from '../views.js';
import { contentSize } from './paste-input.js';

type Port = Core['updatePaste'];

/**
 * Growth is reserved before the write (so storage never exceeds its maximum, even briefly) and shrinkage released
 * after it (so the counter never drops below what is stored).
 */
export class UpdatePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares' | 'users' | 'usage' | 'settings' | 'clock'>) {}

  async execute({ actor, id, name, type, content }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.update');
    const current = owned(await this.p.pastes.findById(id), actor.userId, 'Paste');
    const patch: PastePatch = { updatedAt: this.p.clock.now() };
    if (name !== undefined) patch.name = requireName(name);
    if (type !== undefined) patch.type = normalizePasteType(type);
    let growth = 0;
    if (content !== undefined) {
      patch.size = contentSize(content);
      patch.content = content;
      growth = patch.size - current.size;
    }
    if (growth > 0) await reserve(this.p, actor.userId, 'storage', growth);
    let updated: Paste | null;
    try {
      updated = await this.p.pastes.update(id, patch);
    } catch (err) {
      if (growth > 0) await this.p.usage.release(actor.userId, 'storage', growth);
      throw err;
    }
    if (!updated) {
      // Deleted meanwhile: the delete released the stored size, so only our own reservation goes back.
      if (growth > 0) await this.p.usage.release(actor.userId, 'storage', growth);
      throw notFound('Paste');
    }
    if (growth < 0) await this.p.usage.release(actor.userId, 'storage', -growth);
    const shareIds = await shareIdsOf(this.p, 'paste', [id]);
    return pasteView(updated, shareIds.get(id) ?? null);
  }
}
