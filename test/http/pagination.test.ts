import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { nextLink, paginationSuite, PAGING_LIMITS } from './pagination-suite.js';

paginationSuite('memory', () => makeHttp({ limits: PAGING_LIMITS }));

describe('paging addresses and rights', () => {
  let t: HttpTest | undefined;
  afterEach(() => t?.close());

  it('builds the Link from PUBLIC_URL, like every url, whatever Host or path the request came with', async () => {
    t = await makeHttp({ publicUrl: 'https://files.example.com/coffer' });
    const { token } = await t.user('alice');
    const actor = await t.core.authenticate.execute({ token });
    for (let i = 0; i < 3; i++) {
      await t.core.createPaste.execute({ actor, content: `p${i}` });
      t.clock.advance(1000);
    }
    const first = await t.request('GET', '/api/paste?limit=2', { token, headers: { host: 'evil.example' } });
    const link = nextLink(first)!;
    expect(link).toMatch(/^https:\/\/files\.example\.com\/coffer\/api\/paste\?limit=2&cursor=[A-Za-z0-9_-]+$/);
    const rest = await t.request('GET', link.replace('https://files.example.com/coffer', ''), { token });
    expect(rest.body.map((p: { content: string }) => p.content)).toEqual(['p2']);
  });

  it('takes the Link base from the request when PUBLIC_URL is unset, and the root carries it too', async () => {
    t = await makeHttp();
    const { token } = await t.user('alice');
    const actor = await t.core.authenticate.execute({ token });
    await t.core.createFolder.execute({ actor, name: 'a', parentId: null });
    await t.core.createFolder.execute({ actor, name: 'b', parentId: null });
    const first = await t.request('GET', '/api/folder?limit=1', { token });
    expect(nextLink(first)).toBe(`${t.url}/api/folder?limit=1&cursor=${first.body.nextCursor}`);
    const last = await t.request('GET', `/api/folder?limit=1&cursor=${first.body.nextCursor}`, { token });
    expect([last.body.folders.length, last.body.nextCursor, last.headers.get('link')]).toEqual([1, null, null]);
  });

  it('keeps the listings from API tokens: 403 with paging parameters too', async () => {
    t = await makeHttp();
    const actor = await t.core.authenticate.execute({ token: await t.userToken('alice') });
    const api = (await t.core.createApiToken.execute({ actor, name: 'ci' })).token;
    for (const route of ['folder', 'paste', 'collection', 'token']) {
      expect((await t.request('GET', `/api/${route}?limit=2`, { token: api })).status).toBe(403);
    }
  });
});
