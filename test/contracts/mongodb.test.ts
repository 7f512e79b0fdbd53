import { Container } from 'inversify';
import { MongoClient, type Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/application/ports/blob-store.js';
import {
  BLOB_BUCKET,
  COLLECTIONS,
  connectMongo,
  ensureIndexes,
  GridFsBlobStore,
  MongoCallers,
  MongoCollectionRepository,
  MongoDb,
  MongoFileRepository,
  MongoFolderRepository,
  MongoInstanceLeases,
  MongoMfaChallengeRepository,
  MongoPasskeyRepository,
  MongoPasteRepository,
  MongoRequestRepository,
  MongoPendingSignInRepository,
  MongoSecondFactorRepository,
  MongoLockStore,
  MongoPropertyStore,
  MongoShareRepository,
  MongoTokenRepository,
  MongoUploadSessionRepository,
  MongoUsageCounter,
  MongoUsageReports,
  MongoUserRepository,
  MongoWebAuthnChallengeRepository,
  MongoActivityRepository,
  MongoWebhookRepository,
  MongoDeliveryRepository,
  MongoMailNotices,
} from '../../src/adapters/mongodb/index.js';
import { activityRepositoryContract, deliveryRepositoryContract, mailNoticesContract, webhookRepositoryContract } from './activity.contract.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { blobStoreContract } from './blob-store.contract.js';
import { callersContract } from './callers.contract.js';
import { collectionRepositoryContract } from './collection-repository.contract.js';
import { fileRepositoryContract } from './file-repository.contract.js';
import { aFolder, at } from './fixtures.js';
import { folderRepositoryContract } from './folder-repository.contract.js';
import { instanceLeasesContract } from './instance-leases.contract.js';
import { keysetPagesContract } from './keyset-pages.contract.js';
import { passkeyRepositoryContract, passkeySlotsContract, webauthnChallengeRepositoryContract } from './passkeys.contract.js';
import { pasteRepositoryContract } from './paste-repository.contract.js';
import { aRequest, requestRepositoryContract } from './request-repository.contract.js';
import { pendingSignInRepositoryContract } from './pending-sign-ins.contract.js';
import { mfaChallengeRepositoryContract, secondFactorRepositoryContract } from './second-factors.contract.js';
import { shareRepositoryContract } from './share-repository.contract.js';
import { tokenRepositoryContract } from './token-repository.contract.js';
import { usageCounterContract } from './usage-counter.contract.js';
import { uploadSessionRepositoryContract } from './upload-session-repository.contract.js';
import { usageReportsContract } from './usage-reports.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';
import { lockStoreContract, propertyStoreContract } from './versioned-state.contract.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

let databases: { fresh(): Db };
const dbOf = new Map<object, Db>();

/** Every adapter instance gets a database of its own, with the production indexes. */
function onFreshDb<T extends object>(build: (db: Db) => T | Promise<T>): () => Promise<T> {
  return async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    const adapter = await build(db);
    dbOf.set(adapter, db);
    return adapter;
  };
}

/** What GridFS really holds: every blob id found in the files or the chunks collection (orphan chunks included). */
async function rawBlobs(store: BlobStore): Promise<string[]> {
  const db = dbOf.get(store)!;
  const files = await db.collection(`${BLOB_BUCKET}.files`).distinct('_id');
  const chunks = await db.collection(`${BLOB_BUCKET}.chunks`).distinct('files_id');
  return [...new Set([...files, ...chunks].map(String))].sort();
}

async function* pieces(count: number, size: number, failWith?: Error): AsyncIterable<Uint8Array> {
  for (let i = 0; i < count; i++) yield new Uint8Array(size).fill(i);
  if (failWith) throw failWith;
}

