import { assertAdmin } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { adminRecord } from './admin-views.js';

type Port = Core['listUsers'];

export class ListUsers implements Port {
  constructor(private readonly p: Pick<Ports, 'secondFactors' | 'users' | 'usage' | 'settings'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    const users = await this.p.users.list();
    return Promise.all(users.map((user) => adminRecord(this.p, user)));
  }
}
