import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { Container, type Newable, type ServiceIdentifier } from 'inversify';
import type { Db } from 'mongodb';
import { Core, createCore } from '../application/index.js';
import {
  ActivityRecorder,
  ActivityRepository,
  DeliveryRepository,
  WebhookRepository,
  WebhookSender,
  Mailer,
  MailNotices,
  BlobStore,
  Clock,
  CollectionRepository,
  CoreSettings,
  FileRepository,
  FolderRepository,
  IdGenerator,
  IdentityProvider,
  Instance,
  InstanceLeases,
  PasswordHasher,
  PasteRepository,
  RequestRepository,
  PendingSignInRepository,
  PropertyStore,
  LockStore,
  Ports,
  ShareRepository,
  Throttle,
  TokenRepository,
  SecondFactorRepository,
  MfaChallengeRepository,
  OneTimeCodes,
  PasskeyRepository,
  WebAuthn,
  WebAuthnChallengeRepository,
  Callers,
  TokenSecrets,
  UploadSessionRepository,
  UsageCounter,
  UsageReports,
  UserRepository,
} from '../application/ports/index.js';
import { Argon2Hasher, Argon2Options, OWASP_ARGON2 } from '../adapters/argon2/argon2-hasher.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { CryptoIdGenerator } from '../adapters/crypto/crypto-id-generator.js';
import { CryptoTokenSecrets } from '../adapters/crypto/crypto-token-secrets.js';
import { OtplibCodes } from '../adapters/otp/otplib-codes.js';
import { SimpleWebAuthn } from '../adapters/webauthn/simple-webauthn.js';
import { FsBlobStore, FsBlobStoreOptions } from '../adapters/fs-blob-store/fs-blob-store.js';
import { HttpApp } from '../adapters/http/http-app.js';
import { HttpOptions, type HttpLogger } from '../adapters/http/http-options.js';
import { MemoryBlobStore } from '../adapters/memory-blob-store/memory-blob-store.js';
import {
  MemoryCollectionRepository,
  MemoryFileRepository,
  MemoryFolderRepository,
  MemoryInstanceLeases,
  MemoryPasteRepository,
  MemoryRequestRepository,
  MemoryPendingSignInRepository,
  MemoryPropertyStore,
  MemoryLockStore,
  MemoryShareRepository,
  MemoryTokenRepository,
  MemorySecondFactorRepository,
  MemoryMfaChallengeRepository,
  MemoryPasskeyRepository,
  MemoryWebAuthnChallengeRepository,
  MemoryUploadSessionRepository,
  MemoryCallers,
  MemoryUsageCounter,
  MemoryUsageReports,
  MemoryUserRepository,
  MemoryActivityRepository,
  MemoryWebhookRepository,
  MemoryDeliveryRepository,
  MemoryMailNotices,
} from '../adapters/memory/index.js';
import {
  GridFsBlobStore,
  MongoCollectionRepository,
  MongoDb,
  MongoFileRepository,
  MongoFolderRepository,
  MongoInstanceLeases,
  MongoPasteRepository,
  MongoRequestRepository,
  MongoPendingSignInRepository,
  MongoPropertyStore,
  MongoLockStore,
  MongoShareRepository,
  MongoTokenRepository,
  MongoSecondFactorRepository,
  MongoMfaChallengeRepository,
  MongoPasskeyRepository,
  MongoWebAuthnChallengeRepository,
  MongoUploadSessionRepository,
  MongoCallers,
  MongoUsageCounter,
  MongoUsageReports,
  MongoUserRepository,
  unavailableWhenDisconnected,
  ActivityRetention,
  MongoActivityRepository,
  MongoWebhookRepository,
  MongoDeliveryRepository,
  MongoMailNotices,
} from '../adapters/mongodb/index.js';
import { NodemailerMailer, NoMailer } from '../adapters/mail/nodemailer-mailer.js';
import { HttpWebhookSender } from '../adapters/webhook/http-webhook-sender.js';
import { LoggedActivityRecorder } from './activity-recorder.js';
import { MemoryThrottle, MongoThrottle, MongoThrottleOptions } from '../adapters/rate-limit/index.js';
import { NoIdentityProvider } from '../adapters/oidc/no-identity-provider.js';
import type { OidcClientOptions } from '../adapters/oidc/oidc-options.js';
import { OpenIdClientProvider } from '../adapters/oidc/openid-client-provider.js';
import type { Config } from './config.js';
import { claimEphemeralBlobDir, type EphemeralBlobDir } from './ephemeral-blobs.js';
import { LeaseKeeper, timingOf } from './instance-lease.js';
import { createLogger, type Logger } from './logger.js';
import { memoryPersistence, Persistence, type BlobStoreChoice } from './connect-persistence.js';

