import type { Paste } from '../../domain/index.js';
import { DEFAULT_PASTE_NAME, assertMay, normalizePasteType, requireName, uploaderTokenOf } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { reserve, withReserved } from '../usage-limits.js';
import { pasteView } from '../views.js';
import { contentSize } from './paste-input.js';

type Port = Core['createPaste'];

/** Uploader tokens may create pastes. A paste counts once toward `pastes` and its bytes toward `storage`. */
export class CreatePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'users' | 'usage' | 'settings' | 'ids' | 'clock'>) {}

  async execute({ actor, name, type, content }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.create');
    const cleanName = requireName(name ?? DEFAULT_PASTE_NAME);
    const pasteType = normalizePasteType(type);
    const size = contentSize(content);
    return withReserved(this.p, actor.userId, 'pastes', async () => {
      await reserve(this.p, actor.userId, 'storage', size);
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
  }
}
