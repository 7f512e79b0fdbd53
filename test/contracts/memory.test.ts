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

  it('finds, takes and marks the right events after the oldest were cut off and others removed in between', async () => {
    const log = new MemoryActivityRepository();
    log.kept = 6000;
    const event = (n: number): ActivityEvent => ({
      id: `event-${String(n).padStart(5, '0')}`,
      at: new Date(Date.UTC(2026, 10, 28) + n),
      ownerId: 'alice',
      shareId: n % 2 ? 'odd' : 'even',
      requestId: null,
      kind: 'view',
      fileId: null,
      bytes: null,
      complete: null,
      client: { address: null, browser: null, os: null, bot: false },
      limitReached: null,
    });
    const lease = () => [new Date(), new Date(Date.now() + 60_000)] as const;
    // The first 500 dispatched, then 20,000 in all: the oldest 14,000 cut off, then the odd ones removed.
    for (let n = 1; n <= 500; n++) await log.add([event(n)]);
    const first = await log.takeUndispatched('x', ...lease(), 500);
    expect(await log.markDispatched(first.map((e) => e.id), 'x')).toBe(500);
    for (let n = 501; n <= 20_000; n += 100) await log.add(Array.from({ length: 100 }, (_, i) => event(n + i)));
    await log.removeFor({ shareIds: ['odd'] });
    const kept = await log.page({ ownerId: 'alice' }, null, 10_000);
    expect(kept.length).toBe(3000);
    expect(kept[0]!.id).toBe('event-20000');
    expect(kept.at(-1)!.id).toBe('event-14002');
    // Every kept event still waits, once; a mark finds each by its id.
    const taken = await log.takeUndispatched('y', ...lease(), 10_000);
    expect(taken.map((e) => e.id)).toEqual(kept.map((e) => e.id).reverse());
    expect(await log.markDispatched(taken.slice(0, 10).map((e) => e.id), 'x')).toBe(0);
    expect(await log.markDispatched([...taken.map((e) => e.id), 'event-00001', 'event-14001'], 'y')).toBe(3000);
    expect(await log.takeUndispatched('z', new Date(Date.now() + 120_000), new Date(Date.now() + 180_000), 10)).toEqual([]);
    // New events after all that are found and taken as usual.
    await log.add([event(20_001), event(20_002)]);
    expect((await log.takeUndispatched('z', ...lease(), 10)).map((e) => e.id)).toEqual(['event-20001', 'event-20002']);
    expect((await log.since({ shareId: 'even' }, new Date(Date.UTC(2026, 10, 28) + 19_998), 10)).map((e) => e.id)).toEqual([
      'event-19998',
      'event-20000',
      'event-20002',
    ]);
    expect(await log.sweep(new Date(Date.UTC(2026, 10, 28) + 20_001))).toBe(3000);
    expect((await log.page({ ownerId: 'alice' }, null, 10)).map((e) => e.id)).toEqual(['event-20002', 'event-20001']);
  });
});
