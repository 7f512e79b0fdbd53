import 'reflect-metadata';
import { ConfigError, loadConfig } from './boot/config.js';
import { createLogger } from './boot/logger.js';
import { runReconcile } from './boot/reconcile.js';

const USAGE = 'usage: npm run reconcile [-- --fix]   (reads the same environment variables as npm start)';

/** `npm run reconcile` reports drift; `npm run reconcile -- --fix` also repairs it. Exit 1 on any failure. */
async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--fix');
  if (unknown.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(process.env);
  // Start-up lines (retries, warnings) go to stderr so stdout carries only the report.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr);
  await runReconcile(config, {
    fix: argv.includes('--fix'),
    write: (line) => process.stdout.write(`${line}\n`),
    connect: { logger },
  });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const prefix = err instanceof ConfigError ? 'configuration error: ' : '';
    process.stderr.write(`coffer reconcile: ${prefix}${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
