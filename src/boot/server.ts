import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import { Core } from '../application/index.js';
import { HttpApp } from '../adapters/http/http-app.js';
import { createHttpServer } from '../adapters/http/server/http-server.js';
import {
  buildContainer,
  connectPersistence,
  type BuildOptions,
  type ConnectOptions,
  type Persistence,
} from './composition.js';
import type { Config, PersistenceKind } from './config.js';
import { LeaseKeeper } from './instance-lease.js';
import { LoggedActivityRecorder } from './activity-recorder.js';
import { startOutboxLoop, type OutboxLoopOptions } from './outbox-loop.js';
import { Ports } from '../application/ports/index.js';
import { createLogger, type Logger } from './logger.js';
import {
  maySweep,
  scheduleOrphanSweeps,
  sweepAfterCrashes,
  sweepDeadInstances,
  type SweepOptions,
} from './orphan-sweep.js';

export interface RunningCoffer {
  server: Server;
  url: string;
  container: Container;
  persistence: PersistenceKind;
  /**
   * Stops accepting connections, lets in-flight requests finish (bounded), then releases resources: the MongoDB
   * client and an embedded mongod too, including a persistence passed in through the options.
   */
  close(): Promise<void>;
}

export type StartOptions = BuildOptions &
  Pick<ConnectOptions, 'probe' | 'mongo'> & {
    /** The sweeps' grace period and schedule (tests shorten them; the recovery interval defaults to the config's). */
    sweep?: SweepOptions;
    /** The webhook outbox's pace (tests shorten the pause between idle turns). */
    outbox?: Partial<OutboxLoopOptions>;
  };

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The address of the dashboard as configured, with a trailing slash: PUBLIC_URL, else `http://HOST:PORT/` (a wildcard
 * HOST as `localhost`, which reaches it from the machine itself). Null for port 0, known only once listening.
 */
export function dashboardAddress(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string | null {
  if (config.publicUrl !== null) return `${config.publicUrl}/`;
  if (config.port === 0) return null;
  const host = WILDCARD_HOSTS.has(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}/`;
}

/**
 * Ensures the configured admin exists, or creates one with a random password printed once. The line is written
 * before the server listens, so a port already in use never loses the only copy of the password.
 */
async function bootstrapAdmin(core: Core, config: Config, logger: Logger): Promise<void> {
  const result = await core.ensureAdmin.execute({ username: config.adminUsername, password: config.adminPassword });
  if (result.generatedPassword !== null) {
    const dashboard = dashboardAddress(config);
    const where = dashboard === null ? 'the dashboard' : dashboard;
    const account = dashboard === null ? 'its Account page (/account)' : `its Account page (${dashboard}account)`;
    // The one deliberate exception to "no secrets in logs" (docs/SECURITY.md): printed once, at creation, for the operator.
    logger.warn(
      `Created admin "${result.username}" with the random password ${result.generatedPassword} — ` +
        `sign in at ${where} and choose a new password on ${account}, ` +
        'or set ADMIN_USERNAME and ADMIN_PASSWORD',
    );
  } else if (result.created) {
    logger.info({ username: result.username }, 'admin created');
  }
}

/** The HTTP server, listening, with the limits of createHttpServer (head size and deadline, idle connections). */
async function serve(container: Container, config: Config): Promise<Server> {
  const server = createHttpServer(container.get(HttpApp).callback(), config.clientLimits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return server;
}

/** Requests under way finish first; then the lease ends (nothing of this instance is unfinished), then the rest. */
function closer(server: Server, container: Container, persistence: Persistence): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      // The events of the last reads are written before the database goes.
      await container.get(LoggedActivityRecorder).settled();
      await container.get(LeaseKeeper).stop();
      await container.unbindAllAsync();
      await persistence.close();
    })());
}

/** Connects the persistence (unless given), ensures the admin and serves; if any step fails the database is let go. */
export async function startCoffer(config: Config, options: StartOptions = {}): Promise<RunningCoffer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { probe, mongo } = options;
  const persistence = options.persistence ?? (await connectPersistence(config, { logger, probe, mongo }));
  let container: Container;
  let server: Server;
  let core: Core;
  let keeper: LeaseKeeper | null = null;
  try {
    container = buildContainer(config, { ...options, logger, persistence });
    core = container.get<Core>(Core);
    // The lease comes first: every piece of unfinished work this instance starts names it.
    keeper = container.get(LeaseKeeper);
    await keeper.start();
    await bootstrapAdmin(core, config, logger);
    // What a crash left (counts held for, bytes written for a record that never came) goes before anything is
    // served; the schedule catches later ones.
    if (maySweep(persistence.kind)) await sweepAfterCrashes(core, logger, options.sweep?.graceMs);
    else await sweepDeadInstances(core, logger);
    server = await serve(container, config);
  } catch (err) {
    await keeper?.stop();
    await persistence.close().catch(() => undefined);
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  // The pool is sized once, when the process starts (npm start sets 6); argon2 leaves one of its threads to file I/O.
  const threadPool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  logger.info({ url, persistence: persistence.kind, threadPool }, 'coffer listening');
  const sweeps = { recoveryMs: config.recoverySweepSeconds * 1000, ...options.sweep };
  const stopSweeps = scheduleOrphanSweeps(core, logger, sweeps, maySweep(persistence.kind));
  const retentionMs = config.activityRetentionDays * 86_400_000;
  const stopOutbox = startOutboxLoop(container.get<Ports>(Ports), logger, { retentionMs, ...options.outbox });
  const closeServer = closer(server, container, persistence);
  const close = async () => {
    await stopSweeps();
    await stopOutbox();
    await closeServer();
  };
  return { server, url, container, persistence: persistence.kind, close };
}
