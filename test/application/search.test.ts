import { describe, expect, it } from 'vitest';
import type { Core } from '../../src/application/index.js';
import { SEARCH_LIMIT } from '../../src/application/search/search.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, makeCore, signUp } from '../support/core.js';

const mkdir = (core: Core, actor: Actor, name: string, parentId: string | null = null) =>
  core.createFolder.execute({ actor, name, parentId });

const put = (core: Core, actor: Actor, name: string, folderId: string | null) =>
  core.uploadFile.execute({ actor, folderId, name, filename: name, mime: undefined, content: bytes('x') });

const names = (items: { name: string }[]) => items.map((i) => i.name);

async function setup() {
  const ctx = makeCore({ limits: { files: 2000 } });
  const alice = (await signUp(ctx, 'alice')).actor;
  const bob = (await signUp(ctx, 'bob')).actor;
  const { core } = ctx;
  // Reports/{Q1 report.pdf, Archive/{old REPORT.txt, Sub report/}}, report-top.txt; bob has report-bob.txt
  const reports = await mkdir(core, alice, 'Reports');
  const archive = await mkdir(core, alice, 'Archive', reports.id);
  await mkdir(core, alice, 'Sub report', archive.id);
  await put(core, alice, 'Q1 report.pdf', reports.id);
  await put(core, alice, 'old REPORT.txt', archive.id);
  await put(core, alice, 'report-top.txt', null);
  await put(core, alice, 'notes.md', null);
  await put(core, bob, 'report-bob.txt', null);
  return { ...ctx, alice, bob, reports, archive };
}

