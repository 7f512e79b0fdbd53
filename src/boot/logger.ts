import { pino, type Logger } from 'pino';

/** Field paths never written to a log line, wherever they appear. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'passwordHash',
  '*.passwordHash',
  'clientSecret',
  '*.clientSecret',
  'smtpUrl',
  '*.smtpUrl',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers["x-share-password"]',
  'headers.authorization',
  'headers["x-share-password"]',
];

/** Structured JSON logs on stdout, with secrets redacted. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
