import 'reflect-metadata';
import { ConfigError, loadConfig } from './boot/config.js';
import { createLogger, type Logger } from './boot/logger.js';
import { memoryNotice } from './boot/persistence.js';
import { startCoffer, type RunningCoffer } from './boot/server.js';

/** A configuration error (also one found while choosing the persistence) is one line naming the variable. */
function fail(err: unknown): never {
  if (err instanceof ConfigError) console.error(`coffer: configuration error: ${err.message}`);
  else console.error('coffer: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
}

async function main(): Promise<void> {
  let running: RunningCoffer;
  let logger: Logger;
  try {
    const config = loadConfig(process.env);
    logger = createLogger(config.logLevel);
    running = await startCoffer(config, { logger });
    // Beside the JSON log line: people read stderr, and a lost database is the one surprise that costs everything.
    if (running.persistence === 'memory') process.stderr.write(memoryNotice(config.persistence === 'memory'));
  } catch (err) {
    fail(err);
  }

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

main().catch(fail);