describe('search', () => {
  it('matches a substring without regard to case across the whole account, never another user', async () => {
    const { core, alice } = await setup();
    const result = await core.search.execute({ actor: alice, query: '  RePoRt ', folderId: null, recursive: false });
    expect(names(result.files)).toEqual(['old REPORT.txt', 'Q1 report.pdf', 'report-top.txt']);
    expect(names(result.folders)).toEqual(['Reports', 'Sub report']);
  });

  it('treats the query literally and an empty query as everything', async () => {
    const { core, alice } = await setup();
    expect((await core.search.execute({ actor: alice, query: '.*', folderId: null, recursive: false })).files).toEqual([]);
    const all = await core.search.execute({ actor: alice, query: '', folderId: null, recursive: false });
    expect(all.files).toHaveLength(4);
    expect(all.folders).toHaveLength(3);
  });

  it('searches only the direct children of a folder unless recursive', async () => {
    const { core, alice, reports } = await setup();
    const direct = await core.search.execute({ actor: alice, query: 'report', folderId: reports.id, recursive: false });
    expect(names(direct.files)).toEqual(['Q1 report.pdf']);
    expect(direct.folders).toEqual([]);
    const deep = await core.search.execute({ actor: alice, query: 'report', folderId: reports.id, recursive: true });
    expect(names(deep.files)).toEqual(['old REPORT.txt', 'Q1 report.pdf']);
    expect(names(deep.folders)).toEqual(['Sub report']);
  });

  it('returns folders as hits with their direct counts and share ids, and files with share ids', async () => {
    const { core, alice, reports, archive } = await setup();
    const share = await core.createShare.execute({ actor: alice, type: 'folder', id: archive.id, password: null });
    const result = await core.search.execute({ actor: alice, query: 'archive', folderId: reports.id, recursive: false });
    expect(result.folders).toEqual([
      expect.objectContaining({ id: archive.id, fileCount: 1, folderCount: 1, files: [], folders: [], shareId: share.id }),
    ]);
  });

  it('names the folders each hit sits in, from the top level down, also for a search inside a folder', async () => {
    const { core, alice, reports, archive } = await setup();
    const path = (items: { name: string; path: { id: string; name: string }[] }[]) =>
      Object.fromEntries(items.map((i) => [i.name, i.path.map((step) => step.name).join(' / ')]));
    const all = await core.search.execute({ actor: alice, query: 'report', folderId: null, recursive: false });
    expect(path(all.files)).toEqual({ 'old REPORT.txt': 'Reports / Archive', 'Q1 report.pdf': 'Reports', 'report-top.txt': '' });
    expect(path(all.folders)).toEqual({ Reports: '', 'Sub report': 'Reports / Archive' });
    expect(all.files[0]?.path).toEqual([
      { id: reports.id, name: 'Reports' },
      { id: archive.id, name: 'Archive' },
    ]);
    const inside = await core.search.execute({ actor: alice, query: 'report', folderId: archive.id, recursive: true });
    expect(path(inside.files)).toEqual({ 'old REPORT.txt': 'Reports / Archive' });
    // A rename shows in the next search.
    await core.updateFolder.execute({ actor: alice, id: reports.id, name: 'Old reports' });
    const renamed = await core.search.execute({ actor: alice, query: 'q1', folderId: null, recursive: false });
    expect(path(renamed.files)).toEqual({ 'Q1 report.pdf': 'Old reports' });
  });

  it('looks the paths up level by level, one query per level for all hits together', async () => {
    const ctx = makeCore();
    const alice = (await signUp(ctx, 'alice')).actor;
    let parent: string | null = null;
    for (let depth = 0; depth < 4; depth++) parent = (await mkdir(ctx.core, alice, `level-${depth}`, parent)).id;
    for (let i = 0; i < 20; i++) await put(ctx.core, alice, `deep-${i}.txt`, parent);
    const findMany = ctx.ports.folders.findMany.bind(ctx.ports.folders);
    let calls = 0;
    ctx.ports.folders.findMany = (ownerId, ids) => ((calls += 1), findMany(ownerId, ids));
    const result = await ctx.core.search.execute({ actor: alice, query: 'deep', folderId: null, recursive: false });
    expect(result.files).toHaveLength(20);
    expect(result.files.every((f) => f.path.map((s) => s.name).join('/') === 'level-0/level-1/level-2/level-3')).toBe(true);
    expect(calls).toBe(4);
  });

  it('answers not_found for a foreign or unknown folder, and forbids uploader tokens', async () => {
    const { core, alice, bob, reports } = await setup();
    await expect(core.search.execute({ actor: bob, query: '', folderId: reports.id, recursive: false })).rejects.toMatchObject(
      { code: 'not_found' },
    );
    await expect(core.search.execute({ actor: alice, query: '', folderId: 'nope', recursive: true })).rejects.toMatchObject({
      code: 'not_found',
    });
    const { token } = await core.createApiToken.execute({ actor: alice, name: 'ci' });
    const uploader = await core.authenticate.execute({ token });
    await expect(core.search.execute({ actor: uploader, query: '', folderId: null, recursive: false })).rejects.toMatchObject(
      { code: 'forbidden' },
    );
  });

  it('refuses an overlong query', async () => {
    const { core, alice } = await setup();
    await expect(
      core.search.execute({ actor: alice, query: 'a'.repeat(257), folderId: null, recursive: false }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    await core.search.execute({ actor: alice, query: 'a'.repeat(256), folderId: null, recursive: false });
  });

  it(`returns at most ${SEARCH_LIMIT} files, the first by name`, async () => {
    const { core, alice } = await setup();
    const folder = await mkdir(core, alice, 'many');
    for (let i = 0; i < SEARCH_LIMIT + 5; i++) await put(core, alice, `hit-${String(i).padStart(4, '0')}`, folder.id);
    const result = await core.search.execute({ actor: alice, query: 'HIT', folderId: null, recursive: false });
    expect(result.files).toHaveLength(SEARCH_LIMIT);
    expect(result.files[0]?.name).toBe('hit-0000');
    expect(result.files.at(-1)?.name).toBe(`hit-${String(SEARCH_LIMIT - 1).padStart(4, '0')}`);
  });
});