describe.skipIf(!target)('MongoDB adapters', () => {
  databases = useFreshDatabases(target!);

  userRepositoryContract('MongoUserRepository', onFreshDb((db) => new MongoUserRepository(db)));
  secondFactorRepositoryContract('MongoSecondFactorRepository', onFreshDb((db) => new MongoSecondFactorRepository(db)));
  propertyStoreContract('MongoPropertyStore', onFreshDb((db) => new MongoPropertyStore(db)));
  lockStoreContract('MongoLockStore', onFreshDb((db) => new MongoLockStore(db)));
  passkeySlotsContract('MongoSecondFactorRepository', onFreshDb((db) => new MongoSecondFactorRepository(db)));
  passkeyRepositoryContract('MongoPasskeyRepository', onFreshDb((db) => new MongoPasskeyRepository(db)));
  // As for mfa challenges: the fixtures' dates lie in the past, so the TTL monitor could take a challenge mid-test.
  webauthnChallengeRepositoryContract(
    'MongoWebAuthnChallengeRepository',
    onFreshDb(async (db) => {
      await db.collection(COLLECTIONS.webauthnChallenges).dropIndex('challenge_ttl');
      return new MongoWebAuthnChallengeRepository(db);
    }),
  );
  // As for tokens: the fixtures' dates lie in the past, so the TTL monitor could take a challenge mid-test.
  mfaChallengeRepositoryContract(
    'MongoMfaChallengeRepository',
    onFreshDb(async (db) => {
      await db.collection(COLLECTIONS.mfaChallenges).dropIndex('challenge_ttl');
      return new MongoMfaChallengeRepository(db);
    }),
  );
  // The same: the fixtures' expiries lie in the past. The TTL index is created by ensureIndexes (checked below).
  pendingSignInRepositoryContract(
    'MongoPendingSignInRepository',
    onFreshDb(async (db) => {
      await db.collection(COLLECTIONS.pendingSignIns).dropIndex('pending_ttl');
      return new MongoPendingSignInRepository(db);
    }),
  );
  // The fixtures' sessions expire at a fixed date; once that has passed, the TTL monitor could take them mid-test.
  // The TTL index itself is checked below.
  tokenRepositoryContract(
    'MongoTokenRepository',
    onFreshDb(async (db) => {
      await db.collection(COLLECTIONS.tokens).dropIndex('session_ttl');
      return new MongoTokenRepository(db);
    }),
  );
  callersContract(
    'MongoCallers',
    onFreshDb(async (db) => {
      await db.collection(COLLECTIONS.tokens).dropIndex('session_ttl');
      return { callers: new MongoCallers(db), tokens: new MongoTokenRepository(db), users: new MongoUserRepository(db) };
    }),
  );
  usageReportsContract(
    'MongoUsageReports',
    onFreshDb((db) => ({
      reports: new MongoUsageReports(db),
      usage: new MongoUsageCounter(db),
      users: new MongoUserRepository(db),
    })),
  );
  fileRepositoryContract('MongoFileRepository', onFreshDb((db) => new MongoFileRepository(db)));
  folderRepositoryContract('MongoFolderRepository', onFreshDb((db) => new MongoFolderRepository(db)));
  collectionRepositoryContract('MongoCollectionRepository', onFreshDb((db) => new MongoCollectionRepository(db)));
  pasteRepositoryContract('MongoPasteRepository', onFreshDb((db) => new MongoPasteRepository(db)));
  requestRepositoryContract('MongoRequestRepository', onFreshDb((db) => new MongoRequestRepository(db)));
  shareRepositoryContract('MongoShareRepository', onFreshDb((db) => new MongoShareRepository(db)));
  instanceLeasesContract('MongoInstanceLeases', onFreshDb((db) => new MongoInstanceLeases(db)));
  activityRepositoryContract('MongoActivityRepository', onFreshDb((db) => new MongoActivityRepository(db, 90 * 86_400_000)));
  webhookRepositoryContract('MongoWebhookRepository', onFreshDb((db) => new MongoWebhookRepository(db)));
  deliveryRepositoryContract('MongoDeliveryRepository', onFreshDb((db) => new MongoDeliveryRepository(db)));
  mailNoticesContract('MongoMailNotices', onFreshDb((db) => new MongoMailNotices(db)));
  usageCounterContract('MongoUsageCounter', onFreshDb((db) => new MongoUsageCounter(db)));
  uploadSessionRepositoryContract('MongoUploadSessionRepository', onFreshDb((db) => new MongoUploadSessionRepository(db)));
  keysetPagesContract(
    'MongoDB adapters',
    onFreshDb((db) => ({
      files: new MongoFileRepository(db),
      folders: new MongoFolderRepository(db),
      pastes: new MongoPasteRepository(db),
      collections: new MongoCollectionRepository(db),
      tokens: new MongoTokenRepository(db),
    })),
  );
  blobStoreContract('GridFsBlobStore', onFreshDb((db) => new GridFsBlobStore(db)), rawBlobs);

  describe('beyond the contracts', () => {
    it('lets exactly max through when two processes (two clients) reserve at once', async () => {
      const db = databases.fresh();
      await ensureIndexes(db);
      const other = await MongoClient.connect(target!.uri);
      try {
        const counters = [new MongoUsageCounter(db), new MongoUsageCounter(other.db(db.databaseName))];
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => counters[i % 2]!.reserve('u1', 'files', 1, 5)),
        );
        expect(results.filter(Boolean)).toHaveLength(5);
        expect((await counters[1]!.get('u1')).files).toBe(5);
        expect(await db.collection(COLLECTIONS.usage).countDocuments()).toBe(1);
      } finally {
        await other.close();
      }
    });

    it('leaves no GridFS chunk behind when the content fails after whole chunks were stored', async () => {
      const store = await onFreshDb((db) => new GridFsBlobStore(db))();
      const kept = await store.write(pieces(1, 10));
      const boom = new Error('client went away');
      // 64 KiB pieces: several 255 KiB GridFS chunks are flushed before the failure.
      await expect(store.write(pieces(40, 64 * 1024, boom))).rejects.toBe(boom);
      expect(await rawBlobs(store)).toEqual([kept.key]);
      expect(await dbOf.get(store)!.collection(`${BLOB_BUCKET}.chunks`).countDocuments()).toBe(1);
    });

    it("keeps a request's held room by hold id, indexed, leaves nothing once given back or settled, and reads documents without maxima", async () => {
      const db = databases.fresh();
      await ensureIndexes(db);
      const requests = new MongoRequestRepository(db);
      const raw = db.collection<Record<string, unknown> & { _id: string }>(COLLECTIONS.requests);
      await requests.insert(aRequest({ maxFiles: 3 }));
      await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), 'up-1');
      await requests.takeRoom('req-1', { files: 0, bytes: 9 }, at(1), 'up-1');
      await requests.takeRoom('req-1', { files: 1, bytes: 4 }, at(1), 'up-2');
      expect(await raw.findOne({ _id: 'req-1' })).toMatchObject({
        files: 2,
        bytes: 13,
        held: { 'up-1': { files: 1, bytes: 9 }, 'up-2': { files: 1, bytes: 4 } },
        holds: ['up-1', 'up-2'],
      });
      const index = (await raw.listIndexes().toArray()).find((i) => i.name === 'holds');
      expect(index?.key).toEqual({ holds: 1 });
      expect(await requests.giveBackHeld('up-1')).toBe(true);
      await requests.settleHeld('up-2');
      const after = await raw.findOne({ _id: 'req-1' });
      expect(after).toMatchObject({ files: 1, bytes: 4, held: {}, holds: [] });
      // An older document with no maxima or expiry fields at all takes room as one with nulls does.
      await raw.insertOne({ ...after!, _id: 'old', held: {}, holds: [] });
      await raw.updateOne({ _id: 'old' }, { $unset: { maxFiles: '', maxBytes: '', expiresAt: '' } });
      expect(await requests.takeRoom('old', { files: 5, bytes: 5 }, at(1), 'up-3')).toMatchObject({ files: 6, bytes: 9 });
    });

    it('moves a folder by writing its own document alone, and reads documents an older version wrote', async () => {
      const db = databases.fresh();
      await ensureIndexes(db);
      const folders = new MongoFolderRepository(db);
      const raw = db.collection<Record<string, unknown> & { _id: string }>(COLLECTIONS.folders);
      for (const [id, parentId] of [['a', null], ['b', 'a'], ['c', 'b'], ['x', null]] as const) {
        await folders.insert(aFolder({ id, parentId }));
      }
      const before = await raw.find({ _id: { $ne: 'b' } }).toArray();
      await folders.update('b', { parentId: 'x', updatedAt: at(1) });
      expect(await raw.find({ _id: { $ne: 'b' } }).toArray()).toEqual(before);
      expect(await folders.chain('c')).toEqual(['x', 'b', 'c']);
      // Older documents carried their ancestors; a race could leave them pointing in a circle. Only parents count.
      await raw.insertOne({ ...(await raw.findOne({ _id: 'a' }))!, _id: 'old', parentId: 'c', ancestors: ['old', 'a'] });
      expect(await folders.chain('old')).toEqual(['x', 'b', 'c', 'old']);
      expect((await folders.listSubtree('owner-1', 'old', 10))).toEqual([]);
      expect((await folders.listSubtree('owner-1', 'x', 10)).map((f) => f.id).sort()).toEqual(['b', 'c', 'old']);
    });

    it('shares one move lease per owner between every client of the database', async () => {
      const db = databases.fresh();
      await ensureIndexes(db);
      const [one, two] = [new MongoFolderRepository(db), new MongoFolderRepository(db)];
      expect(await one.acquireMoveLease('owner-1', 'h1', at(10), at(0))).toBe(true);
      expect(await two.acquireMoveLease('owner-1', 'h2', at(10), at(1))).toBe(false);
      await two.releaseMoveLease('owner-1', 'h2');
      expect(await two.acquireMoveLease('owner-1', 'h2', at(10), at(2))).toBe(false);
      await one.releaseMoveLease('owner-1', 'h1');
      expect(await two.acquireMoveLease('owner-1', 'h2', at(10), at(2))).toBe(true);
    });

    it('creates its indexes idempotently, with unique usernames, share items and token hashes', async () => {
      const db = databases.fresh();
      await ensureIndexes(db);
      await ensureIndexes(db);
      const unique = async (name: string) =>
        (await db.collection(name).listIndexes().toArray()).filter((i) => i.unique).map((i) => i.key);
      expect(await unique(COLLECTIONS.users)).toContainEqual({ usernameLower: 1 });
      expect(await unique(COLLECTIONS.shares)).toContainEqual({ type: 1, itemId: 1 });
      expect(await unique(COLLECTIONS.tokens)).toContainEqual({ hash: 1 });
      const ttl = (await db.collection(COLLECTIONS.tokens).listIndexes().toArray()).find((i) => i.name === 'session_ttl');
      expect(ttl).toMatchObject({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
      expect(await unique(COLLECTIONS.users)).toContainEqual({ 'oidc.issuer': 1, 'oidc.subject': 1 });
      const pending = await db.collection(COLLECTIONS.pendingSignIns).listIndexes().toArray();
      expect(pending.find((i) => i.name === 'pending_ttl')).toMatchObject({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
    });
  });
});

