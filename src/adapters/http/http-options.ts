/**
 * What the host hands the HTTP adapter (src/boot binds it): a leaf, so every part of the adapter can read the options
 * without reaching the app that is built from them.
 */

/** The part of a pino logger the HTTP adapter uses; any pino instance satisfies it. */
export interface HttpLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Where records live, as GET /health and GET /api/auth/session name it (the boot layer's PersistenceKind). */
export const PERSISTENCE_NAMES = ['mongodb', 'embedded', 'memory'] as const;
export type PersistenceName = (typeof PERSISTENCE_NAMES)[number];

export const HttpOptions = Symbol('HttpOptions');
export interface HttpOptions {
  /** Largest file a single upload may carry, in bytes. */
  maxUploadBytes: number;
  /** Where records live, named by GET /health and GET /api/auth/session (the dashboard warns on memory). */
  persistence: PersistenceName;
  logger: HttpLogger;
  /** Reverse proxies whose X-Forwarded-* entries are believed (TRUST_PROXY); default 0: none. */
  trustProxy?: number;
  /** The built front end (web/dist); absent: no pages and no /assets. */
  webDir?: string;
  /** The base of every `url` handed out (PUBLIC_URL, no trailing slash); without it, each request's own origin. */
  publicUrl?: string | null;
  /** How long the browser keeps its session cookie, in seconds: the session's longest life (SESSION_MAX_DAYS). */
  sessionCookieMaxAge?: number;
  /** REGISTRATION=open: the sign-in page offers to create an account. */
  registrationOpen?: boolean;
}
