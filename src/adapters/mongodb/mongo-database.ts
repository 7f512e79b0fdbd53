import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient, type Db, type IndexDescription } from 'mongodb';

/** The injection token of the connected `Db` every MongoDB repository works on. */
export const MongoDb = Symbol('MongoDb');

/** Collection names, in one place so indexes and repositories cannot drift apart. */
export const COLLECTIONS = {
  users: 'users',
  tokens: 'tokens',
  files: 'files',
  folders: 'folders',
  folderLeases: 'folder_leases',
  collections: 'collections',
  pastes: 'pastes',
  shares: 'shares',
  usage: 'usage',
  /** Resumable (tus) uploads under way. */
  uploads: 'uploads',
  /** Deployment-wide counts that guard invariants spanning many records (the admins). */
  counters: 'counters',
  /** One lease per running instance: unfinished work names its instance, and a lease that ran out marks it dead. */
  instanceLeases: 'instance_leases',
  /** One record per user with a second factor: the TOTP secret, the last step used, recovery-code digests. */
  secondFactors: 'second_factors',
  /** Sign-ins waiting for their second factor (mfaToken digests), 5 minutes each. */
  mfaChallenges: 'mfa_challenges',
  /** Registered passkeys (WebAuthn credentials); how many each user has is counted on their second_factors record. */
  passkeys: 'passkeys',
  /** WebAuthn challenges handed out with options, 5 minutes each, taken once. */
  webauthnChallenges: 'webauthn_challenges',
  /** File requests: links through which people without an account send files to an owner. */
  requests: 'requests',
  /** Single sign-ons on their way through the provider (state digests), 10 minutes each. */
  pendingSignIns: 'pending_sign_ins',
  /** One record per user: the properties WebDAV clients stored on their items (dead properties), by item id. */
  itemProperties: 'item_properties',
  /** One record per user: the WebDAV write locks their clients hold. */
  writeLocks: 'write_locks',
  /** What happened to shares and requests: counted reads, refusals, received files; each waits for dispatch. */
  activity: 'activity',
  /** One document per user holding their webhooks (at most 10). */
  webhooks: 'webhooks',
  /** The webhook outbox: one row per webhook and event, taken under leases. */
  webhookDeliveries: 'webhook_deliveries',
  /** The address each user gave for mail notices. */
  mailAddresses: 'mail_addresses',
  /** Per share or request with mail notices on: what waits to be told, and when the last mail went. */
  mailNotices: 'mail_notices',
} as const;

export const BLOB_BUCKET = 'blobs';

export interface ConnectOptions {
  /** Attempts after the first one. */
  retries?: number;
  delayMs?: number;
  serverSelectionTimeoutMS?: number;
  /** Told about each failed attempt that will be retried, so a waiting start-up says why it waits. */
  onRetry?: (attempt: number, of: number, reason: string) => void;
}

/** Database used when neither the argument nor the URI names one. */
const DEFAULT_DB = 'coffer';

/**
 * Connects and pings, retrying a bounded number of times (a database container often starts after the app).
 * The error names the host without credentials and says what the last attempt saw.
 */
export async function connectMongo(
  uri: string,
  dbName?: string,
  { retries = 5, delayMs = 1000, serverSelectionTimeoutMS = 5000, onRetry }: ConnectOptions = {},
): Promise<{ client: MongoClient; db: Db }> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(delayMs);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS });
    try {
      await client.connect();
      const db = client.db(dbName ?? dbNameIn(uri) ?? DEFAULT_DB);
      await db.command({ ping: 1 });
      return { client, db };
    } catch (err) {
      lastError = err;
      await client.close().catch(() => undefined);
      if (attempt < retries) onRetry?.(attempt + 1, retries + 1, err instanceof Error ? err.message : String(err));
    }
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new Error(`Cannot connect to MongoDB at ${redact(uri)} after ${retries + 1} attempts: ${reason}`);
}

