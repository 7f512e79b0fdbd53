import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/adapters/http/routes/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
});

/** Reads anyone may make, whoever they are: the reference, the health check, who the browser session is, the pages' shells and assets. */
const PUBLIC = new Set([
  '/api/openapi.json',
  '/api/docs',
  '/api/docs/{name}',
  '/health',
  '/api/auth/session',
  // Signing in with single sign-on: what the sign-in page offers, and the redirects to the provider and back. They
  // read nothing of any account (the redirect is followed to the sign-in page).
  '/api/auth/providers',
  '/api/auth/oidc/start',
  '/api/auth/oidc/callback',
  // The one read an uploader has: what the request asks for.
  '/api/request/{id}/public',
]);

describe('an uploader of a file request', () => {
  it('reads nothing through any read route of the API or of /s/, with the request\'s password or its grant', async () => {
    const alice = await t.userToken('alice');
    const request = (await t.request('POST', '/api/request', { token: alice, json: { name: 'inbox', password: 'pass-word' } })).body;
    const form = new FormData();
    form.append('file', new Blob(['SECRET-CONTENT']), 'sent.txt');
    const sent = await t.request('POST', `/api/request/${request.id}/file`, { body: form, headers: { 'X-Request-Password': 'pass-word' } });
    expect(sent.status).toBe(201);
    // Something of the owner's besides: a shared file, so /s/ routes have a real share to be tried against too.
    const own = (await t.upload(alice, 'OWNER-ONLY', { filename: 'own.txt' })).body;
    const unlock = await t.request('POST', `/r/${request.id}/unlock`, { json: { password: 'pass-word' }, headers: { 'Sec-Fetch-Site': 'same-origin' } });
    const grant = /coffer_request=([^;]+)/.exec(unlock.headers.get('set-cookie') ?? '')![1]!;
    const { userId } = await t.user('alice');
    const secrets = ['SECRET-CONTENT', 'OWNER-ONLY', sent.body.id, own.id, request.folderId, userId];

    const doc = buildOpenApiDocument({ web: true }) as { paths: Record<string, Record<string, unknown>> };
    const reads = Object.entries(doc.paths)
      .filter(([path, item]) => 'get' in item && (path.startsWith('/api/') || path.startsWith('/s/')) && !PUBLIC.has(path))
      .map(([path]) => path);
    expect(reads.length).toBeGreaterThan(20);
    const headers = {
      Cookie: `coffer_request=${grant}`,
      'X-Request-Password': 'pass-word',
      'X-Share-Id': request.id,
      'X-Share-Password': 'pass-word',
      'Sec-Fetch-Site': 'same-origin',
    };
    const leaks: string[] = [];
    for (const path of reads) {
      for (const id of [request.id, sent.body.id, own.id, request.folderId]) {
        const url = path.replace(/\{\w+\}/g, id);
        const res = await t.request('GET', url, { headers });
        const leaked = secrets.filter((secret) => res.text.includes(secret) && !url.includes(secret));
        if ((res.status >= 200 && res.status < 300) || leaked.length > 0) leaks.push(`${url}: ${res.status} ${leaked.join(',')}`);
      }
    }
    expect(leaks).toEqual([]);
    // Nor does the public read say more than what the request asks for.
    const view = await t.request('GET', `/api/request/${request.id}/public`, { headers });
    expect(secrets.filter((secret) => view.text.includes(secret))).toEqual([]);
  });
});
