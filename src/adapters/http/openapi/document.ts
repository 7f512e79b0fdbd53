import { z } from 'zod';
import { STATUS_BY_CODE } from '../responses/errors.js';
import { pageQuery } from '../routes/paging.js';
import type { Access, Answer, Operation } from './operation.js';
import { components, ERROR_CODES } from './views.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A zod schema as OpenAPI 3.1's JSON Schema (draft 2020-12), without the keywords that only a root may carry. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return rest;
}

function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(components, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _, $id: __, ...schema }]) => [name, schema]),
  );
}

const TOKEN_TYPES: Record<Access, string[]> = {
  public: [],
  session: ['session'],
  'session-or-uploader': ['session', 'uploader'],
  admin: ['session (admin)'],
  'session-or-share': ['session'],
  'share-page': [],
  'request-page': [],
};

const ACCESS_TEXT: Record<Access, string> = {
  public: 'Public; a token that is sent must be valid (a dav token is 403).',
  session: 'A session token; an uploader (API) token is 403.',
  'session-or-uploader': 'A session token or an uploader (API) token; a dav token is 403.',
  admin: "An admin's session token.",
  'session-or-share': 'A session token, or instead `X-Share-Id` (and `X-Share-Password`) of a share that reaches it.',
  'share-page':
    'Public. A protected share opens with the grant cookie `coffer_share` that POST /s/{id}/unlock set; ' +
    'no password travels with these requests. Link-preview bots (by User-Agent) count nothing.',
  'request-page':
    'Public. A protected file request opens with the grant cookie `coffer_request` that POST /r/{id}/unlock set.',
};

/** Every route that takes a session token also takes the browser session's cookie in its place. */
/** `token` and `bearer` are two spellings of one credential: wherever one is accepted, so is the other. */
function security(access: Access): Json[] {
  if (access === 'public') return [{}, { token: [] }, { bearer: [] }, { browserSession: [] }];
  if (access === 'session-or-share') return [{ token: [] }, { bearer: [] }, { browserSession: [] }, {}];
  if (access === 'share-page') return [{}, { shareGrant: [] }];
  if (access === 'request-page') return [{}, { requestGrant: [] }];
  return [{ token: [] }, { bearer: [] }, { browserSession: [] }];
}

const header = (name: string, description: string, schema: Json = { type: 'string' }) => ({
  name,
  in: 'header',
  required: false,
  description,
  schema,
});

const SHARE_PASSWORD = header('X-Share-Password', 'The password of a protected share (UTF-8)');
const SHARE_HEADERS = [header('X-Share-Id', 'Read through this share instead of with a token'), SHARE_PASSWORD];
const RANGE_HEADERS = [
  header(
    'Range',
    'One range `bytes=a-b`, `bytes=a-` or `bytes=-n`; overlapping or adjacent ranges are merged into one, ' +
      'several disjoint ranges get the whole content',
  ),
  header('If-Range', 'The range only if the content still matches'),
  header('If-None-Match', 'The ETag held: 304 when it still matches'),
  header('If-Modified-Since', '304 when not modified since'),
];

function parameters(op: Operation): unknown[] {
  const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  }));
  const query = op.query
    ? Object.entries(op.query.shape).map(([name, schema]) => ({
        name,
        in: 'query',
        required: !(schema as z.ZodType).safeParse(undefined).success,
        schema: jsonSchema(schema as z.ZodType, 'input'),
      }))
    : [];
  const headers = [
    ...(op.headers ?? []).map((h) => ({
      ...header(h.name, h.description, h.integer ? { type: 'integer', minimum: 0 } : { type: 'string' }),
      required: h.required ?? false,
    })),
    ...(op.access === 'session-or-share' ? SHARE_HEADERS : []),
    ...(op.path.startsWith('/api/share/{id}') && op.method === 'get' ? [SHARE_PASSWORD] : []),
    ...(op.ok.some((a) => a.body === 'bytes') ? RANGE_HEADERS : []),
  ];
  return [...inPath, ...query, ...headers];
}

function requestBody(op: Operation): Json | undefined {
  if (op.json) {
    return { required: true, content: { 'application/json': { schema: jsonSchema(op.json, 'input') } } };
  }
  if (op.multipart) {
    const fields = jsonSchema(op.multipart.partial(), 'input') as { properties: Json };
    const schema = {
      type: 'object',
      properties: { ...fields.properties, file: { type: 'string', contentMediaType: 'application/octet-stream' } },
      required: ['file'],
      additionalProperties: false,
    };
    const description = 'Fields first, then the one `file` part; an empty field counts as absent.';
    return { required: true, description, content: { 'multipart/form-data': { schema } } };
  }
  if (op.bytes) {
    const schema = { type: 'string', contentMediaType: 'application/octet-stream' };
    return { required: op.method === 'patch', content: { [op.bytes]: { schema } } };
  }
  return undefined;
}

const RESPONSE_HEADERS: Record<number, Json> = {
  401: { 'WWW-Authenticate': { description: '`Token, Bearer`: either scheme carries a token', schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds to wait, when known', schema: { type: 'integer' } } },
  416: { 'Content-Range': { description: '`bytes */size`', schema: { type: 'string' } } },
};

const LINK_NEXT = {
  Link: { description: 'RFC 8288 `<…>; rel="next"` when a next page exists (Paging)', schema: { type: 'string' } },
};

const headerDocs = (headers: Record<string, string>): Json =>
  Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));

