import {
  usernameFrom,
  usernameWithSuffix,
  type OidcIdentity,
  type User,
  type UserType,
} from '../../../domain/index.js';
import { ssoError, type Ports, type ProvenIdentity, type SsoSettings } from '../../ports/index.js';

type Deps = Pick<Ports, 'users' | 'ids' | 'clock'>;

/** Names tried in order (`name`, `name-2`, … `name-20`) before random suffixes take over. */
const COUNTED_NAMES = 20;
const RANDOM_NAMES = 10;

/** What the admin groups make of the person: admin or not; null when no admin groups are configured. */
export function mappedType(identity: ProvenIdentity, sso: SsoSettings): UserType | null {
  if (sso.adminGroups.length === 0) return null;
  return identity.groups.some((group) => sso.adminGroups.includes(group)) ? 'admin' : 'user';
}

/**
 * The account a proven identity signs in to: found by (issuer, subject), never by email or username; made when
 * auto-registration is on; its type set by the admin groups at every sign-in (a demotion that would leave no admin
 * is not made: the repository's one guarded write decides).
 */
export async function ssoAccount(p: Deps, identity: ProvenIdentity, sso: SsoSettings): Promise<User> {
  const key: OidcIdentity = { issuer: identity.issuer, subject: identity.subject };
  const type = mappedType(identity, sso);
  const found = await p.users.findByOidc(key);
  if (!found) {
    if (!sso.autoRegister) {
      throw ssoError('unknown_user', 'No account here is linked to this single sign-on account, and new ones are not made');
    }
    return createSsoAccount(p, key, identity.username, type ?? 'user');
  }
  if (type === null || found.type === type) return found;
  const outcome = await p.users.setType(found.id, type, p.clock.now());
  if (outcome === 'missing') throw ssoError('failed', 'The account was removed meanwhile');
  // last_admin: the only admin stays one, whatever the groups say, rather than leave the service without any.
  return outcome === 'done' ? { ...found, type } : found;
}

/**
 * A new account without a password, its username made valid from the claim and free: the unique username index
 * decides, so two sign-ins racing for one name end with `name` and `name-2`. A second sign-in of the same person
 * racing this one finds the account the first made (the identity's unique index refused this insert).
 */
async function createSsoAccount(p: Deps, key: OidcIdentity, claimed: string | null, type: UserType): Promise<User> {
  const base = usernameFrom(claimed ?? 'user');
  for (let attempt = 1; attempt <= COUNTED_NAMES + RANDOM_NAMES; attempt++) {
    const username =
      attempt === 1
        ? base
        : usernameWithSuffix(base, attempt <= COUNTED_NAMES ? String(attempt) : p.ids.newId().slice(0, 6).toLowerCase());
    const now = p.clock.now();
    const user: User = {
      id: p.ids.newId(),
      username,
      type,
      passwordHash: null,
      credentialsEpoch: 0,
      keptSessionId: null,
      mustChangePassword: false,
      limits: {},
      oidc: key,
      createdAt: now,
      updatedAt: now,
    };
    if (await p.users.insert(user)) return user;
    const existing = await p.users.findByOidc(key);
    if (existing) return existing;
  }
  throw ssoError('failed', 'No free username was found for the new account');
}
