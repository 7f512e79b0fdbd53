import { assertAdmin } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { findUser } from '../../admin/find-user.js';

type Port = Core['resetUserMfa'];

/** An admin turns every second factor of a user off (a lost phone and lost codes); the password alone signs in again. */
export class ResetUserMfa implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'secondFactors'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    const user = await findUser(this.p, id);
    await this.p.secondFactors.deleteByUser(user.id);
  }
}