/** The database named in the URI path, if any. */
function dbNameIn(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/** Strips `user:password@` so a password never reaches a log. */
function redact(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1***@');
}

const INDEXES: Record<string, IndexDescription[]> = {
  [COLLECTIONS.activity]: [
    { key: { ownerId: 1, at: -1, _id: -1 }, name: 'owner_at' },
    { key: { ownerId: 1, kind: 1, at: -1, _id: -1 }, name: 'owner_kind_at' },
    { key: { shareId: 1, at: -1, _id: -1 }, name: 'share_at' },
    { key: { requestId: 1, at: -1, _id: -1 }, name: 'request_at' },
    // Only events waiting for dispatch are in it: a take never walks the dispatched ones.
    { key: { at: 1 }, partialFilterExpression: { dispatched: false }, name: 'waiting' },
    { key: { expiresAt: 1 }, expireAfterSeconds: 0, name: 'retention_ttl' },
  ],
  [COLLECTIONS.mailNotices]: [{ key: { pending: 1, lastSentAt: 1 }, partialFilterExpression: { pending: true }, name: 'due' }],
  [COLLECTIONS.webhooks]: [{ key: { 'hooks.id': 1 }, name: 'hook_id' }],
  [COLLECTIONS.webhookDeliveries]: [
    { key: { nextAttemptAt: 1 }, partialFilterExpression: { state: 'pending' }, name: 'due' },
    { key: { webhookId: 1, createdAt: -1, _id: -1 }, name: 'webhook_created' },
  ],
  [COLLECTIONS.users]: [
    { key: { usernameLower: 1 }, unique: true, name: 'username_unique' },
    // One account per single sign-on identity. Users without one have no `oidc` field (never null): sparse leaves them
    // out (a sparse rather than a partial index, which every server speaking the protocol honours alike).
    { key: { 'oidc.issuer': 1, 'oidc.subject': 1 }, unique: true, sparse: true, name: 'oidc_unique' },
    { key: { createdAt: 1, _id: 1 }, name: 'created' },
  ],
  [COLLECTIONS.tokens]: [
    { key: { hash: 1 }, unique: true, name: 'hash_unique' },
    { key: { userId: 1, type: 1, createdAt: 1, _id: 1 }, name: 'user_type_created' },
    // Sessions vanish once expired; uploader tokens carry expiresAt null, which a TTL index never removes.
    { key: { expiresAt: 1 }, expireAfterSeconds: 0, name: 'session_ttl' },
  ],
  [COLLECTIONS.mfaChallenges]: [{ key: { expiresAt: 1 }, expireAfterSeconds: 0, name: 'challenge_ttl' }],
  [COLLECTIONS.webauthnChallenges]: [{ key: { expiresAt: 1 }, expireAfterSeconds: 0, name: 'challenge_ttl' }],
  [COLLECTIONS.passkeys]: [
    { key: { credentialId: 1 }, unique: true, name: 'credential_unique' },
    { key: { userId: 1, createdAt: 1, _id: 1 }, name: 'user_created' },
  ],
  [COLLECTIONS.pendingSignIns]: [{ key: { expiresAt: 1 }, expireAfterSeconds: 0, name: 'pending_ttl' }],
  [COLLECTIONS.files]: [
    { key: { ownerId: 1, folderId: 1, nameLower: 1, _id: 1 }, name: 'owner_folder_name' },
    { key: { ownerId: 1, nameLower: 1, _id: 1 }, name: 'owner_name' },
    // The sweep of orphan bytes asks which blob keys are referenced.
    { key: { blobKey: 1 }, name: 'blob_key' },
    // A removal cut short finds the files it claimed; only files being removed carry a claim.
    { key: { claim: 1 }, sparse: true, name: 'claim' },
  ],
  [COLLECTIONS.folders]: [
    { key: { ownerId: 1, parentId: 1, nameLower: 1, _id: 1 }, name: 'owner_parent_name' },
    { key: { ownerId: 1, nameLower: 1, _id: 1 }, name: 'owner_name' },
    { key: { claim: 1 }, sparse: true, name: 'claim' },
  ],
  // A lease whose time ran out is free already; the TTL only keeps abandoned ones from piling up.
  [COLLECTIONS.folderLeases]: [{ key: { until: 1 }, expireAfterSeconds: 0, name: 'lease_ttl' }],
  [COLLECTIONS.collections]: [
    { key: { ownerId: 1, createdAt: 1, _id: 1 }, name: 'owner_created' },
    { key: { ownerId: 1, fileIds: 1 }, name: 'owner_files' },
  ],
  [COLLECTIONS.pastes]: [{ key: { ownerId: 1, createdAt: 1, _id: 1 }, name: 'owner_created' }],
  [COLLECTIONS.requests]: [
    { key: { ownerId: 1, createdAt: 1, _id: 1 }, name: 'owner_created' },
    // The room unfinished uploads hold, found from the hold's id alone (giveBackHeld, settleHeld).
    { key: { holds: 1 }, name: 'holds' },
  ],
  // Share ids are the `_id`, unique by construction; the second index allows one share per item.
  [COLLECTIONS.shares]: [
    { key: { type: 1, itemId: 1 }, unique: true, name: 'item_unique' },
    { key: { ownerId: 1, createdAt: 1, _id: 1 }, name: 'owner_created' },
    // A deletion finds the shares it claimed; only shares being deleted carry a claim.
    { key: { claim: 1 }, sparse: true, name: 'claim' },
  ],
  // The sweep after a crash finds the users whose counters name an instance that is gone.
  [COLLECTIONS.usage]: [{ key: { writers: 1 }, name: 'writers' }],
  [COLLECTIONS.uploads]: [
    { key: { expiresAt: 1 }, name: 'expires' },
    { key: { ownerId: 1 }, name: 'owner' },
    // The sweep of orphan bytes asks which blob keys are parts of an upload under way.
    { key: { 'parts.key': 1 }, name: 'part_keys' },
  ],
  // A lease missing reads as run out, so one is dropped a day after it ran out (an instance ended: at once).
  [COLLECTIONS.instanceLeases]: [{ key: { until: 1 }, expireAfterSeconds: 86_400, name: 'lease_ttl' }],
  // The GridFS spec's own indexes, created up front rather than on the first upload.
  [`${BLOB_BUCKET}.files`]: [{ key: { filename: 1, uploadDate: 1 }, name: 'filename_1_uploadDate_1' }],
  [`${BLOB_BUCKET}.chunks`]: [{ key: { files_id: 1, n: 1 }, unique: true, name: 'files_id_1_n_1' }],
};

/** Idempotent: creating an index that exists with the same definition is a no-op. */
export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all(
    Object.entries(INDEXES).map(([collection, indexes]) => db.collection(collection).createIndexes(indexes)),
  );
}
