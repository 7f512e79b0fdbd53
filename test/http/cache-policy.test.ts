import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
});

describe('what caches may keep', () => {
  it('keeps no API answer about a caller, success or error, in any cache', async () => {
    const token = await t.userToken('c');
    const answers = [
      await t.request('GET', '/api/auth/me', { token }),
      await t.request('GET', '/api/folder', { token }),
      await t.request('POST', '/api/token', { token, json: { name: 'x' } }),
      await t.request('GET', '/api/auth/me'),
      await t.request('GET', '/api/nowhere'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 201, 401, 404]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps no page in any cache: the dashboard shell on each of its paths, and a share page', async () => {
    const token = await t.userToken('e');
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'f' } });
    const share = await t.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.body.id } });
    for (const path of ['/', `/files/${folder.body.id}`, '/shares', '/account', `/s/${share.body.id}`]) {
      const page = await t.request('GET', path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('lets stored bytes revalidate and the public reference be cached, as their routes choose', async () => {
    const token = await t.userToken('d');
    const file = await t.upload(token, 'bytes');
    const content = await t.request('GET', `/api/file/${file.body.id}/content`, { token });
    expect(content.headers.get('cache-control')).toBe('private, no-cache');
    const reference = await t.request('GET', '/api/openapi.json');
    expect(reference.headers.get('cache-control')).toMatch(/^public/);
  });
});
