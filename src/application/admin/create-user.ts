import { assertAdmin } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { newAccount } from '../auth/new-account.js';
import { adminRecord } from './admin-views.js';

type Port = Core['createUser'];

export class CreateUser implements Port {
  constructor(private readonly p: Pick<Ports, 'secondFactors' | 'users' | 'usage' | 'settings' | 'hasher' | 'ids' | 'clock'>) {}

  async execute({ actor, username, password, type = 'user' }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    // The admin chose this password, not the user: the user is asked to replace it at the first sign-in.
    const user = await newAccount(this.p, { username, password, type, mustChangePassword: true });
    return adminRecord(this.p, user);
  }
}
