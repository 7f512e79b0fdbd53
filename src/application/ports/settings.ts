import type { ActivityAddressMode, Limits } from '../../domain/index.js';

export const CoreSettings = Symbol('CoreSettings');
/** The configuration the core needs; the composition root fills it from the environment. */
export interface CoreSettings {
  defaultLimits: Limits;
  /** A session ends this long after its last use (idle expiry)... */
  sessionTtlMs: number;
  /** ...and at the latest this long after its login. */
  sessionMaxMs: number;
  maxUploadBytes: number;
  registration: 'open' | 'closed';
  /** Uploads one user (all their tokens together) may run at once; more answer rate_limited. */
  maxConcurrentUploads: number;
  /** A resumable upload that receives no bytes for this long expires, and gives back what it held. */
  resumableIdleMs: number;
  /** PASSWORD_LOGIN: who may sign in with a password (`admins`: admins only). API tokens are never affected. */
  passwordLogin: PasswordLogin;
  /** Single sign-on; null when OIDC_ISSUER is not set. */
  sso: SsoSettings | null;
  /** ACTIVITY_ADDRESSES: how much of a reader's address an event keeps. */
  activityAddresses: ActivityAddressMode;
}

export type PasswordLogin = 'enabled' | 'admins' | 'disabled';

/** What the core decides single sign-ons by; the protocol's own settings stay with the IdentityProvider adapter. */
export interface SsoSettings {
  /** The button's words: "Sign in with {label}". */
  label: string;
  /** An unknown identity gets a new account; off, it is refused and nothing is created. */
  autoRegister: boolean;
  /** Members of any of these groups are admins, others are not, at every sign-in; empty: SSO never changes types. */
  adminGroups: string[];
}
