import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports, ShareChanges } from '../ports/index.js';
import { owned } from '../owned.js';
import { shareLimits } from './share-limits.js';
import { sharePasswordHash } from './share-password.js';
import { shareView } from './share-views.js';

type Port = Core['updateShare'];

/**
 * Sets or clears (null; '' for the password) what the input names, in one write, and counts nothing. Lifting an
 * expiry or a maximum, or raising it past the count, makes the share active again; an expiry in the past ends it
 * without deleting it.
 */
export class UpdateShare implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'shares' | 'hasher' | 'users' | 'files' | 'folders' | 'collections' | 'pastes' | 'clock'
    >,
  ) {}

  async execute({ actor, id, password, ...options }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.update');
    owned(await this.p.shares.findById(id), actor.userId, 'Share');
    const changes: ShareChanges = shareLimits(options, this.p.clock.now(), false);
    if (password !== undefined) changes.passwordHash = await sharePasswordHash(this.p, password);
    const updated = await this.p.shares.update(id, changes);
    const view = updated && (await shareView(this.p, updated));
    if (!view) throw notFound('Share');
    return view;
  }
}
