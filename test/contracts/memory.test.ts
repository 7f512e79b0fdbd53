import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/domain/index.js';
import {
  MemoryCallers,
  MemoryCollectionRepository,
  MemoryFileRepository,
  MemoryFolderRepository,
  MemoryInstanceLeases,
  MemoryMfaChallengeRepository,
  MemoryPasskeyRepository,
  MemoryPasteRepository,
  MemoryRequestRepository,
  MemoryPendingSignInRepository,
  MemorySecondFactorRepository,
  MemoryShareRepository,
  MemoryTokenRepository,
  MemoryUploadSessionRepository,
  MemoryUsageCounter,
  MemoryUsageReports,
  MemoryUserRepository,
  MemoryWebAuthnChallengeRepository,
  MemoryLockStore,
  MemoryPropertyStore,
  MemoryActivityRepository,
  MemoryWebhookRepository,
  MemoryDeliveryRepository,
  MemoryMailNotices,
} from '../../src/adapters/memory/index.js';
import { activityRepositoryContract, deliveryRepositoryContract, mailNoticesContract, webhookRepositoryContract } from './activity.contract.js';
import { makeCore } from '../support/core.js';
import { callersContract } from './callers.contract.js';
import { collectionRepositoryContract } from './collection-repository.contract.js';
import { fileRepositoryContract } from './file-repository.contract.js';
import { folderRepositoryContract } from './folder-repository.contract.js';
import { instanceLeasesContract } from './instance-leases.contract.js';
import { keysetPagesContract } from './keyset-pages.contract.js';
import { passkeyRepositoryContract, passkeySlotsContract, webauthnChallengeRepositoryContract } from './passkeys.contract.js';
import { pasteRepositoryContract } from './paste-repository.contract.js';
import { requestRepositoryContract } from './request-repository.contract.js';
import { pendingSignInRepositoryContract } from './pending-sign-ins.contract.js';
import { mfaChallengeRepositoryContract, secondFactorRepositoryContract } from './second-factors.contract.js';
import { shareRepositoryContract } from './share-repository.contract.js';
import { tokenRepositoryContract } from './token-repository.contract.js';
import { usageCounterContract } from './usage-counter.contract.js';
import { uploadSessionRepositoryContract } from './upload-session-repository.contract.js';
import { usageReportsContract } from './usage-reports.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';
import { lockStoreContract, propertyStoreContract } from './versioned-state.contract.js';

userRepositoryContract('MemoryUserRepository', async () => new MemoryUserRepository());
tokenRepositoryContract('MemoryTokenRepository', async () => new MemoryTokenRepository());
callersContract('MemoryCallers', async () => {
  const [tokens, users] = [new MemoryTokenRepository(), new MemoryUserRepository()];
  return { callers: new MemoryCallers(tokens, users), tokens, users };
});
secondFactorRepositoryContract('MemorySecondFactorRepository', async () => new MemorySecondFactorRepository());
mfaChallengeRepositoryContract('MemoryMfaChallengeRepository', async () => new MemoryMfaChallengeRepository());
passkeySlotsContract('MemorySecondFactorRepository', async () => new MemorySecondFactorRepository());
passkeyRepositoryContract('MemoryPasskeyRepository', async () => new MemoryPasskeyRepository());
webauthnChallengeRepositoryContract('MemoryWebAuthnChallengeRepository', async () => new MemoryWebAuthnChallengeRepository());
pendingSignInRepositoryContract('MemoryPendingSignInRepository', async () => new MemoryPendingSignInRepository());
fileRepositoryContract('MemoryFileRepository', async () => new MemoryFileRepository());
folderRepositoryContract('MemoryFolderRepository', async () => new MemoryFolderRepository());
collectionRepositoryContract('MemoryCollectionRepository', async () => new MemoryCollectionRepository());
pasteRepositoryContract('MemoryPasteRepository', async () => new MemoryPasteRepository());
requestRepositoryContract('MemoryRequestRepository', async () => new MemoryRequestRepository());
shareRepositoryContract('MemoryShareRepository', async () => new MemoryShareRepository());
instanceLeasesContract('MemoryInstanceLeases', async () => new MemoryInstanceLeases());
propertyStoreContract('MemoryPropertyStore', async () => new MemoryPropertyStore());
lockStoreContract('MemoryLockStore', async () => new MemoryLockStore());
activityRepositoryContract('MemoryActivityRepository', async () => new MemoryActivityRepository());
webhookRepositoryContract('MemoryWebhookRepository', async () => new MemoryWebhookRepository());
deliveryRepositoryContract('MemoryDeliveryRepository', async () => new MemoryDeliveryRepository());
mailNoticesContract('MemoryMailNotices', async () => new MemoryMailNotices());
usageCounterContract('MemoryUsageCounter', async () => new MemoryUsageCounter());
uploadSessionRepositoryContract('MemoryUploadSessionRepository', async () => new MemoryUploadSessionRepository());
usageReportsContract('MemoryUsageReports', async () => {
  const [usage, users] = [new MemoryUsageCounter(), new MemoryUserRepository()];
  return { reports: new MemoryUsageReports(usage, users), usage, users };
});
keysetPagesContract('memory adapters', async () => ({
  files: new MemoryFileRepository(),
  folders: new MemoryFolderRepository(),
  pastes: new MemoryPasteRepository(),
  collections: new MemoryCollectionRepository(),
  tokens: new MemoryTokenRepository(),
}));

describe('memory adapters', () => {
  it('are fresh and unshared in every graph the composition root builds', async () => {
    const first = makeCore().ports;
    const second = makeCore().ports;
    await first.usage.reserve('u1', 'files', 1, 5);
    expect((await second.usage.get('u1')).files).toBe(0);
    for (const port of ['users', 'tokens', 'files', 'folders', 'collections', 'pastes', 'shares', 'usage'] as const) {
      expect(first[port]).not.toBe(second[port]);
    }
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

describe('MemoryActivityRepository without a database', () => {
  it('keeps the newest events past its bound, the oldest going first (waiting ones included)', async () => {
    const log = new MemoryActivityRepository();
    log.kept = 3;
    const event = (n: number): ActivityEvent => ({
      id: `event-${n}`,
      at: new Date(Date.UTC(2026, 10, 28, 0, 0, n)),
      ownerId: 'alice',
      shareId: 'share-1',
      requestId: null,
      kind: 'view',
      fileId: null,
      bytes: null,
      complete: null,
      client: { address: null, browser: '', os: '', bot: false },
      limitReached: null,
    });
    for (let n = 1; n <= 5000; n++) await log.add([event(n)]);
    expect((await log.page({ ownerId: 'alice' }, null, 10)).map((e) => e.id)).toEqual(['event-5000', 'event-4999', 'event-4998']);
    const waiting = await log.takeUndispatched('x', new Date(), new Date(Date.now() + 60_000), 10);
    expect(waiting.map((e) => e.id)).toEqual(['event-4998', 'event-4999', 'event-5000']);
  });
});