export { connectPersistence, memoryPersistence, Persistence, type ConnectOptions } from './connect-persistence.js';

export interface BuildOptions {
  logger?: Logger;
  /** What the HTTP adapter logs to; defaults to `logger` (tests capture it). */
  httpLogger?: HttpLogger;
  /** Overrides BLOB_STORE; `memory` keeps bytes in the process (tests only: nothing durable goes with it). */
  blobStore?: BlobStoreChoice;
  /** Overrides the argon2 parameters (tests use cheap ones; production keeps OWASP's floor or more). */
  argon2?: Argon2Options;
  /** From connectPersistence. Without it the graph runs on the in-memory adapters (tests, embedding). */
  persistence?: Persistence;
  /** Replaces the system clock (tests move time by hand). */
  clock?: Clock;
  /** Replaces the random id generator. */
  ids?: IdGenerator;
  /** Wraps the ports before the core is built on them (fault injection, recording); the container hands out the result. */
  wrapPorts?: (ports: Ports) => Ports;
  /** The built front end the HTTP adapter serves; defaults to web/dist of this checkout, null serves none. */
  webDir?: string | null;
  /**
   * On memory persistence: use the records and bytes of this other graph instead of fresh ones, so that two instances
   * share one in-memory database as two share one MongoDB (tests of what one instance's death leaves to the other).
   */
  memoryOf?: Container;
  /** Single sign-on's retry pace: after a failed discovery, and how long a look at availability waits (tests shorten). */
  ssoTiming?: Partial<Pick<OidcClientOptions, 'retryMs' | 'waitMs'>>;
}

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The token of every port; `satisfies` makes a port added to Ports but not bound here a type error. */
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const PORT_TOKENS = {
  users: UserRepository,
  tokens: TokenRepository,
  callers: Callers,
  files: FileRepository,
  folders: FolderRepository,
  collections: CollectionRepository,
  pastes: PasteRepository,
  shares: ShareRepository,
  uploads: UploadSessionRepository,
  usage: UsageCounter,
  reports: UsageReports,
  blobs: BlobStore,
  hasher: PasswordHasher,
  ids: IdGenerator,
  instance: Instance,
  secrets: TokenSecrets,
  clock: Clock,
  settings: CoreSettings,
  throttle: Throttle,
  secondFactors: SecondFactorRepository,
  mfaChallenges: MfaChallengeRepository,
  codes: OneTimeCodes,
  passkeys: PasskeyRepository,
  webauthnChallenges: WebAuthnChallengeRepository,
  webauthn: WebAuthn,
  requests: RequestRepository,
  pendingSignIns: PendingSignInRepository,
  identityProvider: IdentityProvider,
  properties: PropertyStore,
  locks: LockStore,
  activity: ActivityRecorder,
  activityLog: ActivityRepository,
  webhooks: WebhookRepository,
  deliveries: DeliveryRepository,
  webhookSender: WebhookSender,
  mailNotices: MailNotices,
  mailer: Mailer,
} as const satisfies Record<keyof Ports, symbol>;

/** What a memory persistence holds: every token it binds, and the bytes that go with its records. */
const MEMORY_TOKENS: ServiceIdentifier[] = [
  UserRepository,
  TokenRepository,
  Callers,
  FileRepository,
  FolderRepository,
  CollectionRepository,
  PasteRepository,
  ShareRepository,
  UploadSessionRepository,
  UsageCounter,
  UsageReports,
  InstanceLeases,
  Throttle,
  SecondFactorRepository,
  MfaChallengeRepository,
  PasskeyRepository,
  WebAuthnChallengeRepository,
  RequestRepository,
  PendingSignInRepository,
  PropertyStore,
  LockStore,
  ActivityRepository,
  WebhookRepository,
  DeliveryRepository,
  MailNotices,
  BlobStore,
];

