import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const REPOSITORIES = ['users', 'tokens', 'files', 'folders', 'collections', 'pastes', 'shares', 'usage'] as const;

/** Every argument any repository was called with, since the last reset. */
const calls: unknown[][] = [];

function recording<T extends object>(repository: T): T {
  return new Proxy(repository, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(args);
        return value.apply(target, args);
      };
    },
  });
}

const withRecordedRepositories = (ports: Ports): Ports => {
  const wrapped = { ...ports };
  for (const name of REPOSITORIES) (wrapped as Record<string, object>)[name] = recording(ports[name]);
  return wrapped;
};

/** Whatever reached a repository: an object with an operator key, or a string no id can be. */
function hostileArguments(): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string' && value.length > 1000) found.push(`${path}: string of ${value.length}`);
    if (value === null || typeof value !== 'object' || value instanceof Date) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key.startsWith('$')) found.push(`${path}.${key}`);
      visit(inner, `${path}.${key}`);
    }
  };
  calls.forEach((args, i) => visit(args, `call${i}`));
  return found;
}

const HOSTILE_IDS: Array<[string, unknown]> = [
  ['an operator object', { $ne: null }],
  ['a $gt object', { $gt: '' }],
  ['a $where object', { $where: 'sleep(1000)' }],
  ['an array', ['a', 'b']],
  ['an array of operators', [{ $ne: null }]],
  ['a number', 42],
  ['a boolean', true],
  ['an empty string', ''],
  ['a 10 KB string', 'i'.repeat(10_000)],
];

let t: HttpTest;
let token: string;
let admin: string;
beforeEach(async () => {
  t = await makeHttp({ wrapPorts: withRecordedRepositories });
  token = await t.userToken('alice');
  admin = await t.adminToken();
  calls.length = 0;
});
afterEach(() => t.close());

describe('ids in JSON bodies', () => {
  const bodies = (id: unknown): Array<[string, string, unknown]> => [
    ['POST', '/api/folder', { name: 'x', parentId: id }],
    ['POST', '/api/share', { type: 'file', id }],
    ['POST', '/api/search', { query: 'x', folderId: id }],
    ['PATCH', '/api/file/f1', { folderId: id }],
    ['PATCH', '/api/folder/f1', { parentId: id }],
  ];

  it('answers 400 before any repository sees them', async () => {
    for (const [what, id] of HOSTILE_IDS) {
      for (const [method, path, json] of bodies(id)) {
        calls.length = 0;
        const res = await t.request(method, path, { token, json });
        expect(res.status, `${what}: ${method} ${path}`).toBe(400);
        expect(res.body.error).toBe('bad_request');
        expect(hostileArguments(), `${what}: ${method} ${path}`).toEqual([]);
        // Authentication reads the token; nothing about the item itself may have been looked up.
        expect(calls.flat().filter((arg) => arg === 'f1'), `${what}: ${method} ${path}`).toEqual([]);
      }
    }
  });

  it('answers 400 to credentials, names and passwords that are not strings', async () => {
    const cases: Array<[string, string, unknown, string?]> = [
      ['POST', '/api/auth/login', { username: { $ne: null }, password: { $ne: null } }],
      ['POST', '/api/auth/login', { username: 'alice', password: { $gt: '' } }],
      ['POST', '/api/auth/login', { username: ['alice'], password: 'alice-password' }],
      ['POST', '/api/folder', { name: { $ne: null } }, token],
      ['POST', '/api/collection', { name: ['x'] }, token],
      ['POST', '/api/paste', { content: { $ne: null } }, token],
      ['POST', '/api/token', { name: 7 }, token],
      ['PATCH', '/api/share/s1', { password: { $ne: null } }, token],
      ['POST', '/api/admin/users', { username: { $ne: null }, password: 'long-enough' }, admin],
      ['PATCH', '/api/admin/users/u1', { limits: { files: { $gt: 0 } } }, admin],
      ['PATCH', '/api/admin/users/u1', { type: { $ne: 'user' } }, admin],
    ];
    for (const [method, path, json, auth] of cases) {
      calls.length = 0;
      const res = await t.request(method, path, { token: auth, json });
      expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(400);
      expect(hostileArguments()).toEqual([]);
    }
  });
});

