import type {
  Collection,
  Folder,
  Limits,
  Paste,
  Share,
  ShareState,
  StoredFile,
  Token,
  Usage,
  User,
  UserType,
} from '../domain/index.js';
import { isByteKind, LIMIT_KINDS, type ByteKind, type LimitKind } from '../domain/index.js';
import { isoTime } from './iso-time.js';
import type { Passkey } from './ports/passkeys.js';
import type { SecondFactorRecord } from './ports/second-factors.js';

/** The response shapes of the API (docs/API.md): sizes as decimal strings, timestamps ISO 8601 UTC, absent refs null. */
export interface FileView {
  id: string;
  name: string;
  mime: string;
  size: string;
  ownerId: string;
  folderId: string | null;
  createdAt: string;
  updatedAt: string;
  shareId: string | null;
  /** How it came, when someone sent it through a file request (its owner sees it; readers through a share do not). */
  request: ReceivedView | null;
  /** Only on an end-to-end encrypted file: the flag, and its sealed metadata object for the key holder to open. */
  encrypted?: true;
  encryptedMetadata?: string;
}

/** Who sent a file through a file request, and when. */
export interface ReceivedView {
  id: string;
  uploaderName: string | null;
  note: string | null;
  receivedAt: string;
}

export interface FolderView {
  id: string;
  name: string;
  ownerId: string;
  parentId: string | null;
  files: FileView[];
  folders: FolderView[];
  createdAt: string;
  updatedAt: string;
  shareId: string | null;
  /** Present on search hits and root listings, whose files/folders arrays stay empty. */
  fileCount?: number;
  folderCount?: number;
}

export interface CollectionView {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  files: FileView[];
  count: number;
  shareId: string | null;
}

export interface PasteView {
  id: string;
  name: string;
  type: string;
  content: string;
  size: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  shareId: string | null;
  /** Only on an end-to-end encrypted paste: `content` is then base64url ciphertext. */
  encrypted?: true;
}

/** A share as the core hands it out; the HTTP adapter adds its `url` (it knows the public base). */
export interface ShareView {
  id: string;
  ownerId: string;
  type: Share['type'];
  createdAt: string;
  expiresAt: string | null;
  views: number;
  maxViews: number | null;
  downloads: number;
  maxDownloads: number | null;
  state: ShareState;
  protected: boolean;
  owner: { id: string; username: string };
  file?: { id: string; name: string; size: string; mime: string; encrypted?: true; encryptedMetadata?: string };
  folder?: { id: string; name: string; fileCount: number; folderCount: number };
  collection?: { id: string; name: string; fileCount: number };
  paste?: { id: string; name: string; type: string; content: string; encrypted?: true };
}

export interface LoginResult {
  token: string;
  user: { id: string; username: string };
}

export interface MeView {
  id: string;
  username: string;
  type: UserType;
  createdAt: string;
  /** The password is one the user did not choose; the dashboard asks for a new one first. */
  mustChangePassword: boolean;
  mfa: MfaView;
  /** The user has a password (a user made by single sign-on has none until an admin sets one). */
  hasPassword: boolean;
  /** The single sign-on identity linked to the user, or null. */
  oidc: OidcView | null;
}

export interface OidcView {
  issuer: string;
  subject: string;
}

/** How people may sign in here: what the sign-in page offers. */
export interface ProvidersView {
  /** Whether the password form is offered (PASSWORD_LOGIN `enabled` or `admins`). */
  password: boolean;
  /** Single sign-on, or null when it is off; `available` is false until the provider's discovery succeeded. */
  oidc: { label: string; available: boolean } | null;
}

/** Where a finished single sign-on goes: the browser signed in (a session to set), or an identity linked. */
export type SsoOutcome = { intent: 'login'; session: LoginResult; next: string } | { intent: 'link'; next: string };

/** Which second factors a user has. */
export interface MfaView {
  totp: boolean;
  /** Registered passkeys. */
  passkeys: number;
  recoveryCodesLeft: number;
}

export type MfaMethod = 'totp' | 'recovery' | 'passkey';

/** A login whose password was right, for a user with a second factor: no session yet, a code to come. */
export interface MfaRequiredView {
  mfaRequired: true;
  /** Answered with the code to POST /api/auth/login/mfa; 5 minutes, once. */
  mfaToken: string;
  methods: MfaMethod[];
}

export type LoginOutcome = LoginResult | MfaRequiredView;

export interface TotpSetupView {
  secret: string;
  otpauthUrl: string;
}

export interface RecoveryCodesView {
  recoveryCodes: string[];
}

/** A registered passkey, as its owner sees it: nothing of its key. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  /** The last sign-in with it; null until one. */
  lastUsedAt: string | null;
}

export interface Counter<T> {
  current: T;
  max: T;
}

/** Byte counters are decimal strings, item counters integers, as every size in the API. */
export type UsageView = { [K in LimitKind]: Counter<K extends ByteKind ? string : number> };

export type AdminUserView = {
  id: string;
  username: string;
  type: UserType;
  mfa: MfaView;
  hasPassword: boolean;
  oidc: OidcView | null;
} & UsageView;

