import type { ActivityKind, Actor, ItemProperty, LimitKind, ReaderInfo, TokenScope, Usage, UserType, WriteLock } from '../domain/index.js';
import type { ByteRange, CeremonyOptions, CredentialJson, RelyingParty } from './ports/index.js';
import type { ShareGrant } from './shares/share-grant.js';
import type { ActivityView } from './activity/activity-views.js';
import type { CreateWebhook } from './activity/create-webhook.js';
import type { DeleteWebhook } from './activity/delete-webhook.js';
import type { GetWebhook } from './activity/get-webhook.js';
import type { ListDeliveries } from './activity/list-deliveries.js';
import type { ListWebhooks } from './activity/list-webhooks.js';
import type { TestWebhook } from './activity/test-webhook.js';
import type { UpdateWebhook } from './activity/update-webhook.js';
import type { GetEmail } from './activity/get-email.js';
import type { NotifyOf } from './activity/notify-of.js';
import type { SetEmail } from './activity/set-email.js';
import type { SetNotify } from './activity/set-notify.js';
import type { LockedRequestView, PublicRequestView, RequestView } from './requests/request-views.js';
import type {
  AdminUserView,
  CollectionView,
  CreatedTokenView,
  FileView,
  FolderView,
  LoginOutcome,
  LoginResult,
  MeView,
  PasskeyView,
  ProvidersView,
  SsoOutcome,
  RecoveryCodesView,
  TotpSetupView,
  PasteView,
  SearchHits,
  SearchView,
  ShareView,
  TokenView,
  UsageView,
} from './views.js';

/** Which events a listing reads: one share's, one request's, or all of the caller's; of one kind or all. */
export type ListActivityInput = { actor: Actor; shareId?: string; requestId?: string; kind?: ActivityKind } & PageRequest;

/** One operation of the core. Expected failures reject with a DomainError carrying a stable code. */
export interface UseCase<I, O> {
  execute(input: I): Promise<O>;
}

/**
 * The network address a request came from, as the throttle keys it (the HTTP adapter gives IPv4 as is and IPv6 as
 * its /56). Without one, guesses are throttled per account or share only and unknown share ids not at all.
 */
export type ClientAddress = string;

/** A share link presented by a reader (X-Share-Id / X-Share-Password over HTTP). */
export interface ShareKey {
  id: string;
  password: string | null;
  client?: ClientAddress;
  /** The reader only looks (HTTP HEAD, a link-preview bot): the share is checked as for a read, but nothing is counted. */
  peek?: boolean;
  /** Who reads, for the share's activity (a link-preview bot's `peek` is recorded, with `bot: true`). */
  reader?: ReaderInfo;
  /** A grant from unlocking the share (its page's cookie): opens a protected share without its password. */
  grant?: string | null;
  /**
   * The bytes are a preview on the share's page: part of the visit its view counted, so they count no download,
   * except on a share with a maximum of downloads, which no read steps around.
   */
  preview?: boolean;
}

/**
 * A folder's own page inside a folder share: the read is refused (not_found) unless `folderId` names the shared
 * folder or one below it, checked once the share is unlocked and before anything is counted.
 */
export interface FolderPage {
  folderId?: string;
}

/**
 * What an owner sets on a share. Absent: the default on create (none), unchanged on update; null: none.
 * `expiresAt` must lie in the future on create; maxima are whole numbers of at least 1.
 */
export interface ShareOptions {
  /** null or '' leaves the share open. */
  password?: string | null;
  expiresAt?: Date | null;
  maxViews?: number | null;
  maxDownloads?: number | null;
}

/**
 * What an owner sets on a file request. Absent: the default on create (none; `requireName` false), unchanged on
 * update; null: none. Byte maxima are numbers here (decimal strings over HTTP).
 */
export interface RequestOptions {
  message?: string | null;
  password?: string | null;
  expiresAt?: Date | null;
  maxFiles?: number | null;
  maxBytes?: number | null;
  maxFileBytes?: number | null;
  allowedTypes?: string[] | null;
  requireName?: boolean;
}

/** A file request's link as an uploader presents it (over HTTP: the path, X-Request-Password or the page's grant). */
export interface RequestKey {
  id: string;
  password: string | null;
  /** From unlocking the request on its page: opens a protected request without its password. */
  grant?: string | null;
  client?: ClientAddress;
  /** Who sends, for the request's activity. */
  reader?: ReaderInfo;
}

