import type { Ports } from '../../application/ports/index.js';
import { MemoryCollectionRepository } from './memory-collection-repository.js';
import { MemoryFileRepository } from './memory-file-repository.js';
import { MemoryFolderRepository } from './memory-folder-repository.js';
import { MemoryPasteRepository } from './memory-paste-repository.js';
import { MemoryShareRepository } from './memory-share-repository.js';
import { MemoryTokenRepository } from './memory-token-repository.js';
import { MemoryUsageCounter } from './memory-usage-counter.js';
import { MemoryUserRepository } from './memory-user-repository.js';

export {
  MemoryCollectionRepository,
  MemoryFileRepository,
  MemoryFolderRepository,
  MemoryPasteRepository,
  MemoryShareRepository,
  MemoryTokenRepository,
  MemoryUsageCounter,
  MemoryUserRepository,
};

export type MemoryRepositories = Pick<
  Ports,
  'users' | 'tokens' | 'files' | 'folders' | 'collections' | 'pastes' | 'shares' | 'usage'
>;

/** A fresh, empty set of repositories: each call shares nothing with any other. */
export function createMemoryRepositories(): MemoryRepositories {
  return {
    users: new MemoryUserRepository(),
    tokens: new MemoryTokenRepository(),
    files: new MemoryFileRepository(),
    folders: new MemoryFolderRepository(),
    collections: new MemoryCollectionRepository(),
    pastes: new MemoryPasteRepository(),
    shares: new MemoryShareRepository(),
    usage: new MemoryUsageCounter(),
  };
}
