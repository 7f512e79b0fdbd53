import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import {
  MemoryCollectionRepository,
  MemoryFileRepository,
  MemoryFolderRepository,
  MemoryPasteRepository,
  MemoryShareRepository,
  MemoryTokenRepository,
  MemoryUsageCounter,
  MemoryUserRepository,
  createMemoryRepositories,
} from '../../src/adapters/memory/index.js';
import { collectionRepositoryContract } from './collection-repository.contract.js';
import { fileRepositoryContract } from './file-repository.contract.js';
import { folderRepositoryContract } from './folder-repository.contract.js';
import { pasteRepositoryContract } from './paste-repository.contract.js';
import { shareRepositoryContract } from './share-repository.contract.js';
import { tokenRepositoryContract } from './token-repository.contract.js';
import { usageCounterContract } from './usage-counter.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';

userRepositoryContract('MemoryUserRepository', async () => new MemoryUserRepository());
tokenRepositoryContract('MemoryTokenRepository', async () => new MemoryTokenRepository());
fileRepositoryContract('MemoryFileRepository', async () => new MemoryFileRepository());
folderRepositoryContract('MemoryFolderRepository', async () => new MemoryFolderRepository());
collectionRepositoryContract('MemoryCollectionRepository', async () => new MemoryCollectionRepository());
pasteRepositoryContract('MemoryPasteRepository', async () => new MemoryPasteRepository());
shareRepositoryContract('MemoryShareRepository', async () => new MemoryShareRepository());
usageCounterContract('MemoryUsageCounter', async () => new MemoryUsageCounter());

describe('memory adapters', () => {
  it('hand out fresh, unshared instances from createMemoryRepositories', async () => {
    const first = createMemoryRepositories();
    const second = createMemoryRepositories();
    await first.usage.reserve('u1', 'files', 1, 5);
    expect((await second.usage.get('u1')).files).toBe(0);
    expect(Object.keys(first).sort()).toEqual(
      ['collections', 'files', 'folders', 'pastes', 'shares', 'tokens', 'usage', 'users'],
    );
  });

  it('resolve from an Inversify container', () => {
    const container = new Container();
    const classes: (new () => object)[] = [
      MemoryUserRepository,
      MemoryTokenRepository,
      MemoryFileRepository,
      MemoryFolderRepository,
      MemoryCollectionRepository,
      MemoryPasteRepository,
      MemoryShareRepository,
      MemoryUsageCounter,
    ];
    for (const adapter of classes) container.bind(adapter).toSelf().inSingletonScope();
    for (const adapter of classes) expect(container.get(adapter)).toBeInstanceOf(adapter);
  });
});
