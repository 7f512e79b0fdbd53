import { notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { authorizeRead, countUse } from '../shares/share-access.js';
import { pasteView } from '../views.js';

type Port = Core['getPaste'];

/**
 * Through a share link the answer carries the paste's whole content, its bytes: that read counts a download, as
 * the share's content route would, so `maxDownloads` cannot be stepped around here.
 */
export class GetPaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'clock' | 'secrets'>) {}

  async execute({ access, id }: Parameters<Port['execute']>[0]) {
    const paste = await this.p.pastes.findById(id);
    // A missing paste goes through the same checks as a foreign one (no owner matches ''), so the answer
    // (unauthorized, forbidden or not_found) never reveals whether it exists.
    const through = await authorizeRead(this.p, access, {
      what: 'Paste',
      ownerId: paste?.ownerId ?? '',
      action: 'paste.read',
      describe: async () => ({ kind: 'paste', pasteId: id }),
    });
    if (!paste) throw notFound('Paste');
    if (through && !access.share?.peek) await countUse(this.p, through, 'downloads', access.actor);
    const shareIds = await this.p.shares.idsForItems('paste', [id]);
    return pasteView(paste, shareIds.get(id) ?? null);
  }
}
