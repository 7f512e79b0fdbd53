import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';
import { sharePasswordHash } from './share-password.js';
import { shareView } from './share-views.js';

type Port = Core['updateShare'];

/** Sets (string) or clears (null or '') the password; counts no view. */
export class UpdateShare implements Port {
  constructor(
    private readonly p: Pick<Ports, 'shares' | 'hasher' | 'users' | 'files' | 'folders' | 'collections' | 'pastes'>,
  ) {}

  async execute({ actor, id, password }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.update');
    owned(await this.p.shares.findById(id), actor.userId, 'Share');
    const updated = await this.p.shares.setPassword(id, await sharePasswordHash(this.p, password));
    const view = updated && (await shareView(this.p, updated));
    if (!view) throw notFound('Share');
    return view;
  }
}
