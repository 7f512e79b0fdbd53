import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Core, type PageRequest } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, failure, makeCore, signUp } from '../support/core.js';
import { asUploader } from './fixtures.js';

async function setup() {
  const ctx = makeCore({ limits: { files: 50, folders: 50, pastes: 50 } });
  const alice = (await signUp(ctx, 'alice')).actor;
  return { ...ctx, alice };
}

const put = (core: Core, actor: Actor, name: string) =>
  core.uploadFile.execute({ actor, folderId: null, name, filename: name, mime: 'text/plain', content: bytes('x') });

/** Every page of the root from the first, as [folder names, file names] per page. */
async function rootPages(core: Core, actor: Actor, limit: number) {
  const pages: Array<[string[], string[]]> = [];
  let cursor: string | null = null;
  do {
    const page = await core.listRoot.execute({ actor, limit, cursor });
    pages.push([page.folders.map((f) => f.name), page.files.map((f) => f.name)]);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 100);
  return pages;
}

describe('paged listings in the core', () => {
  it('defaults to one page of 1000 and allows at most 1000', () => {
    expect([DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE]).toEqual([1000, 1000]);
  });

  it('refuses a limit outside 1 to 1000 and a cursor it did not write, for embedding hosts as for HTTP', async () => {
    const { core, alice } = await setup();
    const listings: Array<(page: PageRequest) => Promise<unknown>> = [
      (page) => core.listRoot.execute({ actor: alice, ...page }),
      (page) => core.listPastes.execute({ actor: alice, ...page }),
      (page) => core.listCollections.execute({ actor: alice, ...page }),
      (page) => core.listApiTokens.execute({ actor: alice, ...page }),
    ];
    for (const list of listings) {
      for (const limit of [0, -1, 1001, 1.5, Number.NaN, Infinity]) {
        expect(await failure(list({ limit }))).toMatchObject({ code: 'bad_request', details: { field: 'limit' } });
      }
      for (const cursor of ['', '***', 'W10', 'eyJhIjoxfQ']) {
        expect(await failure(list({ cursor }))).toMatchObject({ code: 'bad_request', details: { field: 'cursor' } });
      }
      await expect(list({ limit: 1000, cursor: null })).resolves.toBeDefined();
    }
  });

  it('checks the right before the parameters: an API token is forbidden whatever it sends', async () => {
    const { core, alice } = await setup();
    const uploader = asUploader(alice);
    expect((await failure(core.listRoot.execute({ actor: uploader, limit: 0 }))).code).toBe('forbidden');
    expect((await failure(core.listPastes.execute({ actor: uploader, cursor: '***' }))).code).toBe('forbidden');
  });

  it('lists an empty root as one last page', async () => {
    const { core, alice } = await setup();
    expect(await core.listRoot.execute({ actor: alice })).toEqual({ files: [], folders: [], nextCursor: null });
  });

  it('walks the root folders first, then files, across the boundary at any page size', async () => {
    const { core, alice } = await setup();
    for (const name of ['b', 'A', 'c']) await core.createFolder.execute({ actor: alice, name, parentId: null });
    for (const name of ['z.txt', 'x.txt', 'Y.txt']) await put(core, alice, name);
    expect(await rootPages(core, alice, 1)).toEqual([
      [['A'], []], [['b'], []], [['c'], []], [[], ['x.txt']], [[], ['Y.txt']], [[], ['z.txt']],
    ]);
    expect(await rootPages(core, alice, 3)).toEqual([[['A', 'b', 'c'], []], [[], ['x.txt', 'Y.txt', 'z.txt']]]);
    expect(await rootPages(core, alice, 4)).toEqual([[['A', 'b', 'c'], ['x.txt']], [[], ['Y.txt', 'z.txt']]]);
    expect(await rootPages(core, alice, 6)).toEqual([[['A', 'b', 'c'], ['x.txt', 'Y.txt', 'z.txt']]]);
  });

  it('goes on after the position a cursor names even when that item is gone or renamed', async () => {
    const { core, alice } = await setup();
    const files = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) files.push(await put(core, alice, name));
    const first = await core.listRoot.execute({ actor: alice, limit: 2 });
    expect(first.files.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    await core.deleteFile.execute({ actor: alice, id: files[1]!.id });
    await core.updateFile.execute({ actor: alice, id: files[0]!.id, name: 'e.txt' });
    const rest = await core.listRoot.execute({ actor: alice, limit: 2, cursor: first.nextCursor });
    expect([rest.files.map((f) => f.name), rest.nextCursor]).toEqual([['c.txt', 'd.txt'], expect.any(String)]);
    const last = await core.listRoot.execute({ actor: alice, limit: 2, cursor: rest.nextCursor });
    expect([last.files.map((f) => f.name), last.nextCursor]).toEqual([['e.txt'], null]);
  });

  it('refuses the cursor of one listing on another', async () => {
    const { core, alice } = await setup();
    for (let i = 0; i < 2; i++) {
      await core.createPaste.execute({ actor: alice, content: `p${i}` });
      await core.createCollection.execute({ actor: alice, name: `c${i}` });
      await core.createFolder.execute({ actor: alice, name: `f${i}`, parentId: null });
    }
    const paste = (await core.listPastes.execute({ actor: alice, limit: 1 })).nextCursor!;
    const collection = (await core.listCollections.execute({ actor: alice, limit: 1 })).nextCursor!;
    const root = (await core.listRoot.execute({ actor: alice, limit: 1 })).nextCursor!;
    expect((await core.listPastes.execute({ actor: alice, limit: 1, cursor: paste })).items).toHaveLength(1);
    expect((await failure(core.listPastes.execute({ actor: alice, cursor: collection }))).code).toBe('bad_request');
    expect((await failure(core.listCollections.execute({ actor: alice, cursor: root }))).code).toBe('bad_request');
    expect((await failure(core.listRoot.execute({ actor: alice, cursor: paste }))).code).toBe('bad_request');
    expect((await failure(core.listApiTokens.execute({ actor: alice, cursor: paste }))).code).toBe('bad_request');
  });
});
