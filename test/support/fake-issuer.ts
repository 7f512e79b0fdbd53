import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

/** What the test makes of the ID token the fake issuer is about to mint: its claims, and whether to sign with a stranger's key. */
export type Forge = (claims: JWTPayload) => { claims: JWTPayload; foreignKey?: boolean };

/**
 * A hand-made OpenID provider for the tokens a real one would never mint: it answers discovery, its keys, an
 * authorization request (straight back with a code) and the token request, with an ID token the test may forge.
 */
export interface FakeIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** How the next ID tokens are forged; the default mints an honest one. */
  forge: Forge;
  close(): Promise<void>;
}

export async function startFakeIssuer(): Promise<FakeIssuer> {
  const own = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(own.publicKey)), kid: 'fake-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string; sub: string }>();
  let issuer = '';
  const fake: FakeIssuer = { issuer: '', clientId: 'coffer', clientSecret: 'fake-secret', forge: (claims) => ({ claims }), close: async () => {} };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/auth') {
      // The login is the subject the test asks for in login_hint; no form.
      const code = `code-${codes.size + 1}`;
      codes.set(code, { nonce: url.searchParams.get('nonce') ?? '', sub: url.searchParams.get('login_hint') ?? 'someone' });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const grant = codes.get(new URLSearchParams(body).get('code') ?? '');
        if (!grant) return json(400, { error: 'invalid_grant' });
        codes.delete(new URLSearchParams(body).get('code')!);
        const now = Math.floor(Date.now() / 1000);
        const honest = { iss: issuer, sub: grant.sub, aud: fake.clientId, iat: now, exp: now + 300, nonce: grant.nonce, preferred_username: grant.sub, groups: [] };
        const { claims, foreignKey } = fake.forge(honest);
        void new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'fake-key' })
          .sign(foreignKey ? stranger.privateKey : own.privateKey)
          .then((idToken) => json(200, { access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 300, id_token: idToken }));
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.issuer = issuer;
  fake.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
