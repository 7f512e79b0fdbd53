import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/application/index.js';
import { HttpApp } from '../../src/adapters/http/http-app.js';
import { buildOpenApiDocument } from '../../src/adapters/http/routes/index.js';
import { makeHttp, silentLogger, type HttpTest } from '../support/http.js';

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/** "METHOD /path/{param}" of every route the router answers (HEAD that comes with GET is GET's). */
function routerRoutes(): string[] {
  // Registering routes calls nothing on the core, so none is needed to read them.
  const app = new HttpApp({} as Core, { maxUploadBytes: 1, persistence: 'memory', logger: silentLogger, webDir: 'web/dist' });
  return app.router.stack.flatMap((layer) =>
    layer.methods
      .filter((method) => method !== 'HEAD' || !layer.methods.includes('GET'))
      .map((method) => `${method.toLowerCase()} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
  );
}

function documentRoutes(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method} ${path}`),
  );
}

describe('the OpenAPI document', () => {
  let http: HttpTest;
  beforeAll(async () => {
    http = await makeHttp();
  });
  afterAll(() => http.close());

  it('is served at /api/openapi.json, cacheable, and is valid OpenAPI 3.1', async () => {
    const reply = await http.request('GET', '/api/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(reply.body.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(reply.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names every route the router answers, and no route it does not', () => {
    const document = buildOpenApiDocument({ web: true }) as { paths: Record<string, Record<string, unknown>> };
    expect(documentRoutes(document).sort()).toEqual([...new Set(routerRoutes())].sort());
  });

  it('leaves out the web pages when the front end is not served', () => {
    const document = buildOpenApiDocument({ web: false }) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/') && path !== '/health')).toEqual([]);
  });

  it('describes bodies from the schemas the routes validate with, and the token scheme', () => {
    const document = buildOpenApiDocument({ web: true }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const login = document.paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema).toMatchObject({
      required: ['username', 'password'],
      additionalProperties: false,
    });
    const upload = document.paths['/api/file'].post;
    expect(Object.keys(upload.requestBody.content['multipart/form-data'].schema.properties)).toEqual([
      'folderId', 'name', 'share', 'password', 'expiresAt', 'maxViews', 'maxDownloads', 'encryptedMetadata', 'file',
    ]);
    expect(upload['x-token-types']).toEqual(['session', 'uploader']);
    expect(document.paths['/api/auth/me'].get['x-token-types']).toEqual(['session']);
    expect(document.components.securitySchemes.token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Wherever a token goes, Bearer goes too.
    for (const [path, item] of Object.entries<Record<string, { security?: Record<string, unknown>[] }>>(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const schemes = (op.security ?? []).flatMap((alternative) => Object.keys(alternative));
        expect(schemes.includes('bearer'), `${method} ${path}`).toBe(schemes.includes('token'));
      }
    }
    expect(document.paths['/api/auth/me'].get.security).toContainEqual({ bearer: [] });
    const names = document.paths['/api/file/{id}'].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(['id', 'X-Share-Id', 'X-Share-Password']);
  });

  it('holds answers to it: an answer the document does not allow fails the request', async () => {
    const { checkAnswer } = await import('../support/openapi-check.js');
    expect(() => checkAnswer('GET', '/api/auth/me', 200, { id: 'x' })).toThrow(/does not allow/);
    expect(() => checkAnswer('GET', '/api/auth/me', 418, undefined)).toThrow(/does not list/);
  });
});

describe('the API reference page', () => {
  let http: HttpTest;
  beforeAll(async () => {
    http = await makeHttp();
  });
  afterAll(() => http.close());

  it('is served with its own tight CSP, scripts only from itself', async () => {
    const reply = await http.request('GET', '/api/docs');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = reply.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(reply.text).not.toMatch(/<script>(?!<)/);
    expect(reply.text).not.toMatch(/https?:\/\//);
    for (const src of reply.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const asset = await http.request('GET', `/api/${src[1]}`);
      expect(asset.status).toBe(200);
      expect(asset.bytes.length).toBeGreaterThan(0);
    }
    expect((await http.request('GET', '/api/docs/init.js')).text).toContain("url: 'openapi.json'");
    expect((await http.request('GET', '/api/docs/nothing.js')).status).toBe(404);
  });
});