describe('MongoDB adapters without a server', () => {
  it('resolve from an Inversify container bound to a Db', async () => {
    const unconnected = new MongoClient('mongodb://127.0.0.1:9');
    const container = new Container();
    container.bind(MongoDb).toConstantValue(unconnected.db('never-used'));
    const classes: (new (db: Db) => object)[] = [
      MongoUserRepository,
      MongoTokenRepository,
      MongoFileRepository,
      MongoFolderRepository,
      MongoCollectionRepository,
      MongoPasteRepository,
      MongoShareRepository,
      MongoUsageCounter,
      GridFsBlobStore,
    ];
    for (const adapter of classes) container.bind(adapter).toSelf().inSingletonScope();
    for (const adapter of classes) expect(container.get(adapter)).toBeInstanceOf(adapter);
    await unconnected.close();
  });

  it('gives up after the bounded retries with an error that names the host but not the password', async () => {
    const started = Date.now();
    const err = await connectMongo('mongodb://admin:s3cret@127.0.0.1:9/coffer', undefined, {
      retries: 1,
      delayMs: 10,
      serverSelectionTimeoutMS: 200,
    }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^Cannot connect to MongoDB at mongodb:\/\/\*\*\*@127\.0\.0\.1:9\/coffer after 2 attempts/);
    expect((err as Error).message).not.toContain('s3cret');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