/** The persistence seam: memory and MongoDB bind the same tokens, and the throttle's counters go alongside. */
function bindMemoryPersistence(container: Container): void {
  container.bind(UserRepository).to(MemoryUserRepository).inSingletonScope();
  container.bind(TokenRepository).to(MemoryTokenRepository).inSingletonScope();
  container.bind(Callers).to(MemoryCallers).inSingletonScope();
  container.bind(FileRepository).to(MemoryFileRepository).inSingletonScope();
  container.bind(FolderRepository).to(MemoryFolderRepository).inSingletonScope();
  container.bind(CollectionRepository).to(MemoryCollectionRepository).inSingletonScope();
  container.bind(PasteRepository).to(MemoryPasteRepository).inSingletonScope();
  container.bind(RequestRepository).to(MemoryRequestRepository).inSingletonScope();
  container.bind(ShareRepository).to(MemoryShareRepository).inSingletonScope();
  container.bind(UploadSessionRepository).to(MemoryUploadSessionRepository).inSingletonScope();
  container.bind(UsageCounter).to(MemoryUsageCounter).inSingletonScope();
  container.bind(UsageReports).to(MemoryUsageReports).inSingletonScope();
  container.bind(InstanceLeases).to(MemoryInstanceLeases).inSingletonScope();
  container.bind(Throttle).to(MemoryThrottle).inSingletonScope();
  container.bind(SecondFactorRepository).to(MemorySecondFactorRepository).inSingletonScope();
  container.bind(MfaChallengeRepository).to(MemoryMfaChallengeRepository).inSingletonScope();
  container.bind(PasskeyRepository).to(MemoryPasskeyRepository).inSingletonScope();
  container.bind(WebAuthnChallengeRepository).to(MemoryWebAuthnChallengeRepository).inSingletonScope();
  container.bind(PendingSignInRepository).to(MemoryPendingSignInRepository).inSingletonScope();
  container.bind(PropertyStore).to(MemoryPropertyStore).inSingletonScope();
  container.bind(LockStore).to(MemoryLockStore).inSingletonScope();
  container.bind(ActivityRepository).to(MemoryActivityRepository).inSingletonScope();
  container.bind(WebhookRepository).to(MemoryWebhookRepository).inSingletonScope();
  container.bind(DeliveryRepository).to(MemoryDeliveryRepository).inSingletonScope();
  container.bind(MailNotices).to(MemoryMailNotices).inSingletonScope();
}

function bindSharedMemory(container: Container, source: Container): void {
  for (const token of MEMORY_TOKENS) container.bind(token).toConstantValue(source.get(token));
}

/** A lost connection becomes the core's `unavailable` error (503), whichever adapter method met it. */
function bindGuarded<T extends object>(container: Container, token: ServiceIdentifier<T>, adapter: Newable<T>): void {
  container
    .bind<T>(token)
    .to(adapter)
    .inSingletonScope()
    .onActivation((_, instance) => unavailableWhenDisconnected(instance));
}

function bindMongoPersistence(container: Container, db: Db, retentionMs: number): void {
  container.bind(MongoDb).toConstantValue(db);
  container.bind(ActivityRetention).toConstantValue(retentionMs);
  bindGuarded<UserRepository>(container, UserRepository, MongoUserRepository);
  bindGuarded<TokenRepository>(container, TokenRepository, MongoTokenRepository);
  bindGuarded<Callers>(container, Callers, MongoCallers);
  bindGuarded<FileRepository>(container, FileRepository, MongoFileRepository);
  bindGuarded<FolderRepository>(container, FolderRepository, MongoFolderRepository);
  bindGuarded<CollectionRepository>(container, CollectionRepository, MongoCollectionRepository);
  bindGuarded<PasteRepository>(container, PasteRepository, MongoPasteRepository);
  bindGuarded<RequestRepository>(container, RequestRepository, MongoRequestRepository);
  bindGuarded<ShareRepository>(container, ShareRepository, MongoShareRepository);
  bindGuarded<UploadSessionRepository>(container, UploadSessionRepository, MongoUploadSessionRepository);
  bindGuarded<UsageCounter>(container, UsageCounter, MongoUsageCounter);
  bindGuarded<UsageReports>(container, UsageReports, MongoUsageReports);
  bindGuarded<InstanceLeases>(container, InstanceLeases, MongoInstanceLeases);
  bindGuarded<SecondFactorRepository>(container, SecondFactorRepository, MongoSecondFactorRepository);
  bindGuarded<MfaChallengeRepository>(container, MfaChallengeRepository, MongoMfaChallengeRepository);
  bindGuarded<PasskeyRepository>(container, PasskeyRepository, MongoPasskeyRepository);
  bindGuarded<WebAuthnChallengeRepository>(container, WebAuthnChallengeRepository, MongoWebAuthnChallengeRepository);
  bindGuarded<PendingSignInRepository>(container, PendingSignInRepository, MongoPendingSignInRepository);
  bindGuarded<PropertyStore>(container, PropertyStore, MongoPropertyStore);
  bindGuarded<LockStore>(container, LockStore, MongoLockStore);
  bindGuarded<ActivityRepository>(container, ActivityRepository, MongoActivityRepository);
  bindGuarded<WebhookRepository>(container, WebhookRepository, MongoWebhookRepository);
  bindGuarded<DeliveryRepository>(container, DeliveryRepository, MongoDeliveryRepository);
  bindGuarded<MailNotices>(container, MailNotices, MongoMailNotices);
  // Shared lockouts: every instance behind the database counts the same failed attempts.
  container.bind(MongoThrottleOptions).toConstantValue({ db });
  bindGuarded<Throttle>(container, Throttle, MongoThrottle);
}

