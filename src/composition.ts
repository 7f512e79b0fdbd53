import 'reflect-metadata';
import { Container } from 'inversify';
import { Core, createCore, type Ports } from './application/index.js';
import {
  BlobStore,
  Clock,
  CollectionRepository,
  CoreSettings,
  FileRepository,
  FolderRepository,
  IdGenerator,
  PasswordHasher,
  PasteRepository,
  ShareRepository,
  TokenRepository,
  TokenSecrets,
  UsageCounter,
  UserRepository,
} from './application/ports/index.js';
import { Argon2Hasher, Argon2Options, OWASP_ARGON2 } from './adapters/argon2/argon2-hasher.js';
import { SystemClock } from './adapters/clock/system-clock.js';
import { CryptoIdGenerator } from './adapters/crypto/crypto-id-generator.js';
import { CryptoTokenSecrets } from './adapters/crypto/crypto-token-secrets.js';
import { FsBlobStore, FsBlobStoreOptions } from './adapters/fs-blob-store/fs-blob-store.js';
import { HttpApp, HttpOptions } from './adapters/http/http-app.js';
import { MemoryBlobStore } from './adapters/memory-blob-store/memory-blob-store.js';
import {
  MemoryCollectionRepository,
  MemoryFileRepository,
  MemoryFolderRepository,
  MemoryPasteRepository,
  MemoryShareRepository,
  MemoryTokenRepository,
  MemoryUsageCounter,
  MemoryUserRepository,
} from './adapters/memory/index.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';

export const LoggerToken = Symbol('Logger');

export interface BuildOptions {
  logger?: Logger;
  /** Where file bytes go; `memory` keeps them in the process (tests, embedding). */
  blobStore?: 'fs' | 'memory';
  /** Overrides the argon2 parameters (tests use cheap ones; production keeps OWASP's floor or more). */
  argon2?: Argon2Options;
}

/** The tokens of every port, in the order createCore's Ports object lists them. */
const PORT_TOKENS = {
  users: UserRepository,
  tokens: TokenRepository,
  files: FileRepository,
  folders: FolderRepository,
  collections: CollectionRepository,
  pastes: PasteRepository,
  shares: ShareRepository,
  usage: UsageCounter,
  blobs: BlobStore,
  hasher: PasswordHasher,
  ids: IdGenerator,
  secrets: TokenSecrets,
  clock: Clock,
  settings: CoreSettings,
} as const;

/** The persistence seam: `memory` is the only persistence so far; MongoDB binds the same eight tokens. */
function bindMemoryPersistence(container: Container): void {
  container.bind(UserRepository).to(MemoryUserRepository).inSingletonScope();
  container.bind(TokenRepository).to(MemoryTokenRepository).inSingletonScope();
  container.bind(FileRepository).to(MemoryFileRepository).inSingletonScope();
  container.bind(FolderRepository).to(MemoryFolderRepository).inSingletonScope();
  container.bind(CollectionRepository).to(MemoryCollectionRepository).inSingletonScope();
  container.bind(PasteRepository).to(MemoryPasteRepository).inSingletonScope();
  container.bind(ShareRepository).to(MemoryShareRepository).inSingletonScope();
  container.bind(UsageCounter).to(MemoryUsageCounter).inSingletonScope();
}

function bindBlobStore(container: Container, config: Config, kind: 'fs' | 'memory'): void {
  if (kind === 'memory') {
    container.bind(BlobStore).to(MemoryBlobStore).inSingletonScope();
    return;
  }
  container.bind(FsBlobStoreOptions).toConstantValue({ dir: config.dataDir });
  container.bind(BlobStore).to(FsBlobStore).inSingletonScope();
}

/** The one composition root: every adapter is known here and nowhere else. */
export function buildContainer(config: Config, options: BuildOptions = {}): Container {
  const container = new Container();
  const logger = options.logger ?? createLogger(config.logLevel);
  container.bind(LoggerToken).toConstantValue(logger);

  container.bind(CoreSettings).toConstantValue({
    defaultLimits: config.limits,
    sessionTtlMs: config.sessionTtlDays * 24 * 60 * 60 * 1000,
    maxUploadBytes: config.maxUploadBytes,
    registration: config.registration,
  });
  container.bind(Clock).to(SystemClock).inSingletonScope();
  container.bind(IdGenerator).to(CryptoIdGenerator).inSingletonScope();
  container.bind(TokenSecrets).to(CryptoTokenSecrets).inSingletonScope();
  container.bind(Argon2Options).toConstantValue(options.argon2 ?? OWASP_ARGON2);
  container.bind(PasswordHasher).to(Argon2Hasher).inSingletonScope();

  bindMemoryPersistence(container);
  bindBlobStore(container, config, options.blobStore ?? 'fs');

  const names = Object.keys(PORT_TOKENS) as (keyof Ports)[];
  container
    .bind<Core>(Core)
    .toResolvedValue(
      (...resolved: unknown[]) => createCore(Object.fromEntries(names.map((n, i) => [n, resolved[i]])) as unknown as Ports),
      names.map((n) => PORT_TOKENS[n]),
    )
    .inSingletonScope();

  container.bind(HttpOptions).toConstantValue({
    maxUploadBytes: config.maxUploadBytes,
    persistence: 'memory',
    logger,
  });
  container.bind(HttpApp).toSelf().inSingletonScope();
  return container;
}
