/** What the host hands the OpenID Connect adapter (src/boot binds it from the OIDC_* settings). */
export const OidcClientOptions = Symbol('OidcClientOptions');
export interface OidcClientOptions {
  /** OIDC_ISSUER: endpoints and keys come from its discovery document. http:// is for loopback providers only. */
  issuer: string;
  clientId: string;
  /** Null: a public client, PKCE only. */
  clientSecret: string | null;
  /** Space-separated, `openid` among them. */
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  /** After a failed discovery, the next attempt waits this long (ms). */
  retryMs: number;
  /** How long a look at availability waits for an attempt under way (ms). */
  waitMs: number;
  /** Each request to the provider gives up after this many seconds. */
  timeoutSeconds: number;
}

/** What the adapter says about the provider; any pino logger satisfies it. Never handed a token or a claim. */
export interface OidcLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}
