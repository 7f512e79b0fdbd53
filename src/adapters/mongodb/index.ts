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

export { BLOB_BUCKET, COLLECTIONS, connectMongo, ensureIndexes, MongoDb, type ConnectOptions } from './mongo-database.js';
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

/** Every repository on one database, for tests and embedding hosts that build the graph without a container. */
export function createMongoRepositories(db: Db): MongoRepositories {
  return {
    users: new MongoUserRepository(db),
    tokens: new MongoTokenRepository(db),
    files: new MongoFileRepository(db),
    folders: new MongoFolderRepository(db),
    collections: new MongoCollectionRepository(db),
    pastes: new MongoPasteRepository(db),
    shares: new MongoShareRepository(db),
    usage: new MongoUsageCounter(db),
  };
}