const BYTES_HEADERS = {
  ETag: { schema: { type: 'string' } },
  'Content-Range': { description: 'On 206', schema: { type: 'string' } },
  'Content-Disposition': { schema: { type: 'string' } },
};
const ATTACHMENT_HEADERS = { 'Content-Disposition': { schema: { type: 'string' } } };

/** What a body kind carries: its media type and schema, and the headers that come with it. */
function content(answer: Answer): { content?: Json; headers?: Json } {
  if (answer.schema) {
    const list = answer.schema.endsWith('[]');
    const schema = ref(answer.schema.replace('[]', ''));
    return { content: { 'application/json': { schema: list ? { type: 'array', items: schema } : schema } } };
  }
  switch (answer.body) {
    case 'bytes':
      return {
        content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        headers: BYTES_HEADERS,
      };
    case 'zip':
      return {
        content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
        headers: ATTACHMENT_HEADERS,
      };
    case 'html':
      return { content: { 'text/html': { schema: { type: 'string' } } } };
    case 'asset':
      return { content: { '*/*': { schema: { type: 'string' } } } };
    default:
      return answer.status === 200 ? { content: { 'application/json': { schema: { type: 'object' } } } } : {};
  }
}

function success(answer: Answer, op: Operation): Json {
  const { content: body, headers: bodyHeaders } = content(answer);
  const headers = {
    ...bodyHeaders,
    ...(answer.headers && headerDocs(answer.headers)),
    ...(op.query === pageQuery && answer.status === 200 ? LINK_NEXT : {}),
  };
  const out: Json = { description: answer.description };
  if (Object.keys(headers).length > 0) out['headers'] = headers;
  if (body) out['content'] = body;
  return out;
}

const CODES_BY_STATUS = new Map<number, string[]>();
for (const [code, status] of Object.entries(STATUS_BY_CODE)) {
  CODES_BY_STATUS.set(status, [...(CODES_BY_STATUS.get(status) ?? []), code]);
}
// Answers that come from the HTTP layer itself rather than a domain error code.
const HTTP_ONLY: Record<number, string> = {
  405: 'bad_request: method not allowed on this route (`Allow`)',
  408: 'bad_request: the request was too slow',
  416: 'bad_request: range not satisfiable',
  431: 'bad_request: request head too large',
  500: 'internal',
};

function failure(status: number, op: Operation): Json {
  const codes = CODES_BY_STATUS.get(status)?.join(', ') ?? HTTP_ONLY[status] ?? 'bad_request';
  const out: Json = { description: `Error: ${codes}`, content: { 'application/json': { schema: ref('Error') } } };
  const headers = { ...RESPONSE_HEADERS[status], ...(op.errorHeaders && headerDocs(op.errorHeaders)) };
  if (Object.keys(headers).length > 0) out['headers'] = headers;
  return out;
}

function operation(op: Operation): Json {
  const responses: Json = {};
  for (const answer of op.ok) responses[String(answer.status)] = success(answer, op);
  // A dav token (WebDAV's) is forbidden wherever the API takes a token.
  const davRefused = op.access === 'share-page' || op.access === 'request-page' ? [] : [403];
  for (const status of [...new Set([...op.errors, ...davRefused, 500])].sort((a, b) => a - b)) {
    responses[String(status)] = failure(status, op);
  }
  const out: Json = {
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(\w)?/g, (_, c?: string) => (c ?? '').toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    description: ACCESS_TEXT[op.access],
    'x-token-types': TOKEN_TYPES[op.access],
    security: security(op.access),
    parameters: parameters(op),
    responses,
  };
  const body = requestBody(op);
  if (body) out['requestBody'] = body;
  return out;
}

/**
 * The OpenAPI 3.1 document of the given operations, in their order: the ones the routes declared as they registered
 * (routes/route-table.ts).
 */
export function openApiDocument(operations: readonly Operation[]): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) paths[op.path] = { ...paths[op.path], [op.method]: operation(op) };
  return {
    openapi: '3.1.1',
    info: {
      title: 'Coffer API',
      version: '0.1.0',
      description:
        'Self-hosted file storage and sharing. Conventions, flows and examples: docs/API.md. ' +
        `Every error is one shape, \`{error, message, ...details}\`; codes: ${ERROR_CODES.join(', ')}.`,
    },
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        shareGrant: {
          type: 'apiKey',
          in: 'cookie',
          name: 'coffer_share',
          description: 'The grant POST /s/{id}/unlock sets for one protected share (docs/API.md, Share pages).',
        },
        requestGrant: {
          type: 'apiKey',
          in: 'cookie',
          name: 'coffer_request',
          description: 'The grant POST /r/{id}/unlock sets for one protected file request (docs/API.md, File requests).',
        },
        token: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            '`Authorization: token <value>`: a session token (login, register) or an uploader token ' +
            '(POST /api/token). Each operation lists the types it accepts in `x-token-types`. The scheme matches ' +
            'without regard to case; exactly one space and one value follow it.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`Authorization: Bearer <value>`: the same tokens as `token <value>`, under the same rules (RFC 6750 ' +
            'form, for clients that send only this one).',
        },
        browserSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'coffer_session',
          description:
            'The browser session set by POST /api/auth/session (HttpOnly, SameSite=Strict; `__Host-coffer_session` ' +
            'over HTTPS). Used only when no Authorization header is sent. A request that changes something must ' +
            'come from this origin and carry `X-Coffer-CSRF: 1`, or it is 403; a read from another origin is ' +
            'served as anonymous. See docs/SECURITY.md, "Browser sessions".',
        },
      },
    },
  };
}
