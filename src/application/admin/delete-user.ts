import { assertAdmin, conflict, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { AdminGuarded, Ports } from '../ports/index.js';
import { findUser } from './find-user.js';

type Port = Core['deleteUser'];
type Deps = Pick<
  Ports,
  'users' | 'tokens' | 'files' | 'folders' | 'collections' | 'pastes' | 'shares' | 'uploads' | 'usage' | 'blobs' | 'clock'
>;

export class DeleteUser implements Port {
  constructor(private readonly p: Deps) {}

  /**
   * Removes the account and everything it owns. Credentials go first so the user cannot add anything while the
   * cascade runs; then whatever points at other records (shares, collections) before what they point at; a file's
   * record before its bytes; the user record last, so a cascade cut short can simply be run again.
   * An admin is first made a plain user: that is the one atomic check that another admin remains, and it comes
   * before anything is deleted (a cascade cut short then leaves a plain account to delete again).
   */
  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    if (id === actor.userId) throw conflict('You cannot delete your own account');
    const user = await findUser(this.p, id);
    if (user.type === 'admin') this.guarded(await this.p.users.setType(id, 'user', this.p.clock.now()));
    await this.p.tokens.deleteByUser(user.id);
    for (const share of await this.p.shares.listByOwner(user.id)) await this.p.shares.delete(share.id);
    for (const collection of await this.p.collections.listByOwner(user.id)) {
      await this.p.collections.delete(collection.id);
    }
    for (const paste of await this.p.pastes.listByOwner(user.id)) await this.p.pastes.delete(paste.id);
    for (const file of await this.p.files.listByOwner(user.id)) {
      const deleted = await this.p.files.delete(file.id);
      // A store failure leaves orphan bytes for the sweep; it must not keep the account (and its tokens' owner) alive.
      if (deleted) await Promise.allSettled([this.p.blobs.delete(deleted.blobKey)]);
    }
    // Unfinished resumable uploads go with their bytes (an append still under way then fails to land).
    for (const uploadId of await this.p.uploads.idsByOwner(user.id)) {
      const session = await this.p.uploads.take(uploadId);
      if (session) await Promise.allSettled(session.parts.map((part) => this.p.blobs.delete(part.key)));
    }
    const folders = await this.p.folders.listByOwner(user.id);
    if (folders.length > 0) await this.p.folders.deleteMany(folders.map((f) => f.id));
    await this.p.usage.remove(user.id);
    this.guarded(await this.p.users.delete(user.id));
  }

  private guarded(outcome: AdminGuarded): void {
    if (outcome === 'last_admin') throw conflict('The last admin cannot be deleted');
    if (outcome === 'missing') throw notFound('User');
  }
}
