import { resolve } from 'node:path';
import { ACTIVITY_ADDRESS_MODES, type ActivityAddressMode } from '../domain/activity.js';
import { LIMIT_KINDS, type Limits, type LimitKind } from '../domain/limits.js';
import { isValidPassword, isValidUsername, PASSWORD_MAX, PASSWORD_MIN } from '../domain/user.js';

export type Env = Record<string, string | undefined>;

export const PERSISTENCE_KINDS = ['memory', 'mongodb', 'embedded'] as const;
/** Where records live: in the process, in the MongoDB at MONGODB_URI, or in a mongod Coffer starts itself. */
export type PersistenceKind = (typeof PERSISTENCE_KINDS)[number];
export const BLOB_STORE_KINDS = ['fs', 'gridfs'] as const;
export type BlobStoreKind = (typeof BLOB_STORE_KINDS)[number];

export interface Config {
  port: number;
  host: string;
  /** Absolute. */
  dataDir: string;
  mongodbUri: string | null;
  /** The database to use; null: the one named in the URI path, else `coffer`. */
  mongodbDb: string | null;
  /** A forced choice; null lets start-up choose (see persistence.ts). */
  persistence: PersistenceKind | null;
  /** NODE_ENV=production: start-up never falls back to memory on its own (PERSISTENCE=memory still may). */
  production: boolean;
  blobStore: BlobStoreKind;
  adminUsername: string | null;
  adminPassword: string | null;
  registration: 'open' | 'closed';
  sessionTtlDays: number;
  /** A session's absolute lifetime from login; at least sessionTtlDays. */
  sessionMaxDays: number;
  maxUploadBytes: number;
  limits: Limits;
  logLevel: string;
  /** Reverse proxies in front of Coffer whose X-Forwarded-For entries are believed; 0 ignores the header. */
  trustProxy: number;
  /** What one client may hold of the HTTP server (names as in the server's limits; times in ms, rate in bytes/s). */
  clientLimits: ClientLimits;
  /** Uploads one user (all their tokens together) may run at once. */
  maxConcurrentUploads: number;
  /** A resumable (tus) upload that receives no bytes for this many hours expires and gives back what it held. */
  resumableExpiryHours: number;
  /** The base of every `url` handed out, without a trailing slash; null: each request's own origin. */
  publicUrl: string | null;
  /** An instance's lease runs out this many seconds after its last renewal (renewed every sixth of it). */
  instanceLeaseSeconds: number;
  /** How often each instance looks for the unfinished work of instances whose lease ran out, in seconds. */
  recoverySweepSeconds: number;
  /** PASSWORD_LOGIN: who may sign in with a password. */
  passwordLogin: PasswordLoginMode;
  /** Single sign-on (OIDC_*); null unless OIDC_ISSUER is set. */
  oidc: OidcConfig | null;
  /** ACTIVITY=off: nothing is recorded (no activity, no webhook or mail about reads). */
  activity: boolean;
  /** ACTIVITY_ADDRESSES: how much of a reader's address an activity event keeps. */
  activityAddresses: ActivityAddressMode;
  /** ACTIVITY_RETENTION_DAYS: events (and webhook deliveries) go this long after they happened. */
  activityRetentionDays: number;
  /** WEBHOOK_ALLOW_PRIVATE=true: webhooks may reach loopback, private, link-local and metadata addresses. */
  webhookAllowPrivate: boolean;
  /** SMTP_URL and MAIL_FROM, both or neither: mail notices; null without them. */
  mail: { smtpUrl: string; from: string } | null;
}

export const PASSWORD_LOGIN_MODES = ['enabled', 'admins', 'disabled'] as const;
export type PasswordLoginMode = (typeof PASSWORD_LOGIN_MODES)[number];

export interface OidcConfig {
  /** As written, without a trailing slash added or taken away: the issuer the provider names must match it exactly. */
  issuer: string;
  clientId: string;
  /** Null: a public client (PKCE only). */
  clientSecret: string | null;
  /** Space-separated, with `openid`. */
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  /** Empty: single sign-on never changes who is an admin. */
  adminGroups: string[];
  autoRegister: boolean;
  label: string;
}

export interface ClientLimits {
  bodyTimeout: number;
  uploadMinRate: number;
  uploadRateWindow: number;
  maxConnectionsPerAddress: number;
}

/** Bad configuration: the message names the variable and what is wrong, and never repeats a secret. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// A century: long enough for anyone, short enough that an expiry date stays a valid Date.
const SESSION_TTL_MAX_DAYS = 36_500;
/** A year: an unfinished upload holds storage while it lives. */
const RESUMABLE_EXPIRY_MAX_HOURS = 8_760;

