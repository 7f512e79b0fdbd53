import type { User, UserType } from '../../domain/index.js';
import { badRequest, conflict, isValidPassword, isValidUsername } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'users' | 'hasher' | 'ids' | 'clock'>;

export function assertValidUsername(username: string): void {
  if (!isValidUsername(username)) {
    throw badRequest(
      'username must be 2 to 32 characters: letters, digits, ".", "_" or "-", starting with a letter or digit',
      { field: 'username' },
    );
  }
}

export function assertValidPassword(password: string): void {
  if (!isValidPassword(password)) {
    throw badRequest('password must be 8 to 256 characters', { field: 'password' });
  }
}

export function assertValidUserType(type: string): asserts type is UserType {
  if (type !== 'admin' && type !== 'user') throw badRequest('type must be "admin" or "user"', { field: 'type' });
}

/**
 * The one way a user comes into existence (registration, admin creation, start-up admin): validated, hashed,
 * and inserted with the repository's case-insensitive uniqueness deciding duplicates atomically.
 */
export async function newAccount(
  p: Deps,
  input: { username: string; password: string; type: UserType; mustChangePassword?: boolean },
): Promise<User> {
  assertValidUsername(input.username);
  assertValidPassword(input.password);
  assertValidUserType(input.type);
  const now = p.clock.now();
  const user: User = {
    id: p.ids.newId(),
    username: input.username,
    type: input.type,
    passwordHash: await p.hasher.hash(input.password),
    credentialsEpoch: 0,
    keptSessionId: null,
    mustChangePassword: input.mustChangePassword ?? false,
    limits: {},
    oidc: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await p.users.insert(user))) throw conflict('That username is already taken');
  return user;
}