function bindBlobStore(container: Container, config: Config, kind: BlobStoreChoice, db: Db | null): void {
  if (kind === 'memory') {
    container.bind(BlobStore).to(MemoryBlobStore).inSingletonScope();
  } else if (kind === 'gridfs') {
    if (db === null) throw new Error('BLOB_STORE=gridfs needs a MongoDB persistence');
    bindGuarded<BlobStore>(container, BlobStore, GridFsBlobStore);
  } else if (db === null) {
    // Records in memory: their bytes live and die with this run (ephemeral-blobs.ts), claimed on first use.
    let claimed: EphemeralBlobDir | null = null;
    container
      .bind<BlobStore>(BlobStore)
      .toResolvedValue(() => new FsBlobStore({ dir: (claimed = claimEphemeralBlobDir(config.dataDir)).dir }))
      .inSingletonScope()
      .onDeactivation(() => claimed?.remove());
  } else {
    container.bind(FsBlobStoreOptions).toConstantValue({ dir: config.dataDir });
    container.bind(BlobStore).to(FsBlobStore).inSingletonScope();
  }
}

const SSO_RETRY_MS = 30_000;
const SSO_WAIT_MS = 2_000;
const SSO_TIMEOUT_SECONDS = 10;

/**
 * Single sign-on's provider, one per instance (each discovers for itself); discovery starts with the graph and start-up
 * never waits for it. Without OIDC_ISSUER, a provider that is never available.
 */
function bindIdentityProvider(container: Container, config: Config, logger: Logger, timing: BuildOptions['ssoTiming']): void {
  const sso = config.oidc;
  if (!sso) {
    container.bind(IdentityProvider).toConstantValue(new NoIdentityProvider());
    return;
  }
  const options: OidcClientOptions = {
    issuer: sso.issuer,
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    scopes: sso.scopes,
    usernameClaim: sso.usernameClaim,
    groupsClaim: sso.groupsClaim,
    retryMs: timing?.retryMs ?? SSO_RETRY_MS,
    waitMs: timing?.waitMs ?? SSO_WAIT_MS,
    timeoutSeconds: SSO_TIMEOUT_SECONDS,
  };
  container
    .bind<IdentityProvider>(IdentityProvider)
    .toResolvedValue(() => {
      const provider = new OpenIdClientProvider(options, logger);
      provider.warmUp();
      return provider;
    })
    .inSingletonScope();
}

/** Without a connected persistence only memory is possible; silently dropping a configured database would lose data. */
function defaultPersistence(config: Config): Persistence {
  const wantsDatabase = config.persistence !== null ? config.persistence !== 'memory' : config.mongodbUri !== null;
  if (wantsDatabase) {
    throw new Error('This configuration names a database: pass connectPersistence(config) as options.persistence');
  }
  return memoryPersistence();
}

/**
 * The one composition root: every adapter is known here and nowhere else. Connecting is async and comes first
 * (connectPersistence); binding is synchronous, so tests and embedding hosts build the same graph.
 */
