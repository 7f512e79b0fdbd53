import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import { Core } from './application/index.js';
import { HttpApp } from './adapters/http/http-app.js';
import { buildContainer, LoggerToken, type BuildOptions } from './composition.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

export interface RunningCoffer {
  server: Server;
  url: string;
  container: Container;
  /** Stops accepting connections, lets in-flight requests finish (bounded), then releases resources. */
  close(): Promise<void>;
}

/** Ensures the configured admin exists, or creates one with a random password printed once. */
async function bootstrapAdmin(core: Core, config: Config, logger: Logger): Promise<void> {
  const result = await core.ensureAdmin.execute({ username: config.adminUsername, password: config.adminPassword });
  if (result.generatedPassword !== null) {
    // The one deliberate exception to "no secrets in logs" (DECISIONS.md): printed once, at creation, for the operator.
    logger.warn(
      `Created admin "${result.username}" with the random password ${result.generatedPassword} — ` +
        'log in and change it, or set ADMIN_USERNAME and ADMIN_PASSWORD',
    );
  } else if (result.created) {
    logger.info({ username: result.username }, 'admin created');
  }
}

export async function startCoffer(config: Config, options: BuildOptions = {}): Promise<RunningCoffer> {
  const container = buildContainer(config, options);
  const logger = container.get<Logger>(LoggerToken);
  await bootstrapAdmin(container.get<Core>(Core), config, logger);

  const app = container.get(HttpApp);
  const server = createServer(app.callback());
  // Uploads may legitimately take long, so there is no whole-request deadline; idle sockets and slow headers are cut.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.setTimeout(120_000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ url, persistence: 'memory' }, 'coffer listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await container.unbindAll();
    })());
  return { server, url, container, close };
}
