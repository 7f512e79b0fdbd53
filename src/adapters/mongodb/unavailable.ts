import {
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { DomainError } from '../../domain/errors.js';

/** Pool errors the driver does not export (PoolClearedError is a MongoNetworkError and needs no entry). */
const POOL_ERROR_NAMES = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);

/**
 * Server codes that mean "this node cannot serve now" rather than "this request is wrong": host unreachable or not
 * found, network timeout, shutdown in progress, stepdown and not-primary states during an election.
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);

/**
 * Socket errors the driver sometimes lets through unwrapped (a write on a socket the server end has just closed
 * surfaces as a bare EPIPE). From a database adapter, which does no other I/O, they can only mean the database.
 */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** True when the database could not be reached or is between primaries: the request may well succeed later. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof MongoError)) {
    const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
    return code !== undefined && SOCKET_CODES.has(code);
  }
  return (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError ||
    err instanceof MongoClientClosedError ||
    err instanceof MongoServerClosedError ||
    POOL_ERROR_NAMES.has(err.name) ||
    (typeof err.code === 'number' && UNAVAILABLE_CODES.has(err.code))
  );
}

/** The core's `unavailable` failure, carrying the driver error as its cause for the log (never for the client). */
export function databaseUnavailable(cause: unknown): DomainError {
  const err = new DomainError('unavailable', 'The database is unreachable; try again shortly');
  return Object.assign(err, { cause });
}

function translate(err: unknown): never {
  throw isDatabaseUnavailable(err) ? databaseUnavailable(err) : err;
}

/**
 * Wraps an adapter so every method that fails because the database is gone rejects with `unavailable` (503 over
 * HTTP) instead of a driver error (500). One wrapper at the binding, rather than a try/catch in every method.
 */
export function unavailableWhenDisconnected<T extends object>(adapter: T): T {
  return new Proxy(adapter, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = value.apply(target, args);
        } catch (err) {
          translate(err);
        }
        return result instanceof Promise ? result.catch(translate) : result;
      };
    },
  });
}
