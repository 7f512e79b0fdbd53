import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startCoffer } from './server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`coffer: configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const running = await startCoffer(config, { logger });

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('coffer: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
