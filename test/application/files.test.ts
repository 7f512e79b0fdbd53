import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore, piecesOf, type BlobPiece, type Core, type Ports } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { FsBlobStore } from '../../src/adapters/fs-blob-store/fs-blob-store.js';
import { MemoryBlobStore } from '../../src/adapters/memory-blob-store/memory-blob-store.js';
import { MemoryFileRepository } from '../../src/adapters/memory/index.js';
import type { StoredFile } from '../../src/domain/index.js';
import { bytes, makeCore, readAll, signUp, type TestCoreOptions } from '../support/core.js';
import { tempDir } from '../support/temp.js';

const KiB = 1024;
const MiB = 1024 * KiB;

async function setup(options: TestCoreOptions = {}) {
  const ctx = makeCore(options);
  const alice = await signUp(ctx, 'alice');
  return { ...ctx, alice: alice.actor };
}

function upload(core: Core, actor: Actor, content: AsyncIterable<Uint8Array>, more: { name?: string; folderId?: string } = {}) {
  return core.uploadFile.execute({
    actor,
    folderId: more.folderId ?? null,
    name: more.name ?? null,
    filename: 'notes.txt',
    mime: 'text/plain; charset=utf-8',
    content,
  });
}

function blobKeys(ports: Ports): string[] {
  if (!(ports.blobs instanceof MemoryBlobStore)) throw new Error('expected the memory blob store');
  return ports.blobs.keys();
}

