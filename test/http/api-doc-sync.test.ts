import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/adapters/http/routes/index.js';

const API_MD = new URL('../../docs/API.md', import.meta.url);
const shape = (path: string) => path.replace(/\{\w+\}/g, '{}');

/** docs/API.md repeats each route in a table (`| GET | `/api/file/{id}` | ...`); the generated document is the truth. */
describe('docs/API.md and the OpenAPI document', () => {
  it('list the same routes', () => {
    const rows = readFileSync(API_MD, 'utf8').matchAll(/^\| (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \| `([^`]+)` \|/gm);
    const documented = [...rows].map(([, method, path]) => `${method!.toLowerCase()} ${shape(path!)}`);
    const document = buildOpenApiDocument({ web: true }) as { paths: Record<string, Record<string, unknown>> };
    const generated = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${shape(path)}`),
    );
    expect(documented.sort()).toEqual(generated.sort());
  });
});