export function buildContainer(config: Config, options: BuildOptions = {}): Container {
  const persistence = options.persistence ?? defaultPersistence(config);
  const container = new Container();
  const logger = options.logger ?? createLogger(config.logLevel);

  container.bind<CoreSettings>(CoreSettings).toConstantValue({
    defaultLimits: config.limits,
    sessionTtlMs: config.sessionTtlDays * DAY_MS,
    sessionMaxMs: config.sessionMaxDays * DAY_MS,
    maxUploadBytes: config.maxUploadBytes,
    registration: config.registration,
    maxConcurrentUploads: config.maxConcurrentUploads,
    resumableIdleMs: config.resumableExpiryHours * HOUR_MS,
    passwordLogin: config.passwordLogin,
    activityAddresses: config.activityAddresses,
    sso: config.oidc && {
      label: config.oidc.label,
      autoRegister: config.oidc.autoRegister,
      adminGroups: config.oidc.adminGroups,
    },
  });
  bindIdentityProvider(container, config, logger, options.ssoTiming);
  if (options.clock) container.bind(Clock).toConstantValue(options.clock);
  else container.bind(Clock).to(SystemClock).inSingletonScope();
  if (options.ids) container.bind(IdGenerator).toConstantValue(options.ids);
  else container.bind(IdGenerator).to(CryptoIdGenerator).inSingletonScope();
  container.bind(TokenSecrets).to(CryptoTokenSecrets).inSingletonScope();
  container.bind(OneTimeCodes).to(OtplibCodes).inSingletonScope();
  container.bind(WebAuthn).to(SimpleWebAuthn).inSingletonScope();
  container.bind(Argon2Options).toConstantValue(options.argon2 ?? OWASP_ARGON2);
  container.bind(PasswordHasher).to(Argon2Hasher).inSingletonScope();

  container.bind(Persistence).toConstantValue(persistence);
  if (persistence.db) {
    bindMongoPersistence(container, persistence.db, config.activityRetentionDays * DAY_MS);
    bindBlobStore(container, config, options.blobStore ?? config.blobStore, persistence.db);
  } else if (options.memoryOf) {
    bindSharedMemory(container, options.memoryOf);
  } else {
    bindMemoryPersistence(container);
    bindBlobStore(container, config, options.blobStore ?? config.blobStore, null);
  }
  const timing = timingOf(config.instanceLeaseSeconds * 1000);
  container
    .bind(LeaseKeeper)
    .toResolvedValue(
      (leases: InstanceLeases, clock: Clock, ids: IdGenerator) => new LeaseKeeper(leases, clock, ids, timing, logger),
      [InstanceLeases, Clock, IdGenerator],
    )
    .inSingletonScope();
  container.bind(Instance).toService(LeaseKeeper);
  container
    .bind(LoggedActivityRecorder)
    .toResolvedValue((log: ActivityRepository) => new LoggedActivityRecorder(log, logger, config.activity), [ActivityRepository])
    .inSingletonScope();
  container.bind(ActivityRecorder).toService(LoggedActivityRecorder);
  const mail = config.mail;
  container
    .bind<Mailer>(Mailer)
    .toResolvedValue(() => (mail ? new NodemailerMailer(mail.smtpUrl, mail.from) : new NoMailer()))
    .inSingletonScope()
    .onDeactivation((mailer) => {
      if (mailer instanceof NodemailerMailer) mailer.close();
    });
  container.bind(WebhookSender).toConstantValue(new HttpWebhookSender({ allowPrivate: config.webhookAllowPrivate }));

  const names = Object.keys(PORT_TOKENS) as (keyof Ports)[];
  const wrap = options.wrapPorts ?? ((ports: Ports) => ports);
  container
    .bind<Ports>(Ports)
    .toResolvedValue(
      (...resolved: unknown[]) => wrap(Object.fromEntries(names.map((n, i) => [n, resolved[i]])) as unknown as Ports),
      names.map((n) => PORT_TOKENS[n]),
    )
    .inSingletonScope();
  container.bind<Core>(Core).toResolvedValue(createCore, [Ports]).inSingletonScope();

  container.bind(HttpOptions).toConstantValue({
    maxUploadBytes: config.maxUploadBytes,
    persistence: persistence.kind,
    logger: options.httpLogger ?? logger,
    trustProxy: config.trustProxy,
    webDir: options.webDir === undefined ? WEB_DIST : (options.webDir ?? undefined),
    publicUrl: config.publicUrl,
    sessionCookieMaxAge: Math.round(config.sessionMaxDays * 86_400),
    registrationOpen: config.registration === 'open' && config.passwordLogin === 'enabled',
  });
  container.bind(HttpApp).toSelf().inSingletonScope();
  return container;
}