/** Files under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

async function* aborting(chunks: number, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < chunks; i++) yield new Uint8Array(size).fill(7);
  throw new Error('client went away');
}

async function expectCode(promise: Promise<unknown>, code: string, details?: Record<string, unknown>) {
  const err = await promise.then(
    () => expect.fail(`expected ${code}`),
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ code, ...(details ? { details } : {}) });
}

describe('uploading and reading files', () => {
  it('stores the bytes, counts them and serves them back, whole and by range', async () => {
    const { core, ports, alice } = await setup();
    const data = Buffer.from('0123456789'.repeat(10_000));
    const view = await upload(core, alice, bytes(data, 7_000));
    expect(view).toMatchObject({
      name: 'notes.txt',
      mime: 'text/plain',
      size: String(data.length),
      ownerId: alice.userId,
      folderId: null,
      shareId: null,
      createdAt: '2026-11-22T10:00:00.000Z',
    });
    const usage = await ports.usage.get(alice.userId);
    expect(usage.storage).toBe(data.length);
    expect(usage.files).toBe(1);

    const content = await core.openFileContent.execute({ access: { actor: alice, share: null }, id: view.id });
    expect(content).toMatchObject({ name: 'notes.txt', mime: 'text/plain', size: data.length, disposition: 'inline' });
    expect(content.active).toBe(false);
    expect(content.etag).toMatch(/^".+"$/);
    expect((await readAll(await content.open())).equals(data)).toBe(true);
    expect((await readAll(await content.open({ start: 5, end: 14 }))).toString()).toBe('5678901234');

    expect(await core.getFile.execute({ access: { actor: alice, share: null }, id: view.id })).toEqual(view);
  });

  it('uses the given name, falls back from an unusable filename, and never trusts path characters', async () => {
    const { core, alice } = await setup();
    const named = await upload(core, alice, bytes('x'), { name: '  report.pdf ' });
    expect(named.name).toBe('report.pdf');
    const traversal = await core.uploadFile.execute({
      actor: alice, folderId: null, name: null, filename: '../../etc/passwd', mime: undefined, content: bytes('x'),
    });
    expect(traversal.name).toBe('.._.._etc_passwd');
    expect(traversal.mime).toBe('application/octet-stream');
    const blank = await core.uploadFile.execute({
      actor: alice, folderId: null, name: null, filename: '\u0000 ', mime: 'text/html', content: bytes('<b>'),
    });
    expect(blank.name).toBe('untitled');
    await expectCode(upload(core, alice, bytes('x'), { name: ' ' }), 'bad_request');
  });

  it('serves active content as a sandboxed attachment', async () => {
    const { core, alice } = await setup();
    const view = await core.uploadFile.execute({
      actor: alice, folderId: null, name: null, filename: 'page.html', mime: 'text/html', content: bytes('<script>'),
    });
    const content = await core.openFileContent.execute({ access: { actor: alice, share: null }, id: view.id });
    expect(content.active).toBe(true);
    expect(content.disposition).toBe('attachment');
  });

  it('uploads into an own folder only; a foreign one is not_found and leaves nothing', async () => {
    const ctx = await setup();
    const { core, ports, alice } = ctx;
    const bob = (await signUp(ctx, 'bob')).actor;
    const folder = await core.createFolder.execute({ actor: alice, name: 'docs', parentId: null });
    const view = await upload(core, alice, bytes('x'), { folderId: folder.id });
    expect(view.folderId).toBe(folder.id);
    await expectCode(upload(core, bob, bytes('x'), { folderId: folder.id }), 'not_found');
    expect(await ports.usage.get(bob.userId)).toMatchObject({ files: 0, storage: 0 });
    expect(blobKeys(ports)).toHaveLength(1);
  });

  it('hides a file from other users and answers unauthorized to nobody', async () => {
    const ctx = await setup();
    const bob = (await signUp(ctx, 'bob')).actor;
    const view = await upload(ctx.core, ctx.alice, bytes('secret'));
    await expectCode(ctx.core.getFile.execute({ access: { actor: bob, share: null }, id: view.id }), 'not_found');
    await expectCode(ctx.core.openFileContent.execute({ access: { actor: bob, share: null }, id: view.id }), 'not_found');
    await expectCode(ctx.core.getFile.execute({ access: { actor: null, share: null }, id: view.id }), 'unauthorized');
    await expectCode(ctx.core.getFile.execute({ access: { actor: null, share: null }, id: 'nope' }), 'unauthorized');
    await expectCode(ctx.core.getFile.execute({ access: { actor: bob, share: null }, id: 'nope' }), 'not_found');
  });

  it('lets an uploader token upload but not read, rename or delete', async () => {
    const { core, alice } = await setup();
    const { token } = await core.createApiToken.execute({ actor: alice, name: 'ci' });
    const uploader = await core.authenticate.execute({ token });
    const view = await upload(core, uploader, bytes('x'));
    expect(view.ownerId).toBe(alice.userId);
    await expectCode(core.getFile.execute({ access: { actor: uploader, share: null }, id: view.id }), 'forbidden');
    await expectCode(core.updateFile.execute({ actor: uploader, id: view.id, name: 'y' }), 'forbidden');
    await expectCode(core.deleteFile.execute({ actor: uploader, id: view.id }), 'forbidden');
  });
});

describe('updating and deleting files', () => {
  it('renames and moves between own folders and back to the root', async () => {
    const ctx = await setup();
    const { core, clock, alice } = ctx;
    const bob = (await signUp(ctx, 'bob')).actor;
    const folder = await core.createFolder.execute({ actor: alice, name: 'docs', parentId: null });
    const foreign = await core.createFolder.execute({ actor: bob, name: 'bobs', parentId: null });
    const view = await upload(core, alice, bytes('x'));
    clock.advance(1000);
    const moved = await core.updateFile.execute({ actor: alice, id: view.id, name: 'a/b.txt', folderId: folder.id });
    expect(moved).toMatchObject({ name: 'a_b.txt', folderId: folder.id, updatedAt: '2026-11-22T10:00:01.000Z' });
    expect(moved.createdAt).toBe(view.createdAt);
    const back = await core.updateFile.execute({ actor: alice, id: view.id, folderId: null });
    expect(back).toMatchObject({ name: 'a_b.txt', folderId: null });
    await expectCode(core.updateFile.execute({ actor: alice, id: view.id, folderId: foreign.id }), 'not_found');
    await expectCode(core.updateFile.execute({ actor: bob, id: view.id, name: 'mine' }), 'not_found');
    await expectCode(core.updateFile.execute({ actor: alice, id: view.id, name: '' }), 'bad_request');
  });

  it('deletes the record, the bytes, the share, collection entries and the counts', async () => {
    const { core, ports, alice } = await setup();
    const keep = await upload(core, alice, bytes('keep'));
    const view = await upload(core, alice, bytes('0123456789'));
    await core.createShare.execute({ actor: alice, type: 'file', id: view.id, password: null });
    const collection = await core.createCollection.execute({ actor: alice, name: 'c' });
    await core.addToCollection.execute({ actor: alice, id: collection.id, fileId: view.id });
    await core.addToCollection.execute({ actor: alice, id: collection.id, fileId: keep.id });

    await core.deleteFile.execute({ actor: alice, id: view.id });
    expect(await ports.files.findById(view.id)).toBeNull();
    expect(await ports.shares.findByItem('file', view.id)).toBeNull();
    expect((await ports.collections.findById(collection.id))?.fileIds).toEqual([keep.id]);
    expect(blobKeys(ports)).toHaveLength(1);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 1, storage: 4, shares: 0 });
    await expectCode(core.deleteFile.execute({ actor: alice, id: view.id }), 'not_found');
  });
});

describe('limits on uploads', () => {
  it('accepts a file of exactly the remaining storage and refuses one byte more, leaving nothing behind', async () => {
    const { core, ports, alice } = await setup({ limits: { storage: 3 * 1024 * KiB } });
    await upload(core, alice, bytes(Buffer.alloc(1024 * KiB + 5)));
    const remaining = 2 * 1024 * KiB - 5;
    const before = await ports.usage.get(alice.userId);

    const err = await upload(core, alice, bytes(Buffer.alloc(remaining + 1), 100 * KiB)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'limit_reached', details: { limit: 'storage' } });
    expect(await ports.usage.get(alice.userId)).toEqual(before);
    expect(blobKeys(ports)).toHaveLength(1);
    expect(await ports.files.listByOwner(alice.userId)).toHaveLength(1);

    const exact = await upload(core, alice, bytes(Buffer.alloc(remaining), 100 * KiB));
    expect(exact.size).toBe(String(remaining));
    expect(await ports.usage.get(alice.userId)).toMatchObject({ storage: 3 * 1024 * KiB, files: 2 });
  });

  it('hands the store whole MiB pieces (one write per MiB) holding exactly the bytes sent', async () => {
    const pieces: number[] = [];
    const { core, ports, alice } = await setup({
      limits: { storage: 8 * MiB },
      maxUploadBytes: 8 * MiB,
      wrapPorts: (p) => ({
        ...p,
        blobs: Object.assign(Object.create(p.blobs) as Ports['blobs'], {
          write: (content: AsyncIterable<BlobPiece>) =>
            p.blobs.write(
              (async function* () {
                for await (const piece of content) {
                  pieces.push(piecesOf(piece).reduce((sum, chunk) => sum + chunk.byteLength, 0));
                  yield piece;
                }
              })(),
            ),
        }),
      }),
    });
    const sent = Buffer.alloc(2 * MiB + 5 * KiB);
    for (let i = 0; i < sent.length; i++) sent[i] = (i * 31) % 251;
    const file = await upload(core, alice, bytes(sent, 64 * KiB));
    expect(pieces).toEqual([MiB, MiB, 5 * KiB]);
    const content = await core.openFileContent.execute({ access: { actor: alice, share: null }, id: file.id });
    expect((await readAll(await content.open())).equals(sent)).toBe(true);
    expect((await ports.usage.get(alice.userId)).storage).toBe(sent.length);
  });

  it('counts exactly the bytes of a small file', async () => {
    const { core, ports, alice } = await setup();
    await upload(core, alice, bytes('abc'));
    expect((await ports.usage.get(alice.userId)).storage).toBe(3);
  });

  it('refuses an upload past maxUploadBytes with payload_too_large and leaves nothing', async () => {
    const { core, ports, alice } = await setup({ maxUploadBytes: 10 * KiB });
    await upload(core, alice, bytes(Buffer.alloc(10 * KiB), KiB));
    await expectCode(upload(core, alice, bytes(Buffer.alloc(10 * KiB + 1), KiB)), 'payload_too_large', {
      maxBytes: 10 * KiB,
    });
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 1, storage: 10 * KiB });
    expect(blobKeys(ports)).toHaveLength(1);
  });

  it('leaves neither bytes nor counts after the client aborts mid-upload', async () => {
    const dir = tempDir('abort');
    const base = makeCore();
    const ports: Ports = { ...base.ports, blobs: new FsBlobStore({ dir }) };
    const ctx = { core: createCore(ports), ports };
    const alice = (await signUp(ctx, 'alice')).actor;

    await expect(upload(ctx.core, alice, aborting(40, 64 * KiB))).rejects.toThrow('client went away');
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 0, storage: 0 });
    expect(await ports.files.listByOwner(alice.userId)).toEqual([]);
    expect(filesUnder(dir)).toEqual([]);

    await upload(ctx.core, alice, bytes('kept'));
    expect(filesUnder(join(dir, 'blobs'))).toHaveLength(1);
  });

  it('removes the stored bytes and gives the counts back when the metadata cannot be saved', async () => {
    /** The real repository, failing its next insert the way a dropped database connection would. */
    class FailingInsert extends MemoryFileRepository {
      override async insert(_file: StoredFile): Promise<void> {
        throw new Error('database unavailable');
      }
    }
    const base = makeCore();
    const ports: Ports = { ...base.ports, files: new FailingInsert() };
    const ctx = { core: createCore(ports), ports };
    const alice = (await signUp(ctx, 'alice')).actor;
    await expect(upload(ctx.core, alice, bytes(Buffer.alloc(3 * KiB)))).rejects.toThrow('database unavailable');
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 0, storage: 0 });
    expect(blobKeys(ports)).toEqual([]);
  });

  it('lets exactly as many concurrent uploads through as storage has room for', async () => {
    const { core, ports, alice } = await setup({ limits: { storage: 5 * KiB } });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => upload(core, alice, bytes(Buffer.alloc(KiB)))),
    );
    const failures = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const f of failures) expect(f.reason).toMatchObject({ code: 'limit_reached', details: { limit: 'storage' } });
    expect(await ports.usage.get(alice.userId)).toMatchObject({ storage: 5 * KiB, files: 5 });
    expect(blobKeys(ports)).toHaveLength(5);
  });

  it('lets exactly as many concurrent multi-chunk uploads through as storage has room for', async () => {
    // 300 KiB files in 16 KiB chunks: a meter that reserved ahead of the bytes would crowd out uploads that fit.
    const size = 300 * KiB;
    const { core, ports, alice } = await setup({ limits: { storage: 5 * size } });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => upload(core, alice, bytes(Buffer.alloc(size), 16 * KiB))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ storage: 5 * size, files: 5 });
    expect(blobKeys(ports)).toHaveLength(5);
  });

  it('lets exactly as many concurrent uploads through as the files maximum allows', async () => {
    const { core, ports, alice } = await setup({ limits: { files: 5 } });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => upload(core, alice, bytes(Buffer.alloc(KiB)))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ storage: 5 * KiB, files: 5 });
    expect(await ports.files.listByOwner(alice.userId)).toHaveLength(5);
  });
});
