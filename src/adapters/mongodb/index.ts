import { ActivityRetention, MongoActivityRepository } from './mongo-activity-repository.js';
import { MongoDeliveryRepository } from './mongo-delivery-repository.js';
import { MongoMailNotices } from './mongo-mail-notices.js';
import { MongoWebhookRepository } from './mongo-webhook-repository.js';
import { MongoSecondFactorRepository } from './mongo-second-factor-repository.js';
import { MongoPasskeyRepository } from './mongo-passkey-repository.js';
import { MongoWebAuthnChallengeRepository } from './mongo-webauthn-challenge-repository.js';
import { MongoMfaChallengeRepository } from './mongo-mfa-challenge-repository.js';
import { MongoPendingSignInRepository } from './mongo-pending-sign-in-repository.js';
import { GridFsBlobStore } from './gridfs-blob-store.js';
import { MongoCallers } from './mongo-callers.js';
import { MongoCollectionRepository } from './mongo-collection-repository.js';
import { MongoFileRepository } from './mongo-file-repository.js';
import { MongoInstanceLeases } from './mongo-instance-leases.js';
import { MongoFolderRepository } from './mongo-folder-repository.js';
import { MongoPasteRepository } from './mongo-paste-repository.js';
import { MongoLockStore, MongoPropertyStore } from './mongo-versioned-state.js';
import { MongoRequestRepository } from './mongo-request-repository.js';
import { MongoShareRepository } from './mongo-share-repository.js';
import { MongoTokenRepository } from './mongo-token-repository.js';
import { MongoUploadSessionRepository } from './mongo-upload-session-repository.js';
import { MongoUsageCounter } from './mongo-usage-counter.js';
import { MongoUsageReports } from './mongo-usage-reports.js';
import { MongoUserRepository } from './mongo-user-repository.js';

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
  ActivityRetention,
  MongoActivityRepository,
  MongoDeliveryRepository,
  MongoMailNotices,
  MongoWebhookRepository,
  GridFsBlobStore,
  MongoMfaChallengeRepository,
  MongoPendingSignInRepository,
  MongoSecondFactorRepository,
  MongoPasskeyRepository,
  MongoWebAuthnChallengeRepository,
  MongoCallers,
  MongoCollectionRepository,
  MongoFileRepository,
  MongoFolderRepository,
  MongoInstanceLeases,
  MongoPasteRepository,
  MongoRequestRepository,
  MongoShareRepository,
  MongoTokenRepository,
  MongoUploadSessionRepository,
  MongoUsageCounter,
  MongoUsageReports,
  MongoUserRepository,
  MongoLockStore,
  MongoPropertyStore,
};
