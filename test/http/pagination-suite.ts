import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core, Ports } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, signUp } from '../support/core.js';
import { toReply, type Reply } from '../support/http.js';

/** One running app, on whichever persistence, with the per-user maxima raised (see PAGING_LIMITS). */
export interface PagingApp {
  url: string;
  core: Core;
  ports: Ports;
  close(): Promise<void>;
}

/** Room for 2,500 root files, and for more than one default page of pastes, collections and tokens. */
export const PAGING_LIMITS = { files: 5000, folders: 100, pastes: 1200, collections: 1200, tokens: 1200, shares: 100 };

const LINK = /^<([^>]+)>; rel="next"$/;

/** The next page's address in a `Link` header, or null when the header is absent. */
export function nextLink(reply: Reply): string | null {
  const header = reply.headers.get('link');
  if (header === null) return null;
  const match = LINK.exec(header);
  if (!match) throw new Error(`not a rel="next" link: ${header}`);
  return match[1]!;
}

/**
 * The paging of the root, pastes, collections and API tokens over HTTP, and the spec's listings left whole. Run on
 * memory (test/http/pagination.test.ts) and on MongoDB (test/mongodb/pagination.test.ts).
 */
export function paginationSuite(label: string, makeApp: () => Promise<PagingApp>): void {
  describe(`paging over HTTP (${label})`, () => {
    let app: PagingApp;
    beforeAll(async () => {
      app = await makeApp();
    });
    afterAll(() => app?.close());

    const call = async (method: string, pathOrUrl: string, token?: string, json?: unknown): Promise<Reply> => {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `token ${token}`;
      if (json !== undefined) headers['content-type'] = 'application/json';
      const url = pathOrUrl.startsWith('http') ? pathOrUrl : app.url + pathOrUrl;
      return toReply(await fetch(url, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }));
    };
    const user = (name: string) => signUp(app, name);
    const inParallel = async (count: number, make: (i: number) => Promise<unknown>) => {
      for (let start = 0; start < count; start += 25) {
        await Promise.all(Array.from({ length: Math.min(25, count - start) }, (_, j) => make(start + j)));
      }
    };
    const upload = async (actor: Actor, name: string) => {
      const input = { actor, folderId: null, name, filename: name, mime: 'text/plain', content: bytes('x') };
      return (await app.core.uploadFile.execute(input)).id;
    };

    /** Follows `nextCursor` (object answers) from `path`, checking each page against the Link header too. */
    async function walkRoot(token: string, limit?: number) {
      const pages: Array<{ files: string[]; folders: string[] }> = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams();
        if (limit !== undefined) query.set('limit', String(limit));
        if (cursor !== null) query.set('cursor', cursor);
        const reply = await call('GET', `/api/folder${query.size > 0 ? `?${query}` : ''}`, token);
        expect(reply.status).toBe(200);
        const body = reply.body as { files: { id: string }[]; folders: { id: string }[]; nextCursor: string | null };
        expect(Object.keys(body).sort()).toEqual(['files', 'folders', 'nextCursor']);
        cursor = body.nextCursor;
        const link = nextLink(reply);
        if (cursor === null) expect(link).toBeNull();
        else expect(new URL(link!).searchParams.get('cursor')).toBe(cursor);
        pages.push({ files: body.files.map((f) => f.id), folders: body.folders.map((f) => f.id) });
        if (pages.length > 1000) throw new Error('the walk did not end');
      } while (cursor !== null);
      return pages;
    }

    /** Follows the Link header of an array answer from `first` to the page without one. */
    async function walkLinks(token: string, first: string) {
      const pages: string[][] = [];
      for (let url: string | null = first; url !== null; ) {
        const reply = await call('GET', url, token);
        expect(reply.status).toBe(200);
        expect(Array.isArray(reply.body)).toBe(true);
        pages.push((reply.body as { id: string }[]).map((item) => item.id));
        url = nextLink(reply);
        if (pages.length > 1000) throw new Error('the walk did not end');
      }
      return pages;
    }

    const expectEachOnce = (seen: string[], expected: string[]) => {
      expect(seen.length).toBe(new Set(seen).size);
      expect([...seen].sort()).toEqual([...expected].sort());
    };

    it('walks 2,500 root files and 30 folders, with limit 100 and with the default, each exactly once', async () => {
      const { actor, token } = await user('walker');
      const folderIds: string[] = [];
      await inParallel(30, async (i) => {
        const name = `${['Box', 'box', 'BOX'][i % 3]} ${i % 7}`;
        folderIds.push((await app.core.createFolder.execute({ actor, name, parentId: null })).id);
      });
      const fileIds: string[] = [];
      const stems = ['report', 'Report', 'REPORT', 'photo', 'Ünïcode', '🙂', 'a'];
      await inParallel(2500, async (i) => {
        fileIds.push(await upload(actor, `${stems[i % stems.length]} ${i % 300}.txt`));
      });

      const small = await walkRoot(token, 100);
      expect(small).toHaveLength(26);
      expect(small.slice(0, -1).every((p) => p.files.length + p.folders.length === 100)).toBe(true);
      expect(small[0]!.folders).toHaveLength(30);
      expect(small[0]!.files).toHaveLength(70);
      expect(small.slice(1).every((p) => p.folders.length === 0)).toBe(true);
      expectEachOnce(small.flatMap((p) => p.folders), folderIds);
      expectEachOnce(small.flatMap((p) => p.files), fileIds);

      // Without parameters: the first page is what GET /api/folder always answered, and it says more follow.
      const whole = await walkRoot(token);
      expect(whole.map((p) => p.files.length + p.folders.length)).toEqual([1000, 1000, 530]);
      expectEachOnce(whole.flatMap((p) => p.folders), folderIds);
      expectEachOnce(whole.flatMap((p) => p.files), fileIds);
      expect(whole.flatMap((p) => p.files)).toEqual(small.flatMap((p) => p.files));

      // A page the folders fill exactly goes on with the first file.
      const tight = await walkRoot(token, 30);
      expect(tight[0]).toEqual({ folders: small[0]!.folders, files: [] });
      expect(tight[1]!.files).toEqual(small[0]!.files.slice(0, 30));
      expectEachOnce(tight.flatMap((p) => p.files), fileIds);
    }, 180_000);

    it('pages pastes, collections and API tokens with a Link header, oldest first', async () => {
      const { actor, token } = await user('lister');
      const made: Record<string, string[]> = { paste: [], collection: [], token: [] };
      for (let i = 0; i < 7; i++) {
        made.paste!.push((await app.core.createPaste.execute({ actor, content: `paste ${i}` })).id);
        made.collection!.push((await app.core.createCollection.execute({ actor, name: `c${i}` })).id);
        made.token!.push((await app.core.createApiToken.execute({ actor, name: `t${i}` })).id);
      }
      for (const route of ['paste', 'collection', 'token']) {
        const first = await call('GET', `/api/${route}?limit=3`, token);
        const link = nextLink(first);
        expect(link).not.toBeNull();
        const next = new URL(link!);
        expect(`${next.origin}${next.pathname}`).toBe(`${app.url}/api/${route}`);
        expect(next.searchParams.get('limit')).toBe('3');
        expect([...next.searchParams.keys()].sort()).toEqual(['cursor', 'limit']);

        const pages = await walkLinks(token, `/api/${route}?limit=3`);
        expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
        expect([...pages.flat()].sort()).toEqual([...made[route]!].sort());

        // Pages follow the order of the whole listing: by createdAt, then id for items made in the same millisecond.
        const whole = await call('GET', `/api/${route}`, token);
        expect(whole.body.map((item: { id: string }) => item.id)).toEqual(pages.flat());
        const order = whole.body.map((item: { createdAt: string; id: string }) => [item.createdAt, item.id].join(' '));
        expect(order).toEqual([...order].sort());
        expect(whole.headers.get('link')).toBeNull();
        // An exact fit ends there: no link to an empty page.
        expect(nextLink(await call('GET', `/api/${route}?limit=7`, token))).toBeNull();
      }
    });

    it('answers more than 1,000 pastes, collections or tokens without parameters as a first page that says so', async () => {
      const { actor, token } = await user('hoarder');
      await inParallel(1001, (i) => app.core.createPaste.execute({ actor, content: `p${i}` }));
      await inParallel(1001, (i) => app.core.createCollection.execute({ actor, name: `c${i}` }));
      await inParallel(1001, (i) => app.core.createApiToken.execute({ actor, name: `t${i}` }));
      for (const route of ['paste', 'collection', 'token']) {
        const first = await call('GET', `/api/${route}`, token);
        expect(first.body).toHaveLength(1000);
        const link = nextLink(first)!;
        expect(new URL(link).searchParams.has('limit')).toBe(false);
        const pages = await walkLinks(token, `/api/${route}`);
        expect(pages.map((p) => p.length)).toEqual([1000, 1]);
        expect(new Set(pages.flat()).size).toBe(1001);
      }
    }, 120_000);

    it('hands out every item that exists throughout a walk exactly once while others are created and deleted', async () => {
      const { actor, token } = await user('churner');
      const initialFiles: string[] = [];
      await inParallel(300, async (i) => initialFiles.push(await upload(actor, `f${(i * 7919) % 1000}.txt`)));
      const initialPastes: string[] = [];
      await inParallel(300, async (i) => {
        initialPastes.push((await app.core.createPaste.execute({ actor, content: `p${i}` })).id);
      });
      const gone = new Set<string>();
      let walking = true;
      // Each round creates a file and a paste (named and timed to land anywhere in the order, before or after the
      // walk's position), deletes one initial file and paste, and deletes what the round before created.
      const churn = async () => {
        let previous: string[] = [];
        let round = 0;
        // At most 120 rounds, paced, so the walks meet changes all along and most initial items stay.
        for (; walking && round < 120; round++) {
          await sleep(2);
          const fresh = [
            await upload(actor, `f${(round * 104729) % 1000}.txt`),
            (await app.core.createPaste.execute({ actor, content: 'new' })).id,
          ];
          const victims = [initialFiles[(round * 37) % 300]!, initialPastes[(round * 53) % 300]!];
          for (const id of victims) gone.add(id);
          await app.core.deleteFile.execute({ actor, id: victims[0]! }).catch(() => undefined);
          await app.core.deletePaste.execute({ actor, id: victims[1]! }).catch(() => undefined);
          if (previous.length > 0) {
            await app.core.deleteFile.execute({ actor, id: previous[0]! });
            await app.core.deletePaste.execute({ actor, id: previous[1]! });
          }
          previous = fresh;
        }
        return round;
      };
      const walks = Promise.all([walkRoot(token, 20), walkLinks(token, '/api/paste?limit=20')]).finally(() => {
        walking = false;
      });
      const [[root, pastes], rounds] = await Promise.all([walks, churn()]);
      expect(rounds).toBeGreaterThan(1);

      const files = root.flatMap((p) => p.files);
      const pasteIds = pastes.flat();
      for (const [seen, initial] of [[files, initialFiles], [pasteIds, initialPastes]] as const) {
        expect(seen.length).toBe(new Set(seen).size);
        const stayed = initial.filter((id) => !gone.has(id));
        expect(stayed.length).toBeGreaterThan(150);
        expect(stayed.filter((id) => !seen.includes(id))).toEqual([]);
      }
    }, 120_000);

    it('answers a malformed or hostile limit or cursor with 400 bad_request, never more', async () => {
      const { actor, token } = await user('prober');
      await app.core.createPaste.execute({ actor, content: 'x' });
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const pasteCursor = encode(['pastes', Date.parse('2026-11-22T10:00:00.000Z'), 'some-id']);
      const limits = ['0', '-1', '1001', '1000000000000', '1.5', '1e3', 'abc', '', ' 5', '0010', '0x10', '%00', 'NaN'];
      const cursors = [
        '', '!!!', '../../etc/passwd', 'a', 'A'.repeat(5000), `${pasteCursor}=`, `${pasteCursor}.`, '%00', '%FF%FE',
        Buffer.from('not json').toString('base64url'), Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
        encode({ $gt: '' }), encode(['pastes', { $gt: 0 }, 'x']), encode(['pastes', 1, { $ne: null }]),
        encode(['pastes', 1, '']), encode(['pastes', 1, 'x'.repeat(129)]), encode(['pastes', 1e20, 'x']),
        encode(['pastes', 1.5, 'x']), encode(['pastes', '1', 'x']), encode(['pastes', 1, 'x', 'extra']), encode([]),
        encode(['folders']), encode(['files', 'a']), encode(['folders', { $regex: '.*' }, 'x']), encode(['files', 'a', 7]),
        encode(['folders', '\ud800', 'x']), encode(['folders', 'a'.repeat(2000), 'x']), encode(null), encode('pastes'),
        Buffer.from('["pastes", 1, "x"]').toString('base64url'),
      ];
      for (const route of ['folder', 'paste', 'collection', 'token']) {
        const probes = [
          ...limits.map((limit) => `limit=${limit}`),
          ...cursors.map((cursor) => `cursor=${encodeURIComponent(cursor)}`),
          'limit=1&limit=2',
          'cursor=a&cursor=b',
        ];
        // A cursor of one listing is not a cursor of another.
        if (route !== 'paste') probes.push(`cursor=${pasteCursor}`);
        if (route === 'paste') probes.push(`cursor=${encode(['collections', 1, 'x'])}`, `cursor=${encode(['files'])}`);
        for (const query of probes) {
          const reply = await call('GET', `/api/${route}?${query}`, token);
          expect([route, query, reply.status, reply.body?.error]).toEqual([route, query, 400, 'bad_request']);
          expect(reply.headers.get('link')).toBeNull();
        }
      }
      // The largest limit, a real cursor, and parameters no route knows are all fine.
      expect((await call('GET', '/api/paste?limit=1000', token)).status).toBe(200);
      expect((await call('GET', `/api/paste?cursor=${pasteCursor}`, token)).status).toBe(200);
      expect((await call('GET', '/api/paste?page=3&sort=name', token)).body).toHaveLength(1);
    });

    it('keeps the spec’s listings whole and free of query parameters', async () => {
      const { actor, token } = await user('specced');
      const admin = await signUp(app, 'chief', 'admin');
      const top = await app.core.createFolder.execute({ actor, name: 'top', parentId: null });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const inner = await app.core.uploadFile.execute({
          actor, folderId: top.id, name: `in${i}.txt`, filename: 'x', mime: 'text/plain', content: bytes('x'),
        });
        ids.push(inner.id);
        await app.core.createShare.execute({ actor, type: 'file', id: inner.id });
      }
      const hostile = 'limit=1&cursor=%21%21%21';
      const shares = await call('GET', `/api/share?${hostile}`, token);
      expect([shares.status, shares.body.length, shares.headers.get('link')]).toEqual([200, 3, null]);
      const folder = await call('GET', `/api/folder/${top.id}?${hostile}`, token);
      expect([folder.status, folder.body.files.length, 'nextCursor' in folder.body]).toEqual([200, 3, false]);
      const search = await call('POST', `/api/search?${hostile}`, token, { query: 'in' });
      expect([search.status, search.body.files.length, 'nextCursor' in search.body]).toEqual([200, 3, false]);
      const users = await call('GET', `/api/admin/users?${hostile}`, admin.token);
      expect(users.status).toBe(200);
      expect(users.body.length).toBeGreaterThanOrEqual(2);
      expect(users.headers.get('link')).toBeNull();
    });
  });
}
