import * as client from 'openid-client';
import { isDomainError } from '../../domain/index.js';
import { ssoError, type ProvenIdentity } from '../../application/ports/index.js';
import type { OidcClientOptions } from './oidc-options.js';

type Claims = Record<string, unknown> & { iss: string; sub: string };

/** The person the checked claims describe: issuer, subject, the username claim and the groups claim. */
export function provenIdentity(claims: Claims, options: Pick<OidcClientOptions, 'usernameClaim' | 'groupsClaim'>): ProvenIdentity {
  const username = claims[options.usernameClaim];
  const groups = claims[options.groupsClaim];
  return {
    issuer: claims.iss,
    subject: claims.sub,
    username: typeof username === 'string' && username.trim() !== '' ? username : null,
    groups: Array.isArray(groups)
      ? groups.filter((g): g is string => typeof g === 'string')
      : typeof groups === 'string'
        ? [groups]
        : [],
  };
}

/**
 * What a failed answer comes to, for the sign-in page. Only the kind of failure is kept: the library's errors may
 * carry the provider's answer (tokens), so none of them is logged or passed on.
 */
export function failureOf(err: unknown) {
  if (isDomainError(err)) return err;
  if (err instanceof client.AuthorizationResponseError) {
    return ssoError('denied', 'The single sign-on provider refused the sign-in, or it was cancelled');
  }
  const name = err instanceof Error ? err.name : '';
  const networkFailure =
    (err instanceof TypeError && err.message === 'fetch failed') || name === 'AbortError' || name === 'TimeoutError';
  if (networkFailure) return ssoError('unavailable', 'The single sign-on provider cannot be reached right now');
  return ssoError('rejected', 'The single sign-on provider’s answer did not pass the checks');
}
