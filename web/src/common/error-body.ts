import type { components } from './openapi-schema.gen.js';

/**
 * An error answer's body, as both pages read it: the API's one error shape (the OpenAPI document's `Error` schema,
 * with its details: `issues`, `limit`, `retryAfter`, ...), each field possibly missing, since a body that is not
 * JSON (a proxy's page, a cut connection) is read as `{}`.
 */
export type ErrorBody = Partial<components['schemas']['Error']>;
