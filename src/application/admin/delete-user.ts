import { assertAdmin, conflict, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { AdminGuarded, Ports } from '../ports/index.js';
import { findUser } from './find-user.js';
import { removeAccount, type AccountDeps } from './remove-account.js';

type Port = Core['deleteUser'];
type Deps = AccountDeps & Pick<Ports, 'clock' | 'ids' | 'instance'>;

export class DeleteUser implements Port {
  constructor(private readonly p: Deps) {}

  /**
   * Removes the account and everything it owns (removeAccount). An admin is first made a plain user: that is the one
   * atomic check that another admin remains, and it comes before anything is deleted. Then the deletion is recorded
   * as a task in the user's counters, naming this instance, so that a cascade cut short is finished by any instance
   * once this one is gone (or by the admin running the delete again).
   */
  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    if (id === actor.userId) throw conflict('You cannot delete your own account');
    const user = await findUser(this.p, id);
    if (user.type === 'admin') this.guarded(await this.p.users.setType(id, 'user', this.p.clock.now()));
    const hold = { id: this.p.ids.newId(), at: this.p.clock.now(), by: this.p.instance.id() };
    await this.p.usage.beginTask(user.id, hold, { kind: 'user' });
    this.guarded(await removeAccount(this.p, user.id));
  }

  private guarded(outcome: AdminGuarded): void {
    if (outcome === 'last_admin') throw conflict('The last admin cannot be deleted');
    if (outcome === 'missing') throw notFound('User');
  }
}
