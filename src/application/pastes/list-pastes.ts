import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { pasteView } from '../views.js';

type Port = Core['listPastes'];

export class ListPastes implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.list');
    const pastes = await this.p.pastes.listByOwner(actor.userId);
    const shareIds = await this.p.shares.idsForItems('paste', pastes.map((paste) => paste.id));
    return pastes.map((paste) => pasteView(paste, shareIds.get(paste.id) ?? null));
  }
}
