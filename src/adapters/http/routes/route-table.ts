import type { RouterMiddleware } from '@koa/router';
import type { Operation } from '../openapi/operation.js';
import type { AuthState } from '../session/auth.js';
import type { AppRouter } from './route-deps.js';

/**
 * Where every route registers: its OpenAPI operation (summary, parameters, body schema, answers, token types) with
 * its handlers. The table records the operation, the document is assembled from those records in their order
 * (openapi/document.ts), and the handlers go to the Koa router; so no route is served undescribed, and none is
 * described that is not served. Without a router (describing only) it records and registers nothing.
 */
export class RouteTable {
  readonly #operations: Operation[] = [];

  constructor(private readonly router: AppRouter | null) {}

  /** The operations registered so far, in their order. */
  get operations(): readonly Operation[] {
    return this.#operations;
  }

  /** Registers `handlers` (middleware first, the handler last) for the operation's method and path. */
  add(operation: Operation, ...handlers: RouterMiddleware<AuthState>[]): void {
    this.#operations.push(operation);
    if (!this.router) return;
    // OpenAPI's `{id}` is the router's `:id`; Koa's router answers HEAD with a GET route.
    const path = operation.path.replace(/\{(\w+)\}/g, ':$1');
    const [first, ...rest] = handlers;
    if (!first) throw new Error(`${operation.method} ${operation.path}: no handler`);
    this.router[operation.method](path, first, ...rest);
  }
}
