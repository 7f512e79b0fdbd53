import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import { MAX_PASTE_BYTES } from '../../src/domain/index.js';
import { makeCore, signUp } from '../support/core.js';
import { asUploader, tally } from './fixtures.js';

type Ctx = ReturnType<typeof makeCore>;

describe('pastes', () => {
  let ctx: Ctx;
  let alice: Actor;
  let bob: Actor;

  async function setUp(limits: Parameters<typeof makeCore>[0] = {}) {
    ctx = makeCore(limits);
    alice = (await signUp(ctx, 'alice')).actor;
    bob = (await signUp(ctx, 'bob')).actor;
  }
  beforeEach(() => setUp());

  const usage = (actor: Actor) => ctx.ports.usage.get(actor.userId);
  const create = (actor: Actor, content: string, extra: { name?: string; type?: string } = {}) =>
    ctx.core.createPaste.execute({ actor, content, ...extra });

  describe('create', () => {
    it('applies defaults and counts the paste and its UTF-8 bytes', async () => {
      const view = await create(alice, 'héllo');
      expect(view).toMatchObject({
        name: 'Untitled',
        type: 'text',
        content: 'héllo',
        size: '6',
        ownerId: alice.userId,
        shareId: null,
        createdAt: '2026-11-22T10:00:00.000Z',
      });
      expect(await usage(alice)).toMatchObject({ pastes: 1, storage: 6 });
    });

    it('keeps a given name and normalises the type', async () => {
      const view = await create(alice, '# hi', { name: ' notes ', type: ' Markdown ' });
      expect(view).toMatchObject({ name: 'notes', type: 'markdown' });
    });

    it('allows empty content', async () => {
      expect((await create(alice, '')).size).toBe('0');
      expect(await usage(alice)).toMatchObject({ pastes: 1, storage: 0 });
    });

    it('refuses bad input and counts nothing', async () => {
      await expect(create(alice, 'x', { type: 'not a type!' })).rejects.toMatchObject({
        code: 'bad_request',
        details: { field: 'type' },
      });
      await expect(create(alice, 'x', { name: '   ' })).rejects.toMatchObject({
        code: 'bad_request',
        details: { field: 'name' },
      });
      await expect(
        ctx.core.createPaste.execute({ actor: alice, content: 42 as unknown as string }),
      ).rejects.toMatchObject({ code: 'bad_request', details: { field: 'content' } });
      await expect(create(alice, 'x'.repeat(MAX_PASTE_BYTES + 1))).rejects.toMatchObject({
        code: 'payload_too_large',
      });
      expect(await usage(alice)).toMatchObject({ pastes: 0, storage: 0 });
      expect(await ctx.ports.pastes.listByOwner(alice.userId)).toEqual([]);
    });

    it('stops at the paste maximum with limit_reached naming pastes', async () => {
      await setUp({ limits: { pastes: 2 } });
      await create(alice, 'a');
      await create(alice, 'b');
      await expect(create(alice, 'c')).rejects.toMatchObject({ code: 'limit_reached', details: { limit: 'pastes' } });
      expect(await usage(alice)).toMatchObject({ pastes: 2, storage: 2 });
      expect(await ctx.ports.pastes.listByOwner(alice.userId)).toHaveLength(2);
    });

    it('stops at the storage maximum and gives the paste count back', async () => {
      await setUp({ limits: { storage: 10 } });
      await create(alice, '12345678');
      await expect(create(alice, '123')).rejects.toMatchObject({ code: 'limit_reached', details: { limit: 'storage' } });
      expect(await usage(alice)).toMatchObject({ pastes: 1, storage: 8 });
      await create(alice, '12');
      expect(await usage(alice)).toMatchObject({ pastes: 2, storage: 10 });
    });

    it('lets exactly as many concurrent creates through as there is room for', async () => {
      await setUp({ limits: { pastes: 5 } });
      const { ok, codes } = await tally(Array.from({ length: 20 }, (_, i) => create(alice, `paste ${i}`)));
      expect(ok).toHaveLength(5);
      expect(codes).toEqual(Array(15).fill('limit_reached'));
      const stored = await ctx.ports.pastes.listByOwner(alice.userId);
      expect(stored).toHaveLength(5);
      expect(await usage(alice)).toMatchObject({ pastes: 5, storage: stored.reduce((n, p) => n + p.size, 0) });
    });

    it('is allowed to an uploader token, which still cannot list or read pastes', async () => {
      const uploader = asUploader(alice);
      const view = await create(uploader, 'from a script');
      expect(view.ownerId).toBe(alice.userId);
      await expect(ctx.core.listPastes.execute({ actor: uploader })).rejects.toMatchObject({ code: 'forbidden' });
      await expect(
        ctx.core.getPaste.execute({ access: { actor: uploader, share: null }, id: view.id }),
      ).rejects.toMatchObject({ code: 'forbidden' });
      await expect(
        ctx.core.updatePaste.execute({ actor: uploader, id: view.id, content: 'x' }),
      ).rejects.toMatchObject({ code: 'forbidden' });
      await expect(ctx.core.deletePaste.execute({ actor: uploader, id: view.id })).rejects.toMatchObject({
        code: 'forbidden',
      });
    });
  });

  describe('list and get', () => {
    it("lists only the caller's pastes, with their share ids", async () => {
      // Lists are ordered by createdAt then id, so each paste gets its own instant.
      const a = await create(alice, 'a');
      ctx.clock.advance(1);
      await create(alice, 'b');
      await create(bob, 'bob');
      const share = await ctx.core.createShare.execute({ actor: alice, type: 'paste', id: a.id, password: null });
      const list = (await ctx.core.listPastes.execute({ actor: alice })).items;
      expect(list.map((p) => [p.content, p.shareId])).toEqual([
        ['a', share.id],
        ['b', null],
      ]);
    });

    it('answers the owner and hides the paste from everyone else', async () => {
      const p = await create(alice, 'secret');
      const get = (actor: Actor | null, id = p.id) => ctx.core.getPaste.execute({ access: { actor, share: null }, id });
      expect(await get(alice)).toMatchObject({ id: p.id, content: 'secret' });
      await expect(get(bob)).rejects.toMatchObject({ code: 'not_found' });
      await expect(get(alice, 'nope')).rejects.toMatchObject({ code: 'not_found' });
      await expect(get(null)).rejects.toMatchObject({ code: 'unauthorized' });
    });

    it('answers anyone through its own share link only', async () => {
      const p = await create(alice, 'shared');
      const other = await create(alice, 'other');
      const share = await ctx.core.createShare.execute({ actor: alice, type: 'paste', id: p.id, password: 'pw' });
      const get = (id: string, password: string | null) =>
        ctx.core.getPaste.execute({ access: { actor: bob, share: { id: share.id, password } }, id });
      expect(await get(p.id, 'pw')).toMatchObject({ content: 'shared', shareId: share.id });
      await expect(get(p.id, null)).rejects.toMatchObject({ code: 'share_password_required' });
      await expect(get(p.id, 'bad')).rejects.toMatchObject({ code: 'share_password_invalid' });
      await expect(get(other.id, 'pw')).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('update', () => {
    it('changes name and type without touching storage', async () => {
      const p = await create(alice, 'abc');
      ctx.clock.advance(5);
      const view = await ctx.core.updatePaste.execute({ actor: alice, id: p.id, name: 'renamed', type: 'js' });
      expect(view).toMatchObject({ name: 'renamed', type: 'js', content: 'abc', updatedAt: '2026-11-22T10:00:00.005Z' });
      expect((await usage(alice)).storage).toBe(3);
    });

    it('keeps storage equal to the stored size when edits of one paste race', async () => {
      const p = await create(alice, 'a');
      const contents = Array.from({ length: 10 }, (_, i) => 'x'.repeat(10 * (i + 1)));
      const results = await Promise.allSettled(
        contents.map((content) => ctx.core.updatePaste.execute({ actor: alice, id: p.id, content })),
      );
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
      const stored = await ctx.ports.pastes.findById(p.id);
      expect((await usage(alice)).storage).toBe(stored!.size);
    });

    it('moves storage by the difference when the content grows or shrinks', async () => {
      const p = await create(alice, 'abc');
      const grown = await ctx.core.updatePaste.execute({ actor: alice, id: p.id, content: 'abcdefgh€' });
      expect(grown.size).toBe('11');
      expect((await usage(alice)).storage).toBe(11);
      const shrunk = await ctx.core.updatePaste.execute({ actor: alice, id: p.id, content: 'a' });
      expect(shrunk.size).toBe('1');
      expect(await usage(alice)).toMatchObject({ storage: 1, pastes: 1 });
    });

    it('refuses growth beyond the storage maximum and leaves paste and counter as they were', async () => {
      await setUp({ limits: { storage: 10 } });
      const p = await create(alice, '12345');
      await expect(
        ctx.core.updatePaste.execute({ actor: alice, id: p.id, content: '12345678901' }),
      ).rejects.toMatchObject({ code: 'limit_reached', details: { limit: 'storage' } });
      expect((await ctx.ports.pastes.findById(p.id))!.content).toBe('12345');
      expect((await usage(alice)).storage).toBe(5);
      await ctx.core.updatePaste.execute({ actor: alice, id: p.id, content: '1234567890' });
      expect((await usage(alice)).storage).toBe(10);
    });

    it('refuses bad input and foreign or missing pastes', async () => {
      const p = await create(alice, 'abc');
      const update = (input: { actor?: Actor; id?: string; name?: string; type?: string; content?: string }) =>
        ctx.core.updatePaste.execute({ actor: alice, id: p.id, ...input });
      await expect(update({ name: '' })).rejects.toMatchObject({ code: 'bad_request' });
      await expect(update({ type: '!!' })).rejects.toMatchObject({ code: 'bad_request' });
      await expect(update({ content: 'x'.repeat(MAX_PASTE_BYTES + 1) })).rejects.toMatchObject({
        code: 'payload_too_large',
      });
      await expect(update({ actor: bob, content: 'mine' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(update({ id: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
      expect((await ctx.ports.pastes.findById(p.id))!).toMatchObject({ name: 'Untitled', content: 'abc' });
      expect((await usage(alice)).storage).toBe(3);
    });
  });

  describe('delete', () => {
    it('deletes the paste and its share and releases pastes, storage and shares', async () => {
      const p = await create(alice, 'abcd');
      const keep = await create(alice, 'ef');
      const share = await ctx.core.createShare.execute({ actor: alice, type: 'paste', id: p.id, password: null });
      expect(await usage(alice)).toMatchObject({ pastes: 2, storage: 6, shares: 1 });
      await ctx.core.deletePaste.execute({ actor: alice, id: p.id });
      expect(await usage(alice)).toMatchObject({ pastes: 1, storage: 2, shares: 0 });
      expect(await ctx.ports.pastes.findById(p.id)).toBeNull();
      expect(await ctx.ports.pastes.findById(keep.id)).not.toBeNull();
      await expect(ctx.core.getShare.execute({ actor: null, id: share.id, password: null })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(ctx.core.deletePaste.execute({ actor: alice, id: p.id })).rejects.toMatchObject({
        code: 'not_found',
      });
      expect(await usage(alice)).toMatchObject({ pastes: 1, storage: 2, shares: 0 });
    });

    it("refuses someone else's paste", async () => {
      const p = await create(alice, 'abcd');
      await expect(ctx.core.deletePaste.execute({ actor: bob, id: p.id })).rejects.toMatchObject({ code: 'not_found' });
      expect(await ctx.ports.pastes.findById(p.id)).not.toBeNull();
      expect(await usage(alice)).toMatchObject({ pastes: 1, storage: 4 });
    });
  });
});