/** The default of each maximum; a kind of the domain without one here is a type error. */
const LIMIT_DEFAULTS: Limits = {
  storage: 10 * 1024 ** 3,
  files: 10_000,
  folders: 1_000,
  pastes: 1_000,
  collections: 100,
  shares: 1_000,
  tokens: 20,
  requests: 100,
};

/** LIMIT_STORAGE, LIMIT_FILES, …: one variable per kind, named after it. */
export const limitVariable = (kind: LimitKind) => `LIMIT_${kind.toUpperCase()}`;

/** The value, with an empty string counting as unset (as `FOO=` in a compose file means "no value"). */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** A short, printable echo of a non-secret value for error messages. */
function shown(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    throw new ConfigError(name, `must be ${range} written in decimal digits (got ${shown(raw)})`);
  }
  return value;
}

function positiveNumber(env: Env, name: string, fallback: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(value > 0 && value <= max)) {
    throw new ConfigError(name, `must be a positive number no greater than ${max} (got ${shown(raw)})`);
  }
  return value;
}

function oneOf<T extends string, F extends T | null>(env: Env, name: string, allowed: readonly T[], fallback: F): T | F {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got ${shown(raw)})`);
  }
  return raw as T;
}

function host(env: Env): string {
  const raw = read(env, 'HOST') ?? '0.0.0.0';
  if (/\s/.test(raw)) {
    throw new ConfigError('HOST', `must be a host name or address without spaces (got ${shown(raw)})`);
  }
  return raw;
}

function mongodbUri(env: Env): string | null {
  const raw = read(env, 'MONGODB_URI');
  if (raw === undefined) return null;
  // The URI may carry credentials, so it is never echoed.
  if (!/^mongodb(\+srv)?:\/\/\S+$/.test(raw)) {
    throw new ConfigError('MONGODB_URI', 'must start with mongodb:// or mongodb+srv:// and contain no spaces');
  }
  return raw;
}

/** MongoDB's own rules for database names, checked here so a typo stops start-up instead of the first query. */
function mongodbDb(env: Env): string | null {
  const raw = read(env, 'MONGODB_DB');
  if (raw === undefined) return null;
  if (/[/\\. "$*<>:|?\0]/.test(raw) || Buffer.byteLength(raw) > 63) {
    throw new ConfigError(
      'MONGODB_DB',
      `must be a database name of at most 63 bytes without spaces or any of / \\ . " $ * < > : | ? (got ${shown(raw)})`,
    );
  }
  return raw;
}

/** TRUST_PROXY: `false` (default), `true` (one proxy), or how many proxies stand in front. */
function trustProxy(env: Env): number {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return 0;
  if (raw === 'true') return 1;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  throw new ConfigError('TRUST_PROXY', `must be false, true or a number of proxy hops from 0 to 99 (got ${shown(raw)})`);
}

