import { assertMay, unauthorized } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { meView, mfaView } from '../views.js';

type Port = Core['getMe'];

export class GetMe implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'secondFactors'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.me');
    const user = await this.p.users.findById(actor.userId);
    if (!user) throw unauthorized('The user no longer exists');
    return meView(user, mfaView(await this.p.secondFactors.find(user.id)));
  }
}
