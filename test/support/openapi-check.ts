import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../src/adapters/http/routes/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The document every HTTP test's answers are held to, and ajv over its schemas: built once per test process. */
const document = buildOpenApiDocument({ web: true }) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', components: document['components'] });

const routes = Object.entries(document['paths'] as Record<string, Json>).map(([template, item]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
  item,
}));
const compiled = new Map<string, ValidateFunction>();

function validator(key: string, schema: Json): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * Throws when an answer is not what the document says: a status it does not list for the route, or a JSON body
 * that does not match the schema of that status. Paths no route answers must get the error shape.
 */
export function checkAnswer(method: string, url: string, status: number, body: unknown): void {
  const path = decodeURI(url.split('?')[0] ?? '');
  const route = routes.find((r) => r.pattern.test(path));
  // HEAD comes with GET, unless the route answers HEAD on its own (tus).
  const asked = method.toLowerCase();
  const verb = asked === 'head' && !route?.item['head'] ? 'get' : asked;
  const operation = route?.item[verb] as Json | undefined;
  let key: string;
  let schema: Json | undefined;
  // A route served only with some options (the web pages) is absent, not broken, when the app runs without them.
  const noRoute = status === 404 && (body as Json | undefined)?.['message'] === 'No such route';
  if (!route || !operation || noRoute) {
    if (status !== 404 && status !== 405 && status < 408) {
      throw new Error(`OpenAPI: ${method} ${path} answered ${status}, but the document has no such operation`);
    }
    key = 'Error';
    schema = { $ref: '#/components/schemas/Error' };
  } else {
    const response = (operation['responses'] as Json)[String(status)] as Json | undefined;
    if (!response) {
      throw new Error(`OpenAPI: ${method} ${route.template} answered ${status}, which the document does not list`);
    }
    key = `${verb} ${route.template} ${status}`;
    schema = response['content']?.['application/json']?.schema as Json | undefined;
    // Stored bytes are whatever was stored, JSON included.
    if (response['content']?.['*/*']) return;
  }
  if (body === undefined || method.toLowerCase() === 'head') return;
  if (!schema) throw new Error(`OpenAPI: ${key} answered JSON, but the document gives it no JSON body`);
  const validate = validator(key, schema);
  if (!validate(body)) {
    throw new Error(`OpenAPI: ${key} answered a body the document does not allow: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
