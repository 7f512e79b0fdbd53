import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import type { ShareView } from '../../src/application/index.js';
import { makeCore, readAll, signUp } from '../support/core.js';
import { asUploader, storeFile, tally } from './fixtures.js';

type Ctx = ReturnType<typeof makeCore>;
const ITEM_KEYS = ['file', 'folder', 'collection', 'paste'] as const;
const itemKeys = (view: ShareView) => ITEM_KEYS.filter((key) => key in view);

describe('shares', () => {
  let ctx: Ctx;
  let alice: Actor;
  let bob: Actor;

  async function setUp(options: Parameters<typeof makeCore>[0] = {}) {
    ctx = makeCore(options);
    alice = (await signUp(ctx, 'alice')).actor;
    bob = (await signUp(ctx, 'bob')).actor;
  }
  beforeEach(() => setUp());

  const usage = (actor: Actor) => ctx.ports.usage.get(actor.userId);
  const paste = (actor: Actor, content = 'some text') => ctx.core.createPaste.execute({ actor, content, name: 'p' });
  const share = (actor: Actor, type: string, id: string, password: string | null = null) =>
    ctx.core.createShare.execute({ actor, type, id, password });
  const read = (id: string, password: string | null = null, actor: Actor | null = null) =>
    ctx.core.getShare.execute({ actor, id, password });

  describe('create', () => {
    it('shares a file with exactly the file object', async () => {
      const f = await storeFile(ctx.ports, alice.userId, 'photo.png', 'PNG!', { mime: 'image/png' });
      const view = await share(alice, 'file', f.id);
      expect(view).toEqual({
        id: view.id,
        ownerId: alice.userId,
        type: 'file',
        createdAt: '2026-11-22T10:00:00.000Z',
        expiresAt: null,
        views: 0,
        maxViews: null,
        downloads: 0,
        maxDownloads: null,
        state: 'active',
        protected: false,
        owner: { id: alice.userId, username: 'alice' },
        file: { id: f.id, name: 'photo.png', size: '4', mime: 'image/png' },
      });
      expect(view.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect((await usage(alice)).shares).toBe(1);
    });

    it('shares a folder with the counts of its direct children only', async () => {
      const top = await ctx.core.createFolder.execute({ actor: alice, name: 'top', parentId: null });
      const sub = await ctx.core.createFolder.execute({ actor: alice, name: 'sub', parentId: top.id });
      await ctx.core.createFolder.execute({ actor: alice, name: 'deeper', parentId: sub.id });
      await storeFile(ctx.ports, alice.userId, 'a.txt', 'a', { folderId: top.id });
      await storeFile(ctx.ports, alice.userId, 'b.txt', 'b', { folderId: top.id });
      await storeFile(ctx.ports, alice.userId, 'c.txt', 'c', { folderId: sub.id });
      const view = await share(alice, 'folder', top.id);
      expect(itemKeys(view)).toEqual(['folder']);
      expect(view.folder).toEqual({ id: top.id, name: 'top', fileCount: 2, folderCount: 1 });
    });

    it('shares a collection counting only files that still exist', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'album' });
      const f1 = await storeFile(ctx.ports, alice.userId, 'a.txt', 'a');
      const f2 = await storeFile(ctx.ports, alice.userId, 'b.txt', 'b');
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f1.id });
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f2.id });
      const view = await share(alice, 'collection', c.id);
      expect(itemKeys(view)).toEqual(['collection']);
      expect(view.collection).toEqual({ id: c.id, name: 'album', fileCount: 2 });
      await ctx.ports.files.delete(f1.id);
      expect((await read(view.id)).collection!.fileCount).toBe(1);
    });

    it('shares a paste with its content', async () => {
      const p = await ctx.core.createPaste.execute({ actor: alice, content: 'x = 1', type: 'python', name: 'snippet' });
      const view = await share(alice, 'paste', p.id);
      expect(itemKeys(view)).toEqual(['paste']);
      expect(view.paste).toEqual({ id: p.id, name: 'snippet', type: 'python', content: 'x = 1' });
    });

    it('refuses an unknown type, a missing or foreign item and a too long password', async () => {
      const p = await paste(alice);
      const bobs = await paste(bob);
      await expect(share(alice, 'album', p.id)).rejects.toMatchObject({ code: 'bad_request', details: { field: 'type' } });
      await expect(share(alice, 'paste', 'nope')).rejects.toMatchObject({ code: 'not_found' });
      await expect(share(alice, 'paste', bobs.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(share(alice, 'file', p.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(share(alice, 'paste', p.id, 'x'.repeat(257))).rejects.toMatchObject({
        code: 'bad_request',
        details: { field: 'password' },
      });
      expect((await usage(alice)).shares).toBe(0);
      expect(await ctx.ports.shares.listByOwner(alice.userId)).toEqual([]);
    });

    it('refuses a second share of the same item as a conflict, counting nothing', async () => {
      const p = await paste(alice);
      const first = await share(alice, 'paste', p.id);
      await expect(share(alice, 'paste', p.id, 'pw')).rejects.toMatchObject({ code: 'conflict' });
      expect((await usage(alice)).shares).toBe(1);
      expect((await ctx.ports.shares.listByOwner(alice.userId)).map((s) => s.id)).toEqual([first.id]);
    });

    it('settles concurrent shares of one item on exactly one', async () => {
      const p = await paste(alice);
      const { ok, codes } = await tally(Array.from({ length: 10 }, () => share(alice, 'paste', p.id)));
      expect(ok).toHaveLength(1);
      expect(codes).toEqual(Array(9).fill('conflict'));
      expect((await usage(alice)).shares).toBe(1);
    });

    it('stops at the share maximum with limit_reached naming shares', async () => {
      await setUp({ limits: { shares: 2 } });
      const pastes = [await paste(alice, '1'), await paste(alice, '2'), await paste(alice, '3')];
      await share(alice, 'paste', pastes[0]!.id);
      await share(alice, 'paste', pastes[1]!.id);
      await expect(share(alice, 'paste', pastes[2]!.id)).rejects.toMatchObject({
        code: 'limit_reached',
        details: { limit: 'shares' },
      });
      // At the maximum, sharing an already shared item still says why it cannot be done.
      await expect(share(alice, 'paste', pastes[0]!.id)).rejects.toMatchObject({ code: 'conflict' });
      expect((await usage(alice)).shares).toBe(2);
      expect(await ctx.ports.shares.listByOwner(alice.userId)).toHaveLength(2);
    });

    it('lets exactly as many concurrent creates through as there is room for', async () => {
      await setUp({ limits: { shares: 5 } });
      const pastes = await Promise.all(Array.from({ length: 20 }, (_, i) => paste(alice, `p${i}`)));
      const { ok, codes } = await tally(pastes.map((p) => share(alice, 'paste', p.id)));
      expect(ok).toHaveLength(5);
      expect(codes).toEqual(Array(15).fill('limit_reached'));
      expect((await usage(alice)).shares).toBe(5);
      expect(await ctx.ports.shares.listByOwner(alice.userId)).toHaveLength(5);
    });

    it('is allowed to an uploader token, which cannot list shares', async () => {
      const uploader = asUploader(alice);
      const p = await paste(uploader);
      const view = await share(uploader, 'paste', p.id);
      expect(view.ownerId).toBe(alice.userId);
      await expect(ctx.core.listShares.execute({ actor: uploader })).rejects.toMatchObject({ code: 'forbidden' });
      await expect(ctx.core.updateShare.execute({ actor: uploader, id: view.id, password: 'x' })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(ctx.core.deleteShare.execute({ actor: uploader, id: view.id })).rejects.toMatchObject({
        code: 'forbidden',
      });
    });
  });

  describe('read', () => {
    it('counts an open file share once per read, and takes the view back when its item turns out gone', async () => {
      const f = await storeFile(ctx.ports, alice.userId, 'a.txt', 'A');
      const s = await share(alice, 'file', f.id);
      expect((await read(s.id, null, bob)).views).toBe(1);
      expect((await read(s.id)).views).toBe(2);
      // The record goes without its share (as a crash between the two deletes would leave it).
      await ctx.ports.files.delete(f.id);
      await expect(read(s.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(read(s.id, null, bob)).rejects.toMatchObject({ code: 'not_found' });
      expect((await ctx.ports.shares.findById(s.id))!.views).toBe(2);
    });

    it("shows the owner's name kept on the share, and looks it up for a share made before it was kept", async () => {
      const f = await storeFile(ctx.ports, alice.userId, 'a.txt', 'A');
      const s = await share(alice, 'file', f.id);
      expect((await ctx.ports.shares.findById(s.id))!.ownerName).toBe('alice');
      const legacy = { ...(await ctx.ports.shares.findById(s.id))!, id: 'legacy-share-id-0000000', itemId: 'x' };
      delete legacy.ownerName;
      await ctx.ports.shares.delete(s.id);
      await ctx.ports.shares.insert({ ...legacy, itemId: f.id });
      expect((await read(legacy.id, null, bob)).owner).toEqual({ id: alice.userId, username: 'alice' });
    });

    it('is public and counts each successful read', async () => {
      const s = await share(alice, 'paste', (await paste(alice)).id);
      expect((await read(s.id)).views).toBe(1);
      expect((await read(s.id, null, bob)).views).toBe(2);
      expect((await ctx.ports.shares.findById(s.id))!.views).toBe(2);
      await expect(read('nope')).rejects.toMatchObject({ code: 'not_found' });
    });

    it('asks for the password of a protected share and counts only the reads that pass', async () => {
      const s = await share(alice, 'paste', (await paste(alice)).id, 'open sesame');
      expect(s.protected).toBe(true);
      await expect(read(s.id)).rejects.toMatchObject({ code: 'share_password_required' });
      await expect(read(s.id, '')).rejects.toMatchObject({ code: 'share_password_required' });
      await expect(read(s.id, 'wrong')).rejects.toMatchObject({ code: 'share_password_invalid' });
      await expect(read(s.id, null, bob)).rejects.toMatchObject({ code: 'share_password_required' });
      await expect(read(s.id, null, asUploader(alice))).rejects.toMatchObject({ code: 'share_password_required' });
      expect((await read(s.id, 'open sesame')).views).toBe(1);
      // The owner's own read needs no password and uses up nothing.
      expect((await read(s.id, null, alice)).views).toBe(1);
      expect((await ctx.ports.shares.findById(s.id))!.views).toBe(1);
    });

    it('treats a share whose item is gone as not found, and lists without it', async () => {
      const p = await paste(alice);
      const kept = await share(alice, 'paste', (await paste(alice, 'kept')).id);
      const s = await share(alice, 'paste', p.id);
      await ctx.ports.pastes.delete(p.id);
      await expect(read(s.id)).rejects.toMatchObject({ code: 'not_found' });
      expect((await ctx.ports.shares.findById(s.id))!.views).toBe(0);
      expect((await ctx.core.listShares.execute({ actor: alice })).map((v) => v.id)).toEqual([kept.id]);
    });

    it("a folder's page counts the view only for a folder the share reaches, now, not when it was linked", async () => {
      const mkdir = (name: string, parentId: string | null) =>
        ctx.core.createFolder.execute({ actor: alice, name, parentId });
      const top = await mkdir('top', null);
      const sub = await mkdir('sub', top.id);
      const elsewhere = await mkdir('elsewhere', null);
      const s = await share(alice, 'folder', top.id);
      const page = (folderId: string) => ctx.core.getShare.execute({ actor: null, id: s.id, password: null, folderId });
      expect((await page(sub.id)).views).toBe(1);
      expect((await page(top.id)).views).toBe(2);
      await expect(page(elsewhere.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(page('AAAAAAAAAAAAAAAAAAAAAA')).rejects.toMatchObject({ code: 'not_found' });
      // Moved out of the shared folder: its old link leads nowhere; and the archive of it is refused the same way.
      await ctx.core.updateFolder.execute({ actor: alice, id: sub.id, parentId: elsewhere.id });
      await expect(page(sub.id)).rejects.toMatchObject({ code: 'not_found' });
      const archive = ctx.core.openShareArchive.execute({ actor: null, id: s.id, password: null, folderId: sub.id });
      await expect(archive).rejects.toMatchObject({ code: 'not_found' });
      expect(await ctx.ports.shares.findById(s.id)).toMatchObject({ views: 2, downloads: 0 });
    });

    it("lists the caller's shares only, with their view counts", async () => {
      const a = await share(alice, 'paste', (await paste(alice)).id);
      await share(bob, 'paste', (await paste(bob)).id);
      await read(a.id);
      const list = await ctx.core.listShares.execute({ actor: alice });
      expect(list.map((v) => [v.id, v.views])).toEqual([[a.id, 1]]);
    });
  });

  describe('update and delete', () => {
    it('sets and clears the password without counting a view', async () => {
      const s = await share(alice, 'paste', (await paste(alice)).id);
      const locked = await ctx.core.updateShare.execute({ actor: alice, id: s.id, password: 'secret' });
      expect(locked).toMatchObject({ protected: true, views: 0 });
      await expect(read(s.id)).rejects.toMatchObject({ code: 'share_password_required' });
      expect((await read(s.id, 'secret')).views).toBe(1);
      expect((await ctx.core.updateShare.execute({ actor: alice, id: s.id, password: null })).protected).toBe(false);
      await ctx.core.updateShare.execute({ actor: alice, id: s.id, password: 'again' });
      const cleared = await ctx.core.updateShare.execute({ actor: alice, id: s.id, password: '' });
      expect(cleared).toMatchObject({ protected: false, views: 1 });
      expect((await read(s.id)).views).toBe(2);
    });

    it("refuses to update someone else's or a missing share, or to a too long password", async () => {
      const s = await share(alice, 'paste', (await paste(alice)).id);
      await expect(ctx.core.updateShare.execute({ actor: bob, id: s.id, password: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(ctx.core.updateShare.execute({ actor: alice, id: 'nope', password: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(
        ctx.core.updateShare.execute({ actor: alice, id: s.id, password: 'x'.repeat(257) }),
      ).rejects.toMatchObject({ code: 'bad_request' });
      expect((await ctx.ports.shares.findById(s.id))!.passwordHash).toBeNull();
    });

    it('deletes the link but not the item, and releases the count once', async () => {
      const p = await paste(alice);
      const s = await share(alice, 'paste', p.id);
      await expect(ctx.core.deleteShare.execute({ actor: bob, id: s.id })).rejects.toMatchObject({ code: 'not_found' });
      await ctx.core.deleteShare.execute({ actor: alice, id: s.id });
      await expect(read(s.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(ctx.core.deleteShare.execute({ actor: alice, id: s.id })).rejects.toMatchObject({
        code: 'not_found',
      });
      expect(await ctx.ports.pastes.findById(p.id)).not.toBeNull();
      expect((await usage(alice)).shares).toBe(0);
      expect((await share(alice, 'paste', p.id)).views).toBe(0);
    });

    it('goes away with its item', async () => {
      const p = await paste(alice);
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const ps = await share(alice, 'paste', p.id);
      const cs = await share(alice, 'collection', c.id);
      await ctx.core.deletePaste.execute({ actor: alice, id: p.id });
      await ctx.core.deleteCollection.execute({ actor: alice, id: c.id });
      await expect(read(ps.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(read(cs.id)).rejects.toMatchObject({ code: 'not_found' });
      expect((await usage(alice)).shares).toBe(0);
    });
  });

  describe('content', () => {
    const open = (id: string, password: string | null = null, actor: Actor | null = null) =>
      ctx.core.openShareContent.execute({ actor, id, password });

    it("serves a shared file's bytes and ranges without counting a view", async () => {
      const f = await storeFile(ctx.ports, alice.userId, 'notes.txt', 'hello world');
      const s = await share(alice, 'file', f.id);
      const content = await open(s.id);
      expect(content).toMatchObject({
        name: 'notes.txt',
        mime: 'text/plain',
        size: 11,
        etag: `"${f.id}"`,
        disposition: 'inline',
        active: false,
      });
      expect(content.lastModified.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      expect((await readAll(await content.open())).toString()).toBe('hello world');
      expect((await readAll(await content.open({ start: 6, end: 10 }))).toString()).toBe('world');
      expect((await ctx.ports.shares.findById(s.id))!.views).toBe(0);
    });

    it('serves active content as a sandboxed attachment', async () => {
      const f = await storeFile(ctx.ports, alice.userId, 'page.html', '<script>', { mime: 'text/html' });
      const content = await open((await share(alice, 'file', f.id)).id);
      expect(content).toMatchObject({ disposition: 'attachment', active: true });
    });

    it("serves a paste's text as UTF-8, with byte ranges", async () => {
      const p = await paste(alice, 'añb€');
      const s = await share(alice, 'paste', p.id);
      const content = await open(s.id);
      expect(content).toMatchObject({
        mime: 'text/plain',
        charset: 'utf-8',
        size: 7,
        disposition: 'inline',
        active: false,
        etag: `"${p.id}-${Date.parse(p.updatedAt)}"`,
      });
      expect((await readAll(await content.open())).toString('utf8')).toBe('añb€');
      expect((await readAll(await content.open({ start: 1, end: 2 }))).toString('utf8')).toBe('ñ');
      expect((await readAll(await content.open({ start: 4, end: 6 }))).toString('utf8')).toBe('€');
    });

    it('has no content for folder and collection shares', async () => {
      const folder = await ctx.core.createFolder.execute({ actor: alice, name: 'f', parentId: null });
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      await expect(open((await share(alice, 'folder', folder.id)).id)).rejects.toMatchObject({ code: 'bad_request' });
      await expect(open((await share(alice, 'collection', c.id)).id)).rejects.toMatchObject({ code: 'bad_request' });
    });

    it('needs the password of a protected share, unless the owner asks', async () => {
      const p = await paste(alice, 'secret');
      const s = await share(alice, 'paste', p.id, 'pw');
      await expect(open(s.id)).rejects.toMatchObject({ code: 'share_password_required' });
      await expect(open(s.id, 'nope')).rejects.toMatchObject({ code: 'share_password_invalid' });
      expect((await readAll(await (await open(s.id, 'pw')).open())).toString()).toBe('secret');
      expect((await open(s.id, null, alice)).size).toBe(6);
      await expect(open('missing')).rejects.toMatchObject({ code: 'not_found' });
    });

    it('is not found once the shared file is gone', async () => {
      const f = await storeFile(ctx.ports, alice.userId, 'x.txt', 'x');
      const s = await share(alice, 'file', f.id);
      await ctx.ports.files.delete(f.id);
      await expect(open(s.id)).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('lifetime and limits', () => {
    const HOUR = 3600_000;
    const inAnHour = () => new Date(ctx.clock.now().getTime() + HOUR);
    const create = (options: Record<string, unknown>, actor = alice) =>
      paste(actor).then((p) => ctx.core.createShare.execute({ actor, type: 'paste', id: p.id, ...options }));

    it('refuses what it cannot keep, also from a host that calls the core without the HTTP checks', async () => {
      const bad: Array<Record<string, unknown>> = [
        { expiresAt: ctx.clock.now() },
        { expiresAt: new Date('not a date') },
        { expiresAt: '2030-01-01T00:00:00Z' },
        ...['maxViews', 'maxDownloads'].flatMap((field) =>
          [0, -1, 1.5, Number.NaN, Infinity, 2 ** 53, '3'].map((value) => ({ [field]: value })),
        ),
      ];
      for (const options of bad) {
        await expect(create(options), JSON.stringify(options)).rejects.toMatchObject({
          code: 'bad_request',
          details: { field: Object.keys(options)[0] },
        });
      }
      expect((await usage(alice)).shares).toBe(0);
      const s = await create({});
      for (const options of bad.slice(1)) {
        await expect(ctx.core.updateShare.execute({ actor: alice, id: s.id, ...options })).rejects.toMatchObject({
          code: 'bad_request',
        });
      }
    });

    it('is gone to everyone but its owner once expired, and active again when the owner lifts the expiry', async () => {
      const s = await create({ expiresAt: inAnHour(), password: 'pw' });
      expect(s).toMatchObject({ expiresAt: inAnHour().toISOString(), state: 'active' });
      ctx.clock.advance(HOUR - 1);
      expect((await ctx.core.getShare.execute({ actor: bob, id: s.id, password: 'pw' })).views).toBe(1);
      ctx.clock.advance(1);
      // Gone is said before the password is asked for: a dead link has nothing left to protect.
      await expect(ctx.core.getShare.execute({ actor: bob, id: s.id, password: null })).rejects.toMatchObject({
        code: 'gone',
      });
      await expect(ctx.core.openShareContent.execute({ actor: null, id: s.id, password: 'pw' })).rejects.toMatchObject(
        { code: 'gone' },
      );
      expect(await ctx.core.getShare.execute({ actor: alice, id: s.id, password: null })).toMatchObject({
        state: 'expired',
        views: 1,
      });
      const [listed] = await ctx.core.listShares.execute({ actor: alice });
      expect(listed).toMatchObject({ id: s.id, state: 'expired' });
      await ctx.core.updateShare.execute({ actor: alice, id: s.id, expiresAt: null });
      expect((await ctx.core.getShare.execute({ actor: bob, id: s.id, password: 'pw' })).state).toBe('active');
    });

    it('a peek counts nothing, and a download counts only when the bytes are opened from byte 0', async () => {
      const s = await create({ maxDownloads: 1 });
      expect((await ctx.core.getShare.execute({ actor: null, id: s.id, password: null, peek: true })).views).toBe(0);
      const content = await ctx.core.openShareContent.execute({ actor: null, id: s.id, password: null });
      expect((await ctx.ports.shares.findById(s.id))!.downloads).toBe(0);
      await content.open({ start: 2, end: 4 });
      expect((await ctx.ports.shares.findById(s.id))!.downloads).toBe(0);
      await content.open({ start: 0, end: 1 });
      expect((await ctx.ports.shares.findById(s.id))!.downloads).toBe(1);
      await expect(content.open()).rejects.toMatchObject({ code: 'gone' });
      expect((await ctx.ports.shares.findById(s.id))!.downloads).toBe(1);
    });

    it('names the existing share in the conflict of a second one', async () => {
      const p = await paste(alice);
      const first = await ctx.core.createShare.execute({ actor: alice, type: 'paste', id: p.id });
      const again = ctx.core.createShare.execute({ actor: alice, type: 'paste', id: p.id, maxViews: 2 });
      await expect(again).rejects.toMatchObject({ code: 'conflict', details: { shareId: first.id } });
    });
  });
});
