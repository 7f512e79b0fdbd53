import type { Db } from 'mongodb';
import type { Ports } from '../../application/ports/index.js';
import { GridFsBlobStore } from './gridfs-blob-store.js';
import { MongoCollectionRepository } from './mongo-collection-repository.js';
import { MongoFileRepository } from './mongo-file-repository.js';
import { MongoFolderRepository } from './mongo-folder-repository.js';
import { MongoPasteRepository } from './mongo-paste-repository.js';
import { MongoShareRepository } from './mongo-share-repository.js';
import { MongoTokenRepository } from './mongo-token-repository.js';
import { MongoUsageCounter } from './mongo-usage-counter.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { unavailableWhenDisconnected } from './unavailable.js';

export { BLOB_BUCKET, COLLECTIONS, connectMongo, ensureIndexes, MongoDb, type ConnectOptions } from './mongo-database.js';
export {
  obtainMongod,
  probeMongod,
  startEmbeddedMongod,
  type EmbeddedMongod,
  type MongodSource,
} from './embedded-mongod.js';
export { databaseUnavailable, isDatabaseUnavailable, unavailableWhenDisconnected } from './unavailable.js';
export {
  GridFsBlobStore,
  MongoCollectionRepository,
  MongoFileRepository,
  MongoFolderRepository,
  MongoPasteRepository,
  MongoShareRepository,
  MongoTokenRepository,
  MongoUsageCounter,
  MongoUserRepository,
};

export type MongoRepositories = Pick<
  Ports,
  'users' | 'tokens' | 'files' | 'folders' | 'collections' | 'pastes' | 'shares' | 'usage'
>;

/**
 * Every repository on one database, for tests and embedding hosts that build the graph without a container; as in
 * the container, a lost connection surfaces as the core's `unavailable` error.
 */
export function createMongoRepositories(db: Db): MongoRepositories {
  const guard = unavailableWhenDisconnected;
  return {
    users: guard(new MongoUserRepository(db)),
    tokens: guard(new MongoTokenRepository(db)),
    files: guard(new MongoFileRepository(db)),
    folders: guard(new MongoFolderRepository(db)),
    collections: guard(new MongoCollectionRepository(db)),
    pastes: guard(new MongoPasteRepository(db)),
    shares: guard(new MongoShareRepository(db)),
    usage: guard(new MongoUsageCounter(db)),
  };
}
