import type { Paste } from '../../domain/index.js';
import { DEFAULT_PASTE_NAME, DEFAULT_PASTE_TYPE, assertMay, badRequest, checkEncryptedContent, encryptedName, normalizePasteType, requireName, uploaderTokenOf } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { createHeld } from '../usage/record-holds.js';
import { pasteView } from '../views.js';
import { shareItem, type ShareDeps } from '../shares/create-share.js';
import { shareLimits } from '../shares/share-limits.js';
import { contentSize } from './paste-input.js';

type Port = Core['createPaste'];

/**
 * Uploader tokens may create pastes. A paste counts once toward `pastes` and its bytes toward `storage`, both held
 * under the paste's id until it stands with the share asked for: if the share cannot be made, the paste goes too.
 */
export class CreatePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'instance'> & ShareDeps) {}

  async execute({ actor, name, type, content, share, encrypted = false }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.create');
    if (share) shareLimits(share, this.p.clock.now(), true);
    if (encrypted) {
      // The name and type are inside the encrypted content; given in the clear they would say what it hides.
      const clear = name !== undefined ? 'name' : type !== undefined ? 'type' : null;
      if (clear) throw badRequest(`An encrypted paste takes no ${clear}: it is in its encrypted content`, { field: clear });
      checkEncryptedContent(content);
    }
    const cleanName = requireName(name ?? DEFAULT_PASTE_NAME);
    const pasteType = normalizePasteType(type);
    const size = contentSize(content);
    const now = this.p.clock.now();
    const id = this.p.ids.newId();
    const paste: Paste = {
      id,
      ownerId: actor.userId,
      name: encrypted ? encryptedName(id) : cleanName,
      type: encrypted ? DEFAULT_PASTE_TYPE : pasteType,
      ...(encrypted ? { encrypted: true } : {}),
      content,
      size,
      uploaderTokenId: uploaderTokenOf(actor),
      createdAt: now,
      updatedAt: now,
    };
    let shareId: string | undefined;
    const storage = { kind: 'storage' as const, amount: size };
    await createHeld(
      this.p,
      actor,
      'pastes',
      'paste',
      paste.id,
      {
        insert: () => this.p.pastes.insert(paste),
        check: async () => {
          if (share) shareId = (await shareItem(this.p, actor, 'paste', paste.id, share)).id;
          return null;
        },
        takeBack: async () => (await this.p.pastes.delete(paste.id)) !== null,
      },
      storage,
    );
    const view = pasteView(paste, null);
    return shareId === undefined ? view : { ...view, shareId };
  }
}