/** PUBLIC_URL: the absolute http(s) address people reach Coffer at, perhaps under a path; the trailing slash goes. */
function publicUrl(env: Env): string | null {
  const raw = read(env, 'PUBLIC_URL');
  if (raw === undefined) return null;
  // Credentials are looked for first, so a value that carries any is never echoed, whatever else is wrong with it.
  if (/^[^/?#]*:\/\/[^/?#]*@/.test(raw)) throw new ConfigError('PUBLIC_URL', 'must not carry credentials');
  const url = URL.canParse(raw) && !/[\s?#]/.test(raw) ? new URL(raw) : null;
  if (url && (url.username || url.password)) throw new ConfigError('PUBLIC_URL', 'must not carry credentials');
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http:// or https:// address without query or fragment (got ${shown(raw)})`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function admin(env: Env): { adminUsername: string | null; adminPassword: string | null } {
  const username = read(env, 'ADMIN_USERNAME');
  const password = read(env, 'ADMIN_PASSWORD');
  if (username === undefined && password === undefined) return { adminUsername: null, adminPassword: null };
  if (username === undefined) throw new ConfigError('ADMIN_USERNAME', 'must be set when ADMIN_PASSWORD is set');
  if (password === undefined) throw new ConfigError('ADMIN_PASSWORD', 'must be set when ADMIN_USERNAME is set');
  if (!isValidUsername(username)) {
    throw new ConfigError(
      'ADMIN_USERNAME',
      `must be 2 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit (got ${shown(username)})`,
    );
  }
  if (!isValidPassword(password)) {
    throw new ConfigError('ADMIN_PASSWORD', `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`);
  }
  return { adminUsername: username, adminPassword: password };
}

/**
 * SESSION_TTL_DAYS is how long an unused session lives; SESSION_MAX_DAYS how long any session lives after its login.
 * Unset, the maximum is 365 days, or the idle lifetime when that is longer, so a long SESSION_TTL_DAYS alone still
 * starts; set, it must not be shorter than the idle lifetime.
 */
function sessionDays(env: Env): { sessionTtlDays: number; sessionMaxDays: number } {
  const sessionTtlDays = positiveNumber(env, 'SESSION_TTL_DAYS', 30, SESSION_TTL_MAX_DAYS);
  const sessionMaxDays = positiveNumber(env, 'SESSION_MAX_DAYS', Math.max(365, sessionTtlDays), SESSION_TTL_MAX_DAYS);
  if (sessionMaxDays < sessionTtlDays) {
    throw new ConfigError(
      'SESSION_MAX_DAYS',
      `must be at least SESSION_TTL_DAYS (${sessionTtlDays}) (got ${shown(read(env, 'SESSION_MAX_DAYS') ?? '')})`,
    );
  }
  return { sessionTtlDays, sessionMaxDays };
}

function limits(env: Env): Limits {
  const out = {} as Limits;
  for (const kind of LIMIT_KINDS) out[kind] = integer(env, limitVariable(kind), LIMIT_DEFAULTS[kind], 0);
  return out;
}

function clientLimits(env: Env): ClientLimits {
  return {
    bodyTimeout: positiveNumber(env, 'BODY_TIMEOUT_SECONDS', 15, 3600) * 1000,
    uploadMinRate: integer(env, 'UPLOAD_MIN_BYTES_PER_SECOND', 1024, 0),
    uploadRateWindow: positiveNumber(env, 'UPLOAD_RATE_WINDOW_SECONDS', 60, 3600) * 1000,
    maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 100, 1),
  };
}

/** Loopback hosts, the only ones an http:// issuer may name (a provider on this machine, as in tests). */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
// RFC 6749's scope-token: printable ASCII without space, `"` and `\`.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
// A claim name: printable ASCII without space (names like `urn:zitadel:iam:org:project:roles` or URLs included).
const CLAIM_NAME = /^[\x21-\x7e]{1,256}$/;

function oidcIssuer(raw: string): string {
  if (/^[^/?#]*:\/\/[^/?#]*@/.test(raw)) throw new ConfigError('OIDC_ISSUER', 'must not carry credentials');
  const url = URL.canParse(raw) && !/[\s?#]/.test(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new ConfigError('OIDC_ISSUER', `must be an absolute https:// address without query or fragment (got ${shown(raw)})`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new ConfigError('OIDC_ISSUER', `must use https:// (plain http:// only for localhost) (got ${shown(raw)})`);
  }
  return raw;
}

function claimName(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  if (!CLAIM_NAME.test(raw)) throw new ConfigError(name, `must be a claim name without spaces (got ${shown(raw)})`);
  return raw;
}

function oidc(env: Env): OidcConfig | null {
  const issuer = read(env, 'OIDC_ISSUER');
  if (issuer === undefined) return null;
  const clientId = read(env, 'OIDC_CLIENT_ID');
  if (clientId === undefined) throw new ConfigError('OIDC_CLIENT_ID', 'must be set when OIDC_ISSUER is set');
  const scopes = (read(env, 'OIDC_SCOPES') ?? 'openid profile email').trim().split(/\s+/);
  const badScope = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (badScope !== undefined) throw new ConfigError('OIDC_SCOPES', `holds a character a scope may not (got ${shown(badScope)})`);
  if (!scopes.includes('openid')) throw new ConfigError('OIDC_SCOPES', 'must include openid');
  const label = (read(env, 'OIDC_LABEL') ?? 'Single sign-on').trim();
  if (label === '' || [...label].length > 64 || /[\p{Cc}\p{Cf}]/u.test(label)) {
    throw new ConfigError('OIDC_LABEL', `must be 1 to 64 printable characters (got ${shown(label)})`);
  }
  return {
    issuer: oidcIssuer(issuer),
    clientId,
    // A secret is never echoed.
    clientSecret: read(env, 'OIDC_CLIENT_SECRET') ?? null,
    scopes: [...new Set(scopes)].join(' '),
    usernameClaim: claimName(env, 'OIDC_USERNAME_CLAIM', 'preferred_username'),
    groupsClaim: claimName(env, 'OIDC_GROUPS_CLAIM', 'groups'),
    adminGroups: (read(env, 'OIDC_ADMIN_GROUPS') ?? '').split(',').map((g) => g.trim()).filter((g) => g !== ''),
    autoRegister: oneOf(env, 'OIDC_AUTO_REGISTER', ['true', 'false'], 'true') === 'true',
    label,
  };
}

/**
 * PASSWORD_LOGIN other than `enabled` needs single sign-on (someone has to be able to sign in), and registration
 * makes password accounts, so it stays closed then.
 */
function passwordLogin(env: Env, sso: OidcConfig | null, registration: 'open' | 'closed'): PasswordLoginMode {
  const mode = oneOf(env, 'PASSWORD_LOGIN', PASSWORD_LOGIN_MODES, 'enabled');
  if (mode !== 'enabled' && sso === null) throw new ConfigError('PASSWORD_LOGIN', `may be ${mode} only when OIDC_ISSUER is set`);
  if (mode !== 'enabled' && registration === 'open') {
    throw new ConfigError('REGISTRATION', `must be closed when PASSWORD_LOGIN is ${mode} (accounts come through single sign-on)`);
  }
  return mode;
}

/** SMTP_URL (smtp:// or smtps://) and MAIL_FROM go together; the URL's credentials are never echoed. */
function mail(env: Env): Config['mail'] {
  const smtpUrl = read(env, 'SMTP_URL');
  const from = read(env, 'MAIL_FROM');
  if (smtpUrl === undefined && from === undefined) return null;
  if (smtpUrl === undefined) throw new ConfigError('SMTP_URL', 'must be set when MAIL_FROM is (both or neither)');
  if (from === undefined) throw new ConfigError('MAIL_FROM', 'must be set when SMTP_URL is (both or neither)');
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new ConfigError('SMTP_URL', 'is not a URL: write smtp://user:password@host:587 or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://');
  if (!/^[^@\s]+@[^@\s]+$/.test(from.replace(/^.*<([^>]+)>\s*$/, '$1'))) {
    throw new ConfigError('MAIL_FROM', `is not a mail address: ${shown(from)}`);
  }
  return { smtpUrl, from };
}

/** Reads the whole configuration from the environment; throws ConfigError at the first bad value. */
export function loadConfig(env: Env): Config {
  const sso = oidc(env);
  const registration = oneOf(env, 'REGISTRATION', ['open', 'closed'], 'closed');
  return {
    port: integer(env, 'PORT', 3000, 1, 65_535),
    host: host(env),
    dataDir: resolve(read(env, 'DATA_DIR') ?? './data'),
    mongodbUri: mongodbUri(env),
    mongodbDb: mongodbDb(env),
    persistence: oneOf(env, 'PERSISTENCE', PERSISTENCE_KINDS, null),
    // Any other NODE_ENV (development, test, unset) is not production, as for every other Node.js tool.
    production: read(env, 'NODE_ENV') === 'production',
    blobStore: oneOf(env, 'BLOB_STORE', BLOB_STORE_KINDS, 'fs'),
    ...admin(env),
    registration,
    ...sessionDays(env),
    maxUploadBytes: integer(env, 'MAX_UPLOAD_BYTES', 1024 ** 3, 1),
    limits: limits(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: trustProxy(env),
    clientLimits: clientLimits(env),
    maxConcurrentUploads: integer(env, 'MAX_CONCURRENT_UPLOADS', 10, 1),
    resumableExpiryHours: positiveNumber(env, 'RESUMABLE_EXPIRY_HOURS', 24, RESUMABLE_EXPIRY_MAX_HOURS),
    publicUrl: publicUrl(env),
    instanceLeaseSeconds: positiveNumber(env, 'INSTANCE_LEASE_SECONDS', 30, 3600),
    recoverySweepSeconds: positiveNumber(env, 'RECOVERY_SWEEP_SECONDS', 10, 3600),
    passwordLogin: passwordLogin(env, sso, registration),
    oidc: sso,
    activity: oneOf(env, 'ACTIVITY', ['on', 'off'], 'on') === 'on',
    activityAddresses: oneOf(env, 'ACTIVITY_ADDRESSES', ACTIVITY_ADDRESS_MODES, 'truncated'),
    activityRetentionDays: integer(env, 'ACTIVITY_RETENTION_DAYS', 90, 1, 36_500),
    webhookAllowPrivate: oneOf(env, 'WEBHOOK_ALLOW_PRIVATE', ['true', 'false'], 'false') === 'true',
    mail: mail(env),
  };
}
