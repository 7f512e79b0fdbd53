import type { User } from '../../domain/index.js';
import { notFound } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

export async function findUser(p: Pick<Ports, 'users'>, id: string): Promise<User> {
  const user = await p.users.findById(id);
  if (!user) throw notFound('User');
  return user;
}
