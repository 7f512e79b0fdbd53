import { MemoryActivityRepository } from './memory-activity-repository.js';
import { MemoryDeliveryRepository } from './memory-delivery-repository.js';
import { MemoryMailNotices } from './memory-mail-notices.js';
import { MemoryWebhookRepository } from './memory-webhook-repository.js';
import { MemorySecondFactorRepository } from './memory-second-factor-repository.js';
import { MemoryPasskeyRepository } from './memory-passkey-repository.js';
import { MemoryWebAuthnChallengeRepository } from './memory-webauthn-challenge-repository.js';
import { MemoryMfaChallengeRepository } from './memory-mfa-challenge-repository.js';
import { MemoryCallers } from './memory-callers.js';
import { MemoryCollectionRepository } from './memory-collection-repository.js';
import { MemoryFileRepository } from './memory-file-repository.js';
import { MemoryFolderRepository } from './memory-folder-repository.js';
import { MemoryInstanceLeases } from './memory-instance-leases.js';
import { MemoryPasteRepository } from './memory-paste-repository.js';
import { MemoryRequestRepository } from './memory-request-repository.js';
import { MemoryPendingSignInRepository } from './memory-pending-sign-in-repository.js';
import { MemoryShareRepository } from './memory-share-repository.js';
import { MemoryTokenRepository } from './memory-token-repository.js';
import { MemoryUploadSessionRepository } from './memory-upload-session-repository.js';
import { MemoryUsageCounter } from './memory-usage-counter.js';
import { MemoryUsageReports } from './memory-usage-reports.js';
import { MemoryUserRepository } from './memory-user-repository.js';
import { MemoryLockStore, MemoryPropertyStore } from './memory-versioned-state.js';

export {
  MemorySecondFactorRepository,
  MemoryPasskeyRepository,
  MemoryWebAuthnChallengeRepository,
  MemoryMfaChallengeRepository,
  MemoryCallers,
  MemoryCollectionRepository,
  MemoryFileRepository,
  MemoryFolderRepository,
  MemoryInstanceLeases,
  MemoryPasteRepository,
  MemoryRequestRepository,
  MemoryPendingSignInRepository,
  MemoryShareRepository,
  MemoryTokenRepository,
  MemoryUploadSessionRepository,
  MemoryUsageCounter,
  MemoryUsageReports,
  MemoryUserRepository,
  MemoryLockStore,
  MemoryPropertyStore,
  MemoryActivityRepository,
  MemoryWebhookRepository,
  MemoryDeliveryRepository,
  MemoryMailNotices,
};
