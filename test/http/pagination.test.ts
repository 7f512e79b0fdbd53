import { afterEach, describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/index.js';
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

  it('asks no repository for a page when the limit or cursor is refused', async () => {
    const paged: string[] = [];
    const PAGE_METHODS = new Set(['pageInFolder', 'pageChildren', 'pageByOwner', 'pageByUser']);
    const recording = <T extends object>(repository: T): T =>
      new Proxy(repository, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key, target);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (PAGE_METHODS.has(String(key))) paged.push(String(key));
            return value.apply(target, args);
          };
        },
      });
    const wrapPorts = (ports: Ports): Ports => ({
      ...ports,
      files: recording(ports.files),
      folders: recording(ports.folders),
      pastes: recording(ports.pastes),
      collections: recording(ports.collections),
      tokens: recording(ports.tokens),
    });
    t = await makeHttp({ wrapPorts });
    const token = await t.userToken('alice');
    const hostile = Buffer.from(JSON.stringify(['pastes', { $gt: 0 }, { $ne: null }])).toString('base64url');
    for (const route of ['folder', 'paste', 'collection', 'token']) {
      for (const query of [`cursor=${hostile}`, 'limit=0', 'limit=abc', 'cursor=%7B%22%24gt%22%3A%22%22%7D']) {
        expect((await t.request('GET', `/api/${route}?${query}`, { token })).status).toBe(400);
      }
    }
    expect(paged).toEqual([]);
    expect((await t.request('GET', '/api/paste?limit=5', { token })).status).toBe(200);
    expect(paged).toEqual(['pageByOwner']);
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