describe('ids in paths and headers', () => {
  const routes = (id: string): Array<[string, string, unknown?]> => [
    ['GET', `/api/file/${id}`],
    ['GET', `/api/file/${id}/content`],
    ['PATCH', `/api/file/${id}`, { name: 'x' }],
    ['DELETE', `/api/file/${id}`],
    ['GET', `/api/folder/${id}`],
    ['PATCH', `/api/folder/${id}`, { name: 'x' }],
    ['DELETE', `/api/folder/${id}`],
    ['GET', `/api/collection/${id}`],
    ['PATCH', `/api/collection/${id}`, { name: 'x' }],
    ['DELETE', `/api/collection/${id}`],
    ['PUT', `/api/collection/${id}/file/f1`],
    ['PUT', `/api/collection/c1/file/${id}`],
    ['DELETE', `/api/collection/${id}/file/f1`],
    ['DELETE', `/api/collection/c1/file/${id}`],
    ['GET', `/api/paste/${id}`],
    ['PATCH', `/api/paste/${id}`, { name: 'x' }],
    ['DELETE', `/api/paste/${id}`],
    ['GET', `/api/share/${id}`],
    ['GET', `/api/share/${id}/content`],
    ['PATCH', `/api/share/${id}`, { password: null }],
    ['DELETE', `/api/share/${id}`],
    ['DELETE', `/api/token/${id}`],
    ['GET', `/api/admin/users/${id}`],
    ['PATCH', `/api/admin/users/${id}`, { type: 'user' }],
    ['DELETE', `/api/admin/users/${id}`],
  ];
  const as = (path: string) => (path.startsWith('/api/admin') ? admin : token);

  it('answers 400 to every id over 128 characters, on every route, before any repository sees it', async () => {
    for (const id of ['x'.repeat(129), 'x'.repeat(10_000)]) {
      for (const [method, path, json] of routes(id)) {
        calls.length = 0;
        const res = await t.request(method, path, { token: as(path), json });
        expect(res.status, `${method} ${path.slice(0, 60)}`).toBe(400);
        expect(res.body.error).toBe('bad_request');
        expect(hostileArguments()).toEqual([]);
      }
    }
  });

  it('answers 404 to a well-formed id of 128 characters that does not exist, on every route', async () => {
    for (const [method, path, json] of routes('y'.repeat(128))) {
      const res = await t.request(method, path, { token: as(path), json });
      expect(res.status, `${method} ${path.slice(0, 60)}`).toBe(404);
    }
  });

  it('takes an operator spelled into a path as the plain string it is', async () => {
    const encoded = encodeURIComponent(JSON.stringify({ $ne: null }));
    for (const [method, path, json] of routes(encoded)) {
      calls.length = 0;
      const res = await t.request(method, path, { token: as(path), json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(hostileArguments()).toEqual([]);
      // Where the collection is looked up first, its 404 comes before the file id is read at all.
      if (!path.startsWith('/api/collection/c1/')) expect(calls.flat(), `${method} ${path}`).toContain('{"$ne":null}');
    }
  });

  it('answers 400 to an X-Share-Id over 128 characters', async () => {
    calls.length = 0;
    const res = await t.request('GET', '/api/folder/f1', { headers: { 'x-share-id': 's'.repeat(129) } });
    expect(res.status).toBe(400);
    expect(hostileArguments()).toEqual([]);
  });

  it('answers 400 to a multipart folderId over 128 characters', async () => {
    const res = await t.upload(token, 'x', { folderId: 'f'.repeat(129) });
    expect(res.status).toBe(400);
    expect((await t.request('GET', '/api/usage/stats', { token })).body.files.current).toBe(0);
  });
});
