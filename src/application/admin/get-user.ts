import { assertAdmin } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { adminRecord } from './admin-views.js';
import { findUser } from './find-user.js';

type Port = Core['getUser'];

export class GetUser implements Port {
  constructor(private readonly p: Pick<Ports, 'secondFactors' | 'users' | 'usage' | 'settings'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    return adminRecord(this.p, await findUser(this.p, id));
  }
}