/** What an uploader tells about a file they send. `uploaderName` is required when the request says so. */
export interface Sender {
  uploaderName: string | null;
  note: string | null;
}

/** What an uploader learns of the file they sent: nothing else of the owner's. */
export interface ReceivedFileView {
  id: string;
  name: string;
  size: string;
}

/**
 * A page of a listing beyond the spec's own (root, pastes, collections, API tokens). `limit`: 1 to MAX_PAGE_SIZE,
 * default DEFAULT_PAGE_SIZE; `cursor`: a `nextCursor` this listing handed out, absent or null for the first page.
 * Anything else is bad_request.
 */
export interface PageRequest {
  limit?: number;
  cursor?: string | null;
}

/**
 * Keyset pages: walking them from the first to the one whose `nextCursor` is null hands out every record that existed
 * throughout the walk exactly once, whatever was created or deleted meanwhile (a record renamed or moved during the
 * walk may be missed or seen twice, as it changes place in the order).
 */
export interface Page<T> {
  items: T[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/** The root listing: top-level folders (all of them, in name order) first, then top-level files. */
export interface RootPage extends SearchView {
  nextCursor: string | null;
}

/** How a read is authorised: as the owner (actor), through a share link, or both. */
export interface ReadAccess {
  actor: Actor | null;
  share: ShareKey | null;
}

/** Everything needed to serve a file's bytes, before any byte is read. */
export interface FileContent {
  name: string;
  mime: string;
  /** Sent with the type (`; charset=utf-8`) when the bytes are text known to be valid UTF-8. */
  charset: 'utf-8' | null;
  size: number;
  /** Strong validator: a blob's bytes never change. */
  etag: string;
  lastModified: Date;
  disposition: 'inline' | 'attachment';
  /** HTML, SVG, XML and the like: always an attachment, always sandboxed. */
  active: boolean;
  open(range?: ByteRange): Promise<AsyncIterable<Uint8Array>>;
  /**
   * Told by whoever streams the bytes, once, when the body has gone out or the connection closed before: how many
   * bytes went and whether all of them did. Set on a counted download, to record it as activity.
   */
  sent?(bytes: number, complete: boolean): void;
}

/** One file of a share's archive, at its path inside the archive ('/'-separated, every segment a clean name). */
export interface ArchiveEntry {
  path: string;
  size: number;
  modified: Date;
  open(): Promise<AsyncIterable<Uint8Array>>;
}

/** What a shared folder or collection comes to as one download. */
export interface ShareArchive {
  /**
   * The archive's file name without its extension, and the one top-level directory everything in it lies below:
   * the (sub)folder's or the collection's name.
   */
  name: string;
  /** Every folder, that directory and empty ones included, so the archive keeps the tree's shape ('/'-separated). */
  folders: string[];
  files: ArchiveEntry[];
  /** As FileContent.sent: told once the archive has gone out, or the connection closed before. */
  sent?(bytes: number, complete: boolean): void;
}

export type LimitChanges = Partial<Record<LimitKind, number | null>>;

/** One user whose stored counters differ from what their stored data adds up to. */
export interface UsageDrift {
  userId: string;
  username: string;
  /** The counters as they were stored. */
  stored: Usage;
  /** The counters recomputed from the stored data (what `stored` becomes with `fix`). */
  actual: Usage;
  /** actual − stored, for the kinds that differ only. */
  drift: Partial<Usage>;
}

export interface ReconcileReport {
  /** Users looked at. */
  checked: number;
  /** Whether the drifted counters were overwritten with the recomputed ones. */
  fixed: boolean;
  drifted: UsageDrift[];
  /** The count the last-admin guard decides on, against the admins that exist (fixed too with `fix`). */
  admins: { stored: number; actual: number };
}

/** What one sweep of orphan bytes found and did. */
export interface SweepReport {
  /** Blobs looked at. */
  scanned: number;
  /** Blobs older than the grace period that no file record pointed at, now deleted. */
  deleted: number;
  /** Orphans whose delete failed; the next sweep tries again. */
  failed: number;
  /** Leftovers of interrupted writes the store removed (temporary files, chunks without a blob). */
  incomplete: number;
}

/** What one sweep of stale usage holds (counts of uploads that died before recording their file) found and did. */
export interface HoldSweepReport {
  /** Holds that had not grown for the grace period. */
  stale: number;
  /** Holds whose file record exists: the counts were right, only the hold went. */
  settled: number;
  /** Holds whose file never got recorded: their counts were given back. */
  released: number;
  /** Holds that could not be handled; the next sweep tries again. */
  failed: number;
}

/** What one sweep of the work of gone instances (their lease ran out: a crash) found and did. */
export interface RecoveryReport {
  /** Gone instances whose work was looked for. */
  instances: number;
  /** Holds of uploads and creates whose record exists: the counts were right, only the hold went. */
  settled: number;
  /** Holds of uploads and creates that never got recorded: their counts (and upload slot) were given back. */
  released: number;
  /** Holds of resumable uploads still under way: handed to the upload, which lives on. */
  kept: number;
  /** Removals (of files, a folder, an account, a paste, collection, share or token) cut short, now finished. */
  finished: number;
  /** Leftovers of writes by processes known to be gone that the store removed (temporary files). */
  abandoned: number;
  /** Work that could not be handled; the next sweep tries again. */
  failed: number;
}

/** Where a resumable upload stands. A complete one has become the file `fileId` (its id is the upload's). */
export interface ResumableUploadState {
  id: string;
  /** Bytes the whole upload holds (tus Upload-Length). */
  length: number;
  /** Bytes received so far (tus Upload-Offset). */
  offset: number;
  /** When it expires unless more bytes come; null once complete. */
  expiresAt: Date | null;
  fileId: string | null;
  /** Once complete: the share of its file (the one the upload asked for), while it stands; else null. */
  shareId: string | null;
}

/** What one sweep of expired resumable uploads did. */
export interface ExpiredUploadsReport {
  /** Uploads ended, their bytes and counts given back. */
  expired: number;
  /** Uploads that could not be handled; the next sweep tries again. */
  failed: number;
}

/** Every use case of Coffer; the one object HTTP and embedding hosts talk to. */
export const Core = Symbol('Core');
export interface Core {
  // auth
  /** Throttled per account and client address; a lockout answers rate_limited, even to the right password. */
  /**
   * A user with a second factor gets `{mfaRequired, mfaToken, methods}` instead of a session: loginMfa finishes.
   */
  login: UseCase<{ username: string; password: string; client?: ClientAddress }, LoginOutcome>;
  /**
   * The second step of a login: the mfaToken (5 minutes, once, its user's only) and a TOTP or recovery code. Wrong
   * codes are unauthorized and throttled per account; an unknown, expired or used token is unauthorized.
   */
  loginMfa: UseCase<
    { mfaToken: string; code?: string; passkey?: CredentialJson; rp?: RelyingParty; client?: ClientAddress },
    LoginResult
  >;
  /**
   * Options to answer an mfaToken with one of the user's passkeys (its challenge bound to that mfaToken); unauthorized
   * for an unknown, expired or used token, conflict when the user has no passkey.
   */
  mfaPasskeyOptions: UseCase<{ mfaToken: string; rp: RelyingParty }, CeremonyOptions>;
  /** Options for a sign-in without a password (any passkey of this site); throttled per client address. */
  passkeyLoginOptions: UseCase<{ rp: RelyingParty; client?: ClientAddress }, CeremonyOptions>;
  /**
   * A sign-in with a passkey alone: the challenge (once), the credential, its owner's user handle, the signature and
   * the counter, and user verification. Every refusal is unauthorized and throttled per client address.
   */
  loginPasskey: UseCase<{ response: CredentialJson; rp: RelyingParty; client?: ClientAddress }, LoginResult>;
  // passkeys, from a session only
  /** Options to register a passkey (conflict at the maximum). */
  passkeyRegistrationOptions: UseCase<{ actor: Actor; rp: RelyingParty }, CeremonyOptions>;
  /** Registers the passkey that answered those options; ends the other sessions. */
  addPasskey: UseCase<
    { actor: Actor; rp: RelyingParty; name?: string | undefined; response: CredentialJson },
    PasskeyView
  >;
  listPasskeys: UseCase<{ actor: Actor }, PasskeyView[]>;
  renamePasskey: UseCase<{ actor: Actor; id: string; name: string }, PasskeyView>;
  removePasskey: UseCase<{ actor: Actor; id: string }, void>;
  // second factors, from a session only
  /** A new TOTP secret, pending until confirmed; conflict while TOTP is on. */
  startTotp: UseCase<{ actor: Actor }, TotpSetupView>;
  /** Turns TOTP on with a code of the pending secret; ends the other sessions; the recovery codes, once. */
  confirmTotp: UseCase<{ actor: Actor; code: string }, RecoveryCodesView>;
  /** The password and a TOTP or recovery code (each wrong one forbidden, throttled); conflict when TOTP is off. */
  turnOffTotp: UseCase<{ actor: Actor; password: string; code: string; client?: ClientAddress }, void>;
  /** Ten new recovery codes for a TOTP or recovery code; the old ones stop working. */
  newRecoveryCodes: UseCase<{ actor: Actor; code: string; client?: ClientAddress }, RecoveryCodesView>;
  logout: UseCase<{ actor: Actor; everywhere?: boolean }, void>;
  /** `dav`: the token is presented to WebDAV, which takes dav tokens only; everywhere else a dav token is forbidden. */
  authenticate: UseCase<{ token: string; dav?: boolean }, Actor>;
  /**
   * HTTP Basic at /dav/: the password is a dav token of that user, or the account's password (throttled as logins)
   * when the user has no second factor and password sign-in is on. Every refusal but a lockout is unauthorized.
   */
  signInBasic: UseCase<{ username: string; password: string; client?: ClientAddress }, Actor>;
  getMe: UseCase<{ actor: Actor }, MeView>;
  // single sign-on (OpenID Connect)
  /** How people may sign in: the password form (PASSWORD_LOGIN) and single sign-on (label, availability). */
  getProviders: UseCase<Record<string, never>, ProvidersView>;
  /**
   * A new authorization request for the browser to follow, its pending sign-in stored for 10 minutes (used once) under
   * the digests of its state and of `browserKey`, which the browser keeps (a cookie) and brings to the callback.
   * `link` needs a session: the callback then links the identity to that user. `next` counts only when it is a path
   * on our own origin (isLocalPath); else `/` (`/account` for a link). Failures carry an `sso` detail (SsoFailure).
   */
  startSso: UseCase<
    { actor: Actor | null; next: string | null; intent: 'login' | 'link'; redirectUri: string },
    { url: string; browserKey: string }
  >;
  /**
   * The provider's answer: takes the pending sign-in of `state` (once) if `browserKey` is the one it was started
   * with, has the provider check it, then signs the person in (their account found by issuer and subject, made when
   * auto-registration is on, its type set by the admin groups) or links the identity. No second factor of Coffer's
   * is asked. Failures carry an `sso` detail (SsoFailure) and, when known, the `intent`; nothing is created then.
   */
  finishSso: UseCase<{ query: string; state: string | null; browserKey: string | null }, SsoOutcome>;
  /** From a session: removes the user's single sign-on identity; conflict while they have no password. */
  unlinkSso: UseCase<{ actor: Actor }, void>;
  register: UseCase<{ username: string; password: string }, LoginResult>;
  /**
   * From a session only. Ends every other session of the user; the one used stays, API tokens stay. A wrong current
   * password is forbidden and counts as a failed login at the account (same throttle).
   */
  changePassword: UseCase<
    { actor: Actor; currentPassword: string; newPassword: string; client?: ClientAddress },
    void
  >;
  ensureAdmin: UseCase<
    { username: string | null; password: string | null },
    { created: boolean; username: string; generatedPassword: string | null }
  >;
  // uploader API tokens
  /** `scope`: `uploader` (the default) or `dav` (WebDAV at /dav/ only); both count toward the tokens maximum. */
  createApiToken: UseCase<{ actor: Actor; name: string; scope?: TokenScope }, CreatedTokenView>;
  listApiTokens: UseCase<{ actor: Actor } & PageRequest, Page<TokenView>>;
  deleteApiToken: UseCase<{ actor: Actor; id: string }, void>;
  // files
  uploadFile: UseCase<
    {
      actor: Actor;
      folderId: string | null;
      name: string | null;
      filename: string;
      mime: string | undefined;
      content: AsyncIterable<Uint8Array>;
      /**
       * Hands the stored file to whoever answers the client and says whether the answer went out. When it did not
       * (the client is gone), the upload is undone like an aborted one and fails; without it, the file is kept.
       */
      deliver?: (file: FileView) => Promise<boolean>;
      /** Shares the file in the same request (one-request upload and share); the answer then carries its shareId. */
      share?: ShareOptions | null;
      /** End-to-end encrypted: the sealed metadata object; the file is then named `encrypted-{id}`, typed octet-stream. */
      encryptedMetadata?: string | null;
    },
    FileView
  >;
  // resumable uploads (tus 1.0): the same checks, limits and file as uploadFile, over several requests
  /**
   * Starts an upload of `length` bytes: payload_too_large beyond the upload cap, limit_reached when it cannot fit
   * the storage left or the file count. The file count is held from now on; bytes are held as they arrive.
   */
  createUpload: UseCase<
    {
      actor: Actor;
      length: number;
      folderId: string | null;
      name: string | null;
      filename: string;
      mime: string | undefined;
      share?: ShareOptions | null;
      encryptedMetadata?: string | null;
    },
    ResumableUploadState
  >;
  /**
   * Adds `content` at `offset`: conflict when the upload is elsewhere (another append landed first), gone once it
   * expired. Bytes are committed only when the whole content arrived; a content that fails adds nothing.
   */
  appendUpload: UseCase<
    { actor: Actor | null; id: string; offset: number; content: AsyncIterable<Uint8Array> },
    ResumableUploadState
  >;
  /**
   * `actor` null: no credential came. Only an upload into a file request goes on so (its unguessable id is the
   * uploader's proof); any other is unauthorized.
   */
  getUpload: UseCase<{ actor: Actor | null; id: string }, ResumableUploadState>;
  /** Ends an unfinished upload and gives back what it held. */
  terminateUpload: UseCase<{ actor: Actor | null; id: string }, void>;
  /**
   * New bytes for the caller's file, which keeps its id, share and collections: streamed and metered as an upload
   * (storage only; the file is counted already), swapped in by one conditional update, the old bytes given back.
   * `mime` absent keeps the type. conflict when another change of the bytes (or a removal) came first.
   */
  replaceFileContent: UseCase<
    { actor: Actor; id: string; mime: string | undefined; content: AsyncIterable<Uint8Array> },
    FileView
  >;
  getFile: UseCase<{ access: ReadAccess; id: string }, FileView>;
  openFileContent: UseCase<{ access: ReadAccess; id: string }, FileContent>;
  updateFile: UseCase<{ actor: Actor; id: string; name?: string; folderId?: string | null }, FileView>;
  deleteFile: UseCase<{ actor: Actor; id: string }, void>;
  // folders
  createFolder: UseCase<{ actor: Actor; name: string; parentId: string | null }, FolderView>;
  getFolder: UseCase<{ access: ReadAccess; id: string }, FolderView>;
  /** The top level, or with `folderId` the direct children of that folder (not_found when it is not the caller's). */
  listRoot: UseCase<{ actor: Actor; folderId?: string | null } & PageRequest, RootPage>;
  /**
   * The caller's folder and file named exactly `name` directly in `parentId` (null: the root), the first of each in
   * name order when several share it; not_found when the parent is not the caller's.
   */
  findChild: UseCase<{ actor: Actor; parentId: string | null; name: string }, { folder: FolderView | null; file: FileView | null }>;
  updateFolder: UseCase<{ actor: Actor; id: string; name?: string; parentId?: string | null }, FolderView>;
  deleteFolder: UseCase<{ actor: Actor; id: string }, void>;
  // collections
  createCollection: UseCase<{ actor: Actor; name: string }, CollectionView>;
  listCollections: UseCase<{ actor: Actor } & PageRequest, Page<CollectionView>>;
  getCollection: UseCase<{ access: ReadAccess; id: string }, CollectionView>;
  updateCollection: UseCase<{ actor: Actor; id: string; name?: string }, CollectionView>;
  deleteCollection: UseCase<{ actor: Actor; id: string }, void>;
  addToCollection: UseCase<{ actor: Actor; id: string; fileId: string }, CollectionView>;
  removeFromCollection: UseCase<{ actor: Actor; id: string; fileId: string }, CollectionView>;
  // pastes
  /** `share` shares the paste in the same request, as `uploadFile` does. */
  createPaste: UseCase<
    { actor: Actor; name?: string; type?: string; content: string; share?: ShareOptions | null; encrypted?: boolean },
    PasteView
  >;
  listPastes: UseCase<{ actor: Actor } & PageRequest, Page<PasteView>>;
  getPaste: UseCase<{ access: ReadAccess; id: string }, PasteView>;
  updatePaste: UseCase<{ actor: Actor; id: string; name?: string; type?: string; content?: string }, PasteView>;
  deletePaste: UseCase<{ actor: Actor; id: string }, void>;
  // shares
  /** A second share of an item is a conflict whose details name the existing `shareId`. */
  createShare: UseCase<{ actor: Actor; type: string; id: string } & ShareOptions, ShareView>;
  /** The caller's shares, whatever their state. */
  listShares: UseCase<{ actor: Actor }, ShareView[]>;
  /**
   * Public; counts a view on success unless the reader is the owner or only peeks. A share that is not active is
   * `gone`, except to its owner's session, which also needs no password.
   */
  getShare: UseCase<{ actor: Actor | null } & ShareKey & FolderPage, ShareView>;
  /**
   * Reads a protected share with its password, as getShare does (counting a view), and hands out a grant that opens
   * it without the password until it expires, the password changes or the share is deleted. Null for an open share.
   */
  unlockShare: UseCase<{ actor: Actor | null } & ShareKey, { share: ShareView; grant: ShareGrant | null }>;
  /** Changes what the options name; lifting an expiry or a maximum makes the share active again. */
  updateShare: UseCase<{ actor: Actor; id: string } & ShareOptions, ShareView>;
  deleteShare: UseCase<{ actor: Actor; id: string }, void>;
  /**
   * A shared file's bytes, or a shared paste's raw text; counts no view. Opening it from byte 0 counts a download
   * (unless the reader is the owner), atomically against `maxDownloads`: past it, `open` rejects with `gone`.
   */
  openShareContent: UseCase<{ actor: Actor | null } & ShareKey, FileContent>;
  /**
   * Every file of a shared folder (its whole subtree) or collection, to be streamed as one archive; counts one
   * download (unless the reader is the owner or only peeks) before any byte is read. With `folderId`, the subtree of
   * that folder of a folder share (not_found for any folder the share does not reach), counted the same way.
   */
  openShareArchive: UseCase<{ actor: Actor | null; folderId?: string } & ShareKey, ShareArchive>;
  // file requests: the owner's side, from a session only
  /** Counts against `requests`; without `folderId`, a new top-level folder named after the request takes the files. */
  createRequest: UseCase<{ actor: Actor; name: string; folderId?: string | null } & RequestOptions, RequestView>;
  listRequests: UseCase<{ actor: Actor } & PageRequest, Page<RequestView>>;
  getRequest: UseCase<{ actor: Actor; id: string }, RequestView>;
  updateRequest: UseCase<
    { actor: Actor; id: string; name?: string; folderId?: string; closed?: boolean } & RequestOptions,
    RequestView
  >;
  /** The request goes, its count is given back; the files it received stay. */
  deleteRequest: UseCase<{ actor: Actor; id: string }, void>;
  // file requests: the uploader's side, no account
  /** A protected request without its password or grant: its name, `protected` and state only. */
  getPublicRequest: UseCase<RequestKey, PublicRequestView | LockedRequestView>;
  /** The password checked (throttled) and a grant for the page (null for an open request). */
  unlockRequest: UseCase<RequestKey, { request: PublicRequestView; grant: ShareGrant | null }>;
  /**
   * One file into the request's folder, counted against the owner's maxima and the request's, exactly: gone when the
   * request is closed, expired or full; unsupported_media_type for a type it does not take; payload_too_large past
   * `maxFileBytes` or the bytes it has left; limit_reached (without figures) when the owner has no room.
   */
  receiveFile: UseCase<
    RequestKey &
      Sender & {
        filename: string;
        mime: string | undefined;
        content: AsyncIterable<Uint8Array>;
        deliver?: (file: ReceivedFileView) => Promise<boolean>;
      },
    ReceivedFileView
  >;
  /** A resumable upload into the request, checked as receiveFile; its whole length is taken of the request's room now. */
  createRequestUpload: UseCase<
    RequestKey & Sender & { length: number; filename: string; mime: string | undefined },
    ResumableUploadState
  >;
  // properties clients store on items, and write locks (what WebDAV needs; stored, so every instance sees them)
  getProperties: UseCase<{ actor: Actor; itemIds: readonly string[] }, Record<string, ItemProperty[]>>;
  /** In order; `value` null removes. All or nothing; payload_too_large past the bounds (domain/item-property.ts). */
  patchProperties: UseCase<
    { actor: Actor; itemId: string; changes: readonly { ns: string; name: string; value: string | null }[] },
    void
  >;
  copyProperties: UseCase<{ actor: Actor; pairs: readonly [string, string][] }, void>;
  dropProperties: UseCase<{ actor: Actor; itemIds: readonly string[] }, void>;
  /** conflict (details `locked`) when a live lock stands in the way; payload_too_large past MAX_LOCKS_PER_USER. */
  takeLock: UseCase<
    { actor: Actor; path: string; depth: WriteLock['depth']; scope: WriteLock['scope']; owner: string; timeoutSeconds: number },
    WriteLock
  >;
  refreshLock: UseCase<{ actor: Actor; token: string; timeoutSeconds: number }, WriteLock>;
  releaseLock: UseCase<{ actor: Actor; token: string }, void>;
  listLocks: UseCase<{ actor: Actor }, WriteLock[]>;
  dropLocks: UseCase<{ actor: Actor; path: string }, void>;
  // search and usage
  search: UseCase<{ actor: Actor; query: string; folderId: string | null; recursive: boolean }, SearchHits>;
  getUsage: UseCase<{ actor: Actor }, UsageView>;
  // admin
  listUsers: UseCase<{ actor: Actor }, AdminUserView[]>;
  getUser: UseCase<{ actor: Actor; id: string }, AdminUserView>;
  createUser: UseCase<{ actor: Actor; username: string; password: string; type?: UserType }, AdminUserView>;
  updateUser: UseCase<
    { actor: Actor; id: string; type?: UserType; password?: string; limits?: LimitChanges },
    AdminUserView
  >;
  deleteUser: UseCase<{ actor: Actor; id: string }, void>;
  /** Turns every second factor of the user off; not_found for an unknown user. */
  resetUserMfa: UseCase<{ actor: Actor; id: string }, void>;
  /** Recomputes every user's counters from their data; `actor` null is the operator's command line. */
  reconcileUsage: UseCase<{ actor: Actor | null; fix: boolean }, ReconcileReport>;
  // maintenance (the server runs it; no client can)
  /** Deletes blobs no file points at once they are older than `graceMs`, and the store's interrupted writes. */
  sweepOrphanBlobs: UseCase<{ graceMs: number }, SweepReport>;
  /**
   * Settles or gives back the usage holds that name no instance (written before holds did) and stopped more than
   * `graceMs` ago.
   */
  sweepStaleHolds: UseCase<{ graceMs: number }, HoldSweepReport>;
  /** Finishes or undoes the unfinished work of instances that are gone (their lease ran out), whatever its age. */
  sweepDeadInstances: UseCase<Record<string, never>, RecoveryReport>;
  /** Ends the resumable uploads idle past their expiry, giving back their bytes and counts. */
  sweepExpiredUploads: UseCase<Record<string, never>, ExpiredUploadsReport>;
  // activity and webhooks: the owner's, from a session only
  /** Events newest first: of one share or request of the caller's (else not_found), or all of the caller's. */
  listActivity: UseCase<ListActivityInput, Page<ActivityView>>;
  /** limit_reached (`limit: "webhooks"`) past 10 per user; the answer alone carries the secret. */
  createWebhook: CreateWebhook;
  listWebhooks: ListWebhooks;
  getWebhook: GetWebhook;
  updateWebhook: UpdateWebhook;
  deleteWebhook: DeleteWebhook;
  listDeliveries: ListDeliveries;
  /** Queues a signed `ping` delivery. */
  testWebhook: TestWebhook;
  // mail notices
  setEmail: SetEmail;
  getEmail: GetEmail;
  setNotify: SetNotify;
  notifyOf: NotifyOf;
}
