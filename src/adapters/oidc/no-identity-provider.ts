import { ssoError, type IdentityProvider } from '../../application/ports/index.js';

/** Single sign-on turned off (no OIDC_ISSUER): never available, and every use says so. */
export class NoIdentityProvider implements IdentityProvider {
  async available(): Promise<boolean> {
    return false;
  }
  async begin(): Promise<never> {
    throw ssoError('off', 'Single sign-on is not configured here');
  }
  async finish(): Promise<never> {
    throw ssoError('off', 'Single sign-on is not configured here');
  }
}
