import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person at the test provider: their subject (the login typed on its form) and the claims it hands out. */
export interface ProviderAccount {
  preferred_username?: string;
  email?: string;
  groups?: string[];
}

export interface TestProviderOptions {
  clientId?: string;
  /** Null: a public client (PKCE only, no secret). */
  clientSecret?: string | null;
  /**
   * Put the profile and groups claims into the ID token too. Off (the provider's default, as Authelia's), they come
   * only from the userinfo endpoint.
   */
  claimsInIdToken?: boolean;
  /** The loopback port to listen on; default a free one. */
  port?: number;
}

/** panva's oidc-provider on 127.0.0.1, listening before it is configured (the redirect URIs come later). */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Subject → claims; change them between sign-ins (a group joined or left). */
  accounts: Map<string, ProviderAccount>;
  /** Configures the provider with the callbacks of the Coffer instances under test; requests wait until then. */
  configure(redirectUris: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the provider on a free loopback port. Its login form (the development interactions of oidc-provider: any
 * subject, any password) signs in the account named; consent is given at once, as a first-party provider does.
 */
export async function startTestProvider(options: TestProviderOptions = {}): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  let ready!: () => void;
  const configured = new Promise<void>((resolve) => (ready = resolve));
  const server: Server = createServer((req, res) => {
    void configured.then(() => handler!(req, res));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'coffer';
  const clientSecret = options.clientSecret === undefined ? 'coffer-client-secret' : options.clientSecret;
  const accounts = new Map<string, ProviderAccount>();

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    configure: async (redirectUris) => {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            ...(clientSecret === null ? { token_endpoint_auth_method: 'none' } : { client_secret: clientSecret }),
            redirect_uris: redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ['test-provider-cookie-key'] },
        scopes: ['openid', 'profile', 'email', 'groups'],
        claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
        conformIdTokenClaims: !options.claimsInIdToken,
        findAccount: (_ctx: KoaContextWithOIDC, sub: string) => {
          const account = accounts.get(sub);
          if (!account) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) };
        },
        loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
          const { client, session, params } = ctx.oidc;
          if (!client || !session?.accountId) return undefined;
          const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
          grant.addOIDCScope(String(params?.['scope'] ?? 'openid'));
          await grant.save();
          return grant;
        },
        pkce: { required: () => true },
        features: { devInteractions: { enabled: true } },
      });
      handler = provider.callback();
      ready();
    },
    close: async () => {
      // Requests still waiting for a configuration (a discovery while the test never configured) get a 503.
      handler ??= (_req, res) => res.writeHead(503).end();
      ready();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
