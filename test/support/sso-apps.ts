import type { Config } from '../../src/boot/config.js';
import type { User } from '../../src/domain/index.js';
import type { HttpTest } from './http.js';
import type { TestProvider } from './oidc-provider.js';

/** The OIDC_* settings pointing at a test provider, as the environment would give them (admin group: coffer-admins). */
export function ssoConfig(
  provider: Pick<TestProvider, 'issuer' | 'clientId' | 'clientSecret'>,
  oidc: Partial<NonNullable<Config['oidc']>> = {},
  rest: Partial<Config> = {},
): Partial<Config> {
  return {
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      scopes: 'openid profile email groups',
      usernameClaim: 'preferred_username',
      groupsClaim: 'groups',
      adminGroups: ['coffer-admins'],
      autoRegister: true,
      label: 'Test ID',
      ...oidc,
    },
    ...rest,
  };
}

export const CALLBACK = '/api/auth/oidc/callback';

/** A user with the password `<name>-password`, straight through the ports (no login: PASSWORD_LOGIN may forbid it). */
export async function passwordUser(t: HttpTest, username: string, type: 'admin' | 'user' = 'user'): Promise<User> {
  t.scan.addSecret('password', `${username}-password`);
  const now = t.clock.now();
  const user: User = {
    id: t.ports.ids.newId(),
    username,
    type,
    passwordHash: await t.ports.hasher.hash(`${username}-password`),
    credentialsEpoch: 0,
    keptSessionId: null,
    mustChangePassword: false,
    limits: {},
    oidc: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await t.ports.users.insert(user))) throw new Error(`${username} exists`);
  return user;
}
