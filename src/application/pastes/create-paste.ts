import type { Actor, Paste } from '../../domain/index.js';
import { DEFAULT_PASTE_NAME, assertMay, normalizePasteType, requireName, uploaderTokenOf } from '../../domain/index.js';
import type { Core, ShareOptions } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { reserve, withReserved } from '../usage/usage-limits.js';
import { pasteView } from '../views.js';
import { shareItem, type ShareDeps } from '../shares/create-share.js';
import { shareLimits } from '../shares/share-limits.js';
import { contentSize } from './paste-input.js';

type Port = Core['createPaste'];

/** Uploader tokens may create pastes. A paste counts once toward `pastes` and its bytes toward `storage`. */
export class CreatePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'users' | 'usage' | 'settings' | 'ids' | 'clock'> & ShareDeps) {}

  async execute({ actor, name, type, content, share }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.create');
    if (share) shareLimits(share, this.p.clock.now(), true);
    const cleanName = requireName(name ?? DEFAULT_PASTE_NAME);
    const pasteType = normalizePasteType(type);
    const size = contentSize(content);
    const view = await withReserved(this.p, actor, 'pastes', async () => {
      await reserve(this.p, actor, 'storage', size);
      try {
        const now = this.p.clock.now();
        const paste: Paste = {
          id: this.p.ids.newId(),
          ownerId: actor.userId,
          name: cleanName,
          type: pasteType,
          content,
          size,
          uploaderTokenId: uploaderTokenOf(actor),
          createdAt: now,
          updatedAt: now,
        };
        await this.p.pastes.insert(paste);
        return pasteView(paste, null);
      } catch (err) {
        await this.p.usage.release(actor.userId, 'storage', size);
        throw err;
      }
    });
    return share ? { ...view, shareId: await this.shareOf(view.id, actor, share) } : view;
  }

  /** The share asked for, made as any share is; if it cannot be made, the paste goes too (with its counts). */
  private async shareOf(id: string, actor: Actor, options: ShareOptions): Promise<string> {
    try {
      return (await shareItem(this.p, actor, 'paste', id, options)).id;
    } catch (err) {
      const removed = await this.p.pastes.delete(id);
      if (removed) {
        await this.p.usage.release(actor.userId, 'storage', removed.size);
        await this.p.usage.release(actor.userId, 'pastes', 1);
      }
      throw err;
    }
  }
}
