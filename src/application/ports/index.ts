import type { BlobStore } from './blob-store.js';
import type { Callers } from './callers.js';
import type { Clock } from './clock.js';
import type { CollectionRepository } from './collection-repository.js';
import type { FileRepository } from './file-repository.js';
import type { FolderRepository } from './folder-repository.js';
import type { IdGenerator } from './id-generator.js';
import type { PasswordHasher } from './password-hasher.js';
import type { PasteRepository } from './paste-repository.js';
import type { CoreSettings } from './settings.js';
import type { ShareRepository } from './share-repository.js';
import type { Throttle } from './throttle.js';
import type { TokenRepository } from './token-repository.js';
import type { TokenSecrets } from './token-secrets.js';
import type { UsageCounter } from './usage-counter.js';
import type { UsageReports } from './usage-reports.js';
import type { UserRepository } from './user-repository.js';

export * from './blob-store.js';
export * from './callers.js';
export * from './clock.js';
export * from './collection-repository.js';
export * from './file-repository.js';
export * from './folder-repository.js';
export * from './id-generator.js';
export * from './page-keys.js';
export * from './password-hasher.js';
export * from './paste-repository.js';
export * from './settings.js';
export * from './share-repository.js';
export * from './throttle.js';
export * from './token-repository.js';
export * from './token-secrets.js';
export * from './usage-counter.js';
export * from './usage-reports.js';
export * from './user-repository.js';

/** Everything the core needs from the world; use cases take the part they use. */
export const Ports = Symbol('Ports');
export interface Ports {
  users: UserRepository;
  tokens: TokenRepository;
  callers: Callers;
  files: FileRepository;
  folders: FolderRepository;
  collections: CollectionRepository;
  pastes: PasteRepository;
  shares: ShareRepository;
  usage: UsageCounter;
  reports: UsageReports;
  blobs: BlobStore;
  hasher: PasswordHasher;
  ids: IdGenerator;
  secrets: TokenSecrets;
  clock: Clock;
  settings: CoreSettings;
  throttle: Throttle;
}
