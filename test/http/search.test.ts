import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
let docs: string;
let deep: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
  docs = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'Docs' } })).body.id;
  deep = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'report-archive', parentId: docs } }))
    .body.id;
  await t.upload(alice, 'a', { filename: 'Report.txt', folderId: docs });
  await t.upload(alice, 'b', { filename: 'old-report.txt', folderId: deep });
  await t.upload(alice, 'c', { filename: 'other.txt' });
});

const search = (json: unknown, token = alice) => t.request('POST', '/api/search', { token, json });
const names = (items: Array<{ name: string }>) => items.map((i) => i.name).sort();

describe('POST /api/search', () => {
  it('matches names case-insensitively across the account by default', async () => {
    const res = await search({ query: 'REPORT' });
    expect(res.status).toBe(200);
    expect(names(res.body.files)).toEqual(['Report.txt', 'old-report.txt']);
    expect(names(res.body.folders)).toEqual(['report-archive']);
    expect(Number.isInteger(res.body.folders[0].fileCount)).toBe(true);
  });

  it('names the folders that hold each hit, from the top level down', async () => {
    const res = await search({ query: 'report' });
    const where = (items: Array<{ name: string; path: unknown }>) => Object.fromEntries(items.map((i) => [i.name, i.path]));
    expect(where(res.body.files)).toEqual({
      'Report.txt': [{ id: docs, name: 'Docs' }],
      'old-report.txt': [{ id: docs, name: 'Docs' }, { id: deep, name: 'report-archive' }],
    });
    expect(where(res.body.folders)).toEqual({ 'report-archive': [{ id: docs, name: 'Docs' }] });
    expect((await search({ query: 'other' })).body.files[0].path).toEqual([]);
  });

  it('scopes to direct children of folderId, or the subtree with recursive: true', async () => {
    const direct = await search({ query: 'report', folderId: docs });
    expect(names(direct.body.files)).toEqual(['Report.txt']);
    const nested = await search({ query: 'report', folderId: docs, recursive: true });
    expect(names(nested.body.files)).toEqual(['Report.txt', 'old-report.txt']);
    expect((await search({ query: 'report', folderId: null })).body.files).toHaveLength(2);
  });

  it('answers 400 on a missing query or wrong types, 404 for a foreign folder, 401 and 403', async () => {
    for (const json of [{}, { query: 1 }, { query: 'x', recursive: 'yes' }, { query: 'x', folderId: 3 }]) {
      expect((await search(json)).status, JSON.stringify(json)).toBe(400);
    }
    const bob = await t.userToken('bob');
    expect((await search({ query: 'x', folderId: docs }, bob)).status).toBe(404);
    expect((await t.request('POST', '/api/search', { json: { query: 'x' } })).status).toBe(401);
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
    expect((await search({ query: 'x' }, api)).status).toBe(403);
  });

  it('never returns another user items', async () => {
    const bob = await t.userToken('bob');
    expect(await search({ query: 'report' }, bob).then((r) => r.body)).toEqual({ files: [], folders: [] });
  });
});