export interface TokenView {
  id: string;
  name: string;
  /** `uploader` (the API's upload routes) or `dav` (WebDAV at /dav/ only). */
  scope: 'uploader' | 'dav';
  createdAt: string;
}

export type CreatedTokenView = TokenView & { token: string };

export interface SearchView {
  files: FileView[];
  folders: FolderView[];
}

/** One folder on the way to a search hit. */
export interface PathStep {
  id: string;
  name: string;
}

/** Where a hit sits: its folders from the top level down to the one that holds it; empty at the top level. */
export interface Placed {
  path: PathStep[];
}

export interface SearchHits {
  files: (FileView & Placed)[];
  folders: (FolderView & Placed)[];
}

const iso = isoTime;

export function fileView(file: StoredFile, shareId: string | null): FileView {
  return {
    id: file.id,
    name: file.name,
    mime: file.mime,
    size: String(file.size),
    ownerId: file.ownerId,
    folderId: file.folderId,
    createdAt: iso(file.createdAt),
    updatedAt: iso(file.updatedAt),
    shareId,
    request: file.request ? receivedView(file.request) : null,
    ...encryptedFields(file),
  };
}

/** The fields an end-to-end encrypted file adds to its views; none on any other file. */
export function encryptedFields(file: StoredFile): { encrypted?: true; encryptedMetadata?: string } {
  return file.encryptedMetadata ? { encrypted: true, encryptedMetadata: file.encryptedMetadata } : {};
}

function receivedView(from: NonNullable<StoredFile['request']>): ReceivedView {
  return { id: from.requestId, uploaderName: from.uploaderName, note: from.note, receivedAt: iso(from.receivedAt) };
}

export function folderView(
  folder: Folder,
  shareId: string | null,
  files: FileView[] = [],
  folders: FolderView[] = [],
): FolderView {
  return {
    id: folder.id,
    name: folder.name,
    ownerId: folder.ownerId,
    parentId: folder.parentId,
    files,
    folders,
    createdAt: iso(folder.createdAt),
    updatedAt: iso(folder.updatedAt),
    shareId,
  };
}

export function collectionView(collection: Collection, files: FileView[], shareId: string | null): CollectionView {
  return {
    id: collection.id,
    name: collection.name,
    ownerId: collection.ownerId,
    createdAt: iso(collection.createdAt),
    updatedAt: iso(collection.updatedAt),
    files,
    count: files.length,
    shareId,
  };
}

export function pasteView(paste: Paste, shareId: string | null): PasteView {
  return {
    id: paste.id,
    name: paste.name,
    type: paste.type,
    content: paste.content,
    size: String(paste.size),
    ownerId: paste.ownerId,
    createdAt: iso(paste.createdAt),
    updatedAt: iso(paste.updatedAt),
    shareId,
    ...(paste.encrypted ? { encrypted: true as const } : {}),
  };
}

export function usageView(usage: Usage, limits: Limits): UsageView {
  const view: Record<string, Counter<string | number>> = {};
  for (const kind of LIMIT_KINDS) {
    view[kind] = isByteKind(kind)
      ? { current: String(usage[kind]), max: String(limits[kind]) }
      : { current: usage[kind], max: limits[kind] };
  }
  return view as UsageView;
}

export function adminUserView(user: User, usage: Usage, limits: Limits, mfa: MfaView): AdminUserView {
  const sign = signInView(user);
  return { id: user.id, username: user.username, type: user.type, mfa, ...sign, ...usageView(usage, limits) };
}

/** How a user signs in: whether they have a password, and their single sign-on identity. */
function signInView(user: User): { hasPassword: boolean; oidc: OidcView | null } {
  return {
    hasPassword: user.passwordHash !== null,
    oidc: user.oidc ? { issuer: user.oidc.issuer, subject: user.oidc.subject } : null,
  };
}

/** What a second-factor record (or none) comes to. */
export function mfaView(record: SecondFactorRecord | null): MfaView {
  const totp = record?.totpSecret != null;
  return {
    totp,
    passkeys: record?.passkeyCount ?? 0,
    recoveryCodesLeft: totp ? record!.recoveryCodeHashes.length : 0,
  };
}

export function passkeyView(passkey: Passkey): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: iso(passkey.createdAt),
    lastUsedAt: passkey.lastUsedAt === null ? null : iso(passkey.lastUsedAt),
  };
}

export function tokenView(token: Token): TokenView {
  return { id: token.id, name: token.name, scope: token.type === 'dav' ? 'dav' : 'uploader', createdAt: iso(token.createdAt) };
}

export function meView(user: User, mfa: MfaView): MeView {
  return {
    mfa,
    id: user.id,
    username: user.username,
    type: user.type,
    createdAt: iso(user.createdAt),
    mustChangePassword: user.mustChangePassword,
    ...signInView(user),
  };
}

/**
 * A file as a reader through `share` may see it: ids inside what was shared only. A folder share reaches the file
 * through its folder, so that id is inside; through a file or collection share the folder is outside and reads as
 * null. The owner (no share) sees everything.
 */
export function seenThrough(view: FileView, share: Share | null): FileView {
  if (share === null) return view;
  // Who sent a file to its owner is the owner's to know, not a share reader's.
  return share.type === 'folder' ? { ...view, request: null } : { ...view, folderId: null, request: null };
}
