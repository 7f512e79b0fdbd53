import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer } from '../support/openapi-check.js';
import type { paths } from '../../web/src/common/openapi-schema.gen.js';
import { GENERATED_TYPES, generateTypes } from '../support/openapi-types.js';
import { makeHttp, type HttpTest } from '../support/http.js';

/** A client generated from the document (openapi-typescript + openapi-fetch): `tsc` checks every call below. */
describe('a client generated from /api/openapi.json', () => {
  let http: HttpTest;
  beforeAll(async () => {
    http = await makeHttp({ registration: 'open' });
  });
  afterAll(() => http.close());

  it('is generated from the document the server serves (npm run openapi:types)', async () => {
    expect(readFileSync(GENERATED_TYPES, 'utf8')).toBe(await generateTypes());
  });

  it('calls a dozen routes, typed end to end, every answer held to the document', async () => {
    const anonymous = createClient<paths>({ baseUrl: http.url });
    const registered = await anonymous.POST('/api/auth/register', { body: { username: 'gen', password: 'gen-password' } });
    expect(registered.response.status).toBe(201);
    const login = await anonymous.POST('/api/auth/login', { body: { username: 'gen', password: 'gen-password' } });
    const answer = login.data!;
    if ('mfaRequired' in answer) throw new Error('gen has no second factor');
    const token: string = answer.token;

    const client = createClient<paths>({ baseUrl: http.url, headers: { authorization: `token ${token}` } });
    client.use({
      async onResponse({ request, response }) {
        const type = response.headers.get('content-type') ?? '';
        const body: unknown = type.includes('application/json') ? await response.clone().json() : undefined;
        checkAnswer(request.method, new URL(request.url).pathname, response.status, body);
      },
    });

    const me = await client.GET('/api/auth/me');
    expect(me.data!.username).toBe('gen');

    const folder = await client.POST('/api/folder', { body: { name: 'docs' } });
    const folderId: string = folder.data!.id;

    const file = await client.POST('/api/file', {
      body: { folderId, file: 'hello' },
      bodySerializer: ({ folderId: into, file: content }) => {
        const form = new FormData();
        if (into) form.append('folderId', into);
        form.append('file', new Blob([content], { type: 'text/plain' }), 'hello.txt');
        return form;
      },
    });
    expect(file.response.status).toBe(201);
    const fileId: string = file.data!.id;
    expect(file.data!.size).toBe('5');

    const tree = await client.GET('/api/folder/{id}', { params: { path: { id: folderId } } });
    expect(tree.data!.files.map((f) => f.name)).toEqual(['hello.txt']);

    const paste = await client.POST('/api/paste', { body: { content: 'print(1)', type: 'python' } });
    const edited = await client.PATCH('/api/paste/{id}', { params: { path: { id: paste.data!.id } }, body: { name: 'one' } });
    expect(edited.data!.name).toBe('one');

    const collection = await client.POST('/api/collection', { body: { name: 'picks' } });
    const added = await client.PUT('/api/collection/{id}/file/{fileId}', {
      params: { path: { id: collection.data!.id, fileId } },
    });
    expect(added.data!.count).toBe(1);

    const share = await client.POST('/api/share', { body: { type: 'file', id: fileId, maxViews: 5 } });
    expect(share.data!.url).toMatch(/\/s\//);
    const viewed = await anonymous.GET('/api/share/{id}', { params: { path: { id: share.data!.id } } });
    expect(viewed.data!.file!.name).toBe('hello.txt');

    const hits = await client.POST('/api/search', { body: { query: 'hello' } });
    expect(hits.data!.files).toHaveLength(1);

    const created = await client.POST('/api/token', { body: { name: 'ci' } });
    const tokens = await client.GET('/api/token');
    expect(tokens.data!.map((t) => t.name)).toEqual(['ci']);
    const revoked = await client.DELETE('/api/token/{id}', { params: { path: { id: created.data!.id } } });
    expect(revoked.response.status).toBe(204);

    const usage = await client.GET('/api/usage/stats');
    expect(usage.data!.files.current).toBe(1);

    const refused = await client.POST('/api/folder', { body: { name: '' } });
    expect(refused.error!.error).toBe('bad_request');
    expect(refused.error!.issues![0]!.path).toBe('name');
  });
});
