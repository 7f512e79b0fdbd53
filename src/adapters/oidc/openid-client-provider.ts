import { setTimeout as sleep } from 'node:timers/promises';
import * as client from 'openid-client';
import {
  ssoError,
  type AuthorizationRequest,
  type ExpectedAnswer,
  type IdentityProvider,
  type ProvenIdentity,
} from '../../application/ports/index.js';
import type { OidcClientOptions, OidcLogger } from './oidc-options.js';
import { failureOf, provenIdentity } from './proven-identity.js';

/**
 * Single sign-on through `openid-client` (OpenID certified): discovery, then the authorization code flow with PKCE
 * S256, state and nonce. The library checks the answer: the ID token's signature against the provider's published
 * keys (enableNonRepudiationChecks), `iss`, `aud`, `exp`, `iat`, `nonce`, the state, and the code exchange itself.
 */
export class OpenIdClientProvider implements IdentityProvider {
  private config: client.Configuration | null = null;
  private attempt: Promise<client.Configuration | null> | null = null;
  private lastFailure = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly options: OidcClientOptions,
    private readonly log: OidcLogger,
  ) {}

  /** Starts discovery without waiting for it: start-up goes on whether or not the provider answers. */
  warmUp(): void {
    void this.discover();
  }

  async available(): Promise<boolean> {
    if (this.config) return true;
    const attempt = this.discover();
    if (attempt) await Promise.race([attempt, sleep(this.options.waitMs, undefined, { ref: false })]);
    return this.config !== null;
  }

  async begin(redirectUri: string): Promise<AuthorizationRequest> {
    const config = await this.ready();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.options.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, verifier };
  }

  async finish(query: string, expected: ExpectedAnswer): Promise<ProvenIdentity> {
    const config = await this.ready();
    const current = new URL(expected.redirectUri);
    current.search = query;
    try {
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: expected.verifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw ssoError('rejected', 'The provider sent no ID token');
      const { usernameClaim, groupsClaim } = this.options;
      // Some providers (Authelia by default) put only the standard claims into the ID token: the rest comes from
      // the userinfo endpoint, whose answer the library checks against the ID token's subject.
      const missing = !(usernameClaim in claims) || !(groupsClaim in claims);
      const info =
        missing && config.serverMetadata().userinfo_endpoint
          ? await client.fetchUserInfo(config, tokens.access_token, claims.sub)
          : {};
      return provenIdentity({ ...info, ...claims }, this.options);
    } catch (err) {
      throw failureOf(err);
    }
  }

  /** The provider's configuration, discovering it now if need be; unavailable while it cannot be read. */
  private async ready(): Promise<client.Configuration> {
    const config = this.config ?? (await this.discover());
    if (!config) throw ssoError('unavailable', 'The single sign-on provider cannot be reached right now');
    return config;
  }

  /** The attempt under way, a new one when the last failure is old enough, or null (too soon to try again). */
  private discover(): Promise<client.Configuration | null> | null {
    if (this.config) return Promise.resolve(this.config);
    if (this.attempt) return this.attempt;
    if (Date.now() - this.lastFailure < this.options.retryMs) return null;
    this.attempt = this.tryDiscovery().finally(() => {
      this.attempt = null;
    });
    return this.attempt;
  }

  private async tryDiscovery(): Promise<client.Configuration | null> {
    const { issuer, clientId, clientSecret, timeoutSeconds } = this.options;
    // Plain HTTP only where the configuration allowed it: a provider on the loopback interface.
    const execute = new URL(issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [];
    try {
      const found = await client.discovery(new URL(issuer), clientId, undefined, client.None(), {
        execute,
        timeout: timeoutSeconds,
      });
      const config = clientSecret === null ? found : withSecret(found, clientId, clientSecret);
      for (const step of execute) step(config);
      // The ID token's signature is checked against the provider's published keys too. openid-client leaves it out
      // by default (the token came straight from the provider over TLS, which the specification accepts instead),
      // but an issuer on plain loopback HTTP has no TLS to vouch for it, and the check is cheap: keys are cached.
      client.enableNonRepudiationChecks(config);
      config.timeout = timeoutSeconds;
      this.config = config;
      this.log.info({ issuer }, 'single sign-on: the provider is ready');
      return config;
    } catch (err) {
      this.lastFailure = Date.now();
      const reason = err instanceof Error ? `${err.name}: ${err.message}` : 'unknown error';
      this.log.warn(
        { issuer, reason, retryInSeconds: Math.round(this.options.retryMs / 1000) },
        'single sign-on is unavailable: the provider’s discovery document could not be read',
      );
      return null;
    }
  }
}

/**
 * A confidential client authenticates as the provider prefers: HTTP Basic (the default of the specification, and the
 * only one Authelia accepts unless told otherwise) when it is offered or nothing is said, else the secret in the body.
 */
function withSecret(found: client.Configuration, clientId: string, secret: string): client.Configuration {
  const metadata = found.serverMetadata();
  const methods = metadata.token_endpoint_auth_methods_supported;
  const basic = methods === undefined || methods.includes('client_secret_basic');
  const auth = basic ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret);
  return new client.Configuration(metadata, clientId, secret, auth);
}
