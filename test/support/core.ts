import type { Container } from 'inversify';
import { DomainError, type Actor, type Limits } from '../../src/domain/index.js';
import type { LoginOutcome, LoginResult } from '../../src/application/views.js';
import { Core, Ports } from '../../src/application/index.js';
import type { Argon2Options } from '../../src/adapters/argon2/argon2-hasher.js';
import { buildContainer, type BuildOptions } from '../../src/boot/composition.js';
import { loadConfig, type Config } from '../../src/boot/config.js';
import { createLogger } from '../../src/boot/logger.js';
import { tempDir } from './temp.js';

export const TEST_LIMITS: Limits = {
  storage: 10 * 1024 * 1024,
  files: 100,
  folders: 100,
  pastes: 100,
  collections: 100,
  shares: 100,
  tokens: 10,
  requests: 10,
};

/** A clock the test moves by hand. */
export class TestClock {
  constructor(private current = new Date('2026-11-22T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestCoreOptions {
  limits?: Partial<Limits>;
  registration?: 'open' | 'closed';
  maxUploadBytes?: number;
  /** Uploads one user may run at once; default 64, so only tests about the bound meet it. */
  maxConcurrentUploads?: number;
  sessionTtlMs?: number;
  /** SESSION_MAX_DAYS in milliseconds; unset, the configured default. */
  sessionMaxMs?: number;
  /** 'memory' (default) or 'fs' (a fresh temporary directory). */
  blobs?: 'memory' | 'fs';
  /** Replaces ports before the core is built (fault injection: a failing blob store, a recording repository). */
  wrapPorts?: (ports: Ports) => Ports;
  /** Overrides the cheap argon2 parameters and work limits of the test hasher. */
  argon2?: Partial<Argon2Options>;
}

export const CHEAP_ARGON2: Argon2Options = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
const DAY_MS = 24 * 3600 * 1000;

/** The service's configuration as the environment would give it, with the test's small limits. */
export function testConfig(options: TestCoreOptions = {}, overrides: Partial<Config> = {}): Config {
  const defaults = loadConfig({ LOG_LEVEL: 'silent' });
  return {
    ...defaults,
    limits: { ...TEST_LIMITS, ...options.limits },
    registration: options.registration ?? 'closed',
    maxUploadBytes: options.maxUploadBytes ?? 5 * 1024 * 1024,
    sessionTtlDays: (options.sessionTtlMs ?? 30 * DAY_MS) / DAY_MS,
    maxConcurrentUploads: options.maxConcurrentUploads ?? 64,
    sessionMaxDays: (options.sessionMaxMs ?? Math.max(defaults.sessionMaxDays * DAY_MS, options.sessionTtlMs ?? 0)) / DAY_MS,
    dataDir: options.blobs === 'fs' ? tempDir('test') : defaults.dataDir,
    ...overrides,
  };
}

/** What buildContainer takes for a test graph: a hand-moved clock, cheap argon2, bytes in memory unless asked. */
export function testBuildOptions(options: TestCoreOptions, clock: TestClock): BuildOptions {
  return {
    logger: createLogger('silent'),
    blobStore: options.blobs === 'fs' ? 'fs' : 'memory',
    argon2: { ...CHEAP_ARGON2, ...options.argon2 },
    clock,
    wrapPorts: options.wrapPorts,
  };
}

/** The real core, built by the composition root on the memory adapters, with cheap argon2 so tests stay fast. */
export function makeCore(options: TestCoreOptions = {}): {
  core: Core;
  ports: Ports;
  clock: TestClock;
  container: Container;
} {
  const clock = new TestClock();
  const container = buildContainer(testConfig(options), testBuildOptions(options, clock));
  return { core: container.get<Core>(Core), ports: container.get<Ports>(Ports), clock, container };
}

/** Creates a user straight through the ports and logs them in; returns their session actor and token. */
export async function signUp(
  ctx: { core: Core; ports: Ports },
  username: string,
  type: 'admin' | 'user' = 'user',
): Promise<{ actor: Actor; token: string; userId: string }> {
  const password = `${username}-password`;
  const now = new Date('2026-11-22T10:00:00.000Z');
  await ctx.ports.users.insert({
    id: ctx.ports.ids.newId(),
    username,
    type,
    passwordHash: await ctx.ports.hasher.hash(password),
    credentialsEpoch: 0,
    keptSessionId: null,
    mustChangePassword: false,
    limits: {},
    oidc: null,
    createdAt: now,
    updatedAt: now,
  });
  const { token, user } = sessionOf(await ctx.core.login.execute({ username, password }));
  const actor = await ctx.core.authenticate.execute({ token });
  return { actor, token, userId: user.id };
}

/** Bytes as an async iterable, in chunks of `chunk` bytes, like a request body. */
export async function* bytes(data: Uint8Array | string, chunk = 64 * 1024): AsyncIterable<Uint8Array> {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  for (let i = 0; i < buf.length; i += chunk) yield buf.subarray(i, i + chunk);
}

export async function readAll(iterable: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of iterable) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

/** The DomainError a promise rejects with; any other outcome fails the test. */
export async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

/** A login's session, for a user without a second factor (anything else fails the test right there). */
export function sessionOf(outcome: LoginOutcome): LoginResult {
  if ('mfaRequired' in outcome) throw new Error('This login asked for a second factor');
  return outcome;
}
