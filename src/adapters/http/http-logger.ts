/** The part of a pino logger the HTTP adapter uses; any pino instance satisfies it. */
export interface HttpLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
