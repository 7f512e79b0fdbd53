import { z } from 'zod';
import { LIMIT_KINDS, SHARE_TYPES, isByteKind, type LimitKind } from '../../../domain/index.js';
import { PERSISTENCE_NAMES } from '../http-options.js';

/**
 * The response bodies of the API as zod schemas, for the OpenAPI document only: the views themselves are built by the
 * core (application/views.ts). Each is registered under its component name, so the document refers to it by $ref.
 */
export const components = z.registry<{ id: string; description?: string }>();

const time = z.string().describe('ISO 8601, UTC, with milliseconds');
const bytes = z.string().describe('a decimal string of bytes');
const ref = z.string().nullable();
/** Present only on an item that has a share: the share page, `{public base}/s/{shareId}`. */
const url = z.string().optional();

/** Only on an end-to-end encrypted file (docs/API.md, "End-to-end encrypted files"). */
const encrypted = {
  encrypted: z.literal(true).optional().describe('present, true, only on an end-to-end encrypted file'),
  encryptedMetadata: z
    .string()
    .optional()
    .describe('with encrypted: the sealed metadata object (name, type, size), base64url, opened with the key of the link'),
};

const Received = z
  .object({
    id: z.string().describe('the file request it came through'),
    uploaderName: z.string().nullable(),
    note: z.string().nullable(),
    receivedAt: time,
  })
  .nullable()
  .describe('How the file came through a file request: always present, null on every other file and through a share');

export const File = z
  .object({
    id: z.string(),
    name: z.string(),
    mime: z.string(),
    size: bytes,
    ownerId: z.string(),
    folderId: ref,
    createdAt: time,
    updatedAt: time,
    shareId: ref,
    request: Received,
    ...encrypted,
    url,
  })
  .register(components, { id: 'File' });

export const Folder = z
  .object({
    id: z.string(),
    name: z.string(),
    ownerId: z.string(),
    parentId: ref,
    get files() {
      return z.array(File);
    },
    // Annotated so the type of Folder does not depend on itself.
    get folders(): z.ZodArray<z.ZodType> {
      return z.array(Folder);
    },
    createdAt: time,
    updatedAt: time,
    shareId: ref,
    fileCount: z.int().optional(),
    folderCount: z.int().optional(),
    url,
  })
  .register(components, { id: 'Folder' });

const path = z
  .array(z.object({ id: z.string(), name: z.string() }))
  .describe('the folders that hold the hit, from the top level down; empty at the top level');

export const FileHit = File.extend({ path }).register(components, { id: 'FileHit', description: 'A file found by a search' });

export const FolderHit = Folder.extend({ path }).register(components, {
  id: 'FolderHit',
  description: 'A folder found by a search, with fileCount and folderCount and empty files and folders',
});

export const Listing = z
  .object({ files: z.array(FileHit), folders: z.array(FolderHit) })
  .register(components, { id: 'Listing', description: 'Files and folders: search hits' });

export const Root = z
  .object({
    files: z.array(File),
    folders: z.array(Folder),
    nextCursor: z.string().nullable().describe('the cursor of the next page, or null on the last'),
  })
  .register(components, {
    id: 'Root',
    description: 'One page of the top level: folders first, then files (Paging)',
  });

export const Collection = z
  .object({
    id: z.string(),
    name: z.string(),
    ownerId: z.string(),
    createdAt: time,
    updatedAt: time,
    files: z.array(File),
    count: z.int(),
    shareId: ref,
    url,
  })
  .register(components, { id: 'Collection' });

export const Paste = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    content: z.string(),
    size: bytes,
    ownerId: z.string(),
    createdAt: time,
    updatedAt: time,
    shareId: ref,
    encrypted: z.literal(true).optional().describe('present, true, only on an end-to-end encrypted paste (content is base64url ciphertext)'),
    url,
  })
  .register(components, { id: 'Paste' });

export const Share = z
  .object({
    id: z.string(),
    notify: z.object({ email: z.boolean() }).optional().describe('The owner\'s mail notices (in the owner\'s listing, create and update answers)'),
    ownerId: z.string(),
    type: z.enum(SHARE_TYPES),
    createdAt: time,
    expiresAt: time.nullable(),
    views: z.int(),
    maxViews: z.int().nullable(),
    downloads: z.int(),
    maxDownloads: z.int().nullable(),
    state: z.enum(['active', 'expired', 'exhausted']),
    protected: z.boolean(),
    owner: z.object({ id: z.string(), username: z.string() }),
    url: z.string(),
    file: z.object({ id: z.string(), name: z.string(), size: bytes, mime: z.string(), ...encrypted }).optional(),
    folder: z.object({ id: z.string(), name: z.string(), fileCount: z.int(), folderCount: z.int() }).optional(),
    collection: z.object({ id: z.string(), name: z.string(), fileCount: z.int() }).optional(),
    paste: z.object({ id: z.string(), name: z.string(), type: z.string(), content: z.string(), encrypted: z.literal(true).optional() }).optional(),
  })
  .register(components, { id: 'Share' });

const counters = Object.fromEntries(
  LIMIT_KINDS.map((kind) => {
    const value = isByteKind(kind) ? bytes : z.int();
    return [kind, z.object({ current: value, max: value })];
  }),
) as unknown as Record<LimitKind, z.ZodObject>;

export const Usage = z.object(counters).register(components, { id: 'Usage' });

export const Mfa = z
  .object({
    totp: z.boolean().describe('TOTP is on'),
    passkeys: z.number().int().min(0).describe('Registered passkeys'),
    recoveryCodesLeft: z.number().int().min(0).describe('Unused recovery codes (0 while TOTP is off)'),
  })
  .register(components, { id: 'Mfa', description: "A user's second factors" });

export const Oidc = z
  .object({ issuer: z.string(), subject: z.string().describe('The provider\'s `sub` for this person') })
  .register(components, { id: 'Oidc', description: 'A single sign-on identity linked to an account' });

const signIn = {
  hasPassword: z.boolean().describe('false for an account made by single sign-on, until an admin sets a password'),
  oidc: Oidc.nullable().describe('The linked single sign-on identity, or null'),
};

export const Providers = z
  .object({
    password: z.boolean().describe('The password form is offered (PASSWORD_LOGIN is not `disabled`)'),
    oidc: z
      .object({
        label: z.string().describe('The button says "Sign in with {label}"'),
        available: z.boolean().describe('false until the provider\'s discovery document could be read (retried)'),
      })
      .nullable()
      .describe('Single sign-on, or null when it is off'),
  })
  .register(components, { id: 'Providers', description: 'How people may sign in here' });

export const AdminUser = z
  .object({ id: z.string(), username: z.string(), type: z.enum(['admin', 'user']), mfa: Mfa, ...signIn, ...counters })
  .register(components, { id: 'AdminUser', description: 'The usage record of a user, with who they are' });

export const LoginResult = z
  .object({ token: z.string(), user: z.object({ id: z.string(), username: z.string() }) })
  .register(components, { id: 'LoginResult' });

export const MfaRequired = z
  .object({
    mfaRequired: z.literal(true),
    mfaToken: z.string().describe('For POST /api/auth/login/mfa or /api/auth/session/mfa: 5 minutes, once'),
    methods: z.array(z.enum(['totp', 'recovery', 'passkey'])).describe('The second factors the user has'),
  })
  .register(components, {
    id: 'MfaRequired',
    description: 'The password was right and a second factor is due: no session yet',
  });

export const LoginAnswer = z.union([LoginResult, MfaRequired]).register(components, {
  id: 'LoginAnswer',
  description: 'A session token, or (for a user with a second factor) MfaRequired',
});

export const TotpSetup = z
  .object({
    secret: z.string().describe('The key, base32, to type into an authenticator app by hand'),
    otpauthUrl: z.string().describe('`otpauth://totp/...`: what the QR code holds'),
    qrSvg: z.string().describe('The QR code of otpauthUrl, an SVG document'),
  })
  .register(components, { id: 'TotpSetup', description: 'A pending TOTP key: nothing is on until it is confirmed' });

export const RecoveryCodes = z
  .object({ recoveryCodes: z.array(z.string()).length(10) })
  .register(components, { id: 'RecoveryCodes', description: 'Shown only in this answer; each works once' });

export const Passkey = z
  .object({
    id: z.string(),
    name: z.string().describe('1 to 64 characters'),
    createdAt: time,
    lastUsedAt: time.nullable().describe('The last sign-in with it; null until one'),
  })
  .register(components, { id: 'Passkey', description: 'A registered passkey (nothing of its key)' });

const credentialDescriptor = z.looseObject({
  id: z.string().describe('The credential id, base64url'),
  type: z.literal('public-key'),
  transports: z.array(z.string()).optional(),
});

export const PasskeyCreationOptions = z
  .looseObject({
    challenge: z.string().describe('base64url; answerable once, for 5 minutes'),
    rp: z.looseObject({ id: z.string(), name: z.string() }),
    user: z.looseObject({
      id: z.string().describe("The user handle, base64url: the user's id, never the name"),
      name: z.string(),
      displayName: z.string(),
    }),
    pubKeyCredParams: z.array(z.looseObject({ alg: z.int(), type: z.literal('public-key') })),
    timeout: z.int().optional(),
    excludeCredentials: z.array(credentialDescriptor).optional(),
    authenticatorSelection: z
      .looseObject({
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
        authenticatorAttachment: z.string().optional(),
      })
      .optional(),
    attestation: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions: z.looseObject({}).optional(),
  })
  .register(components, {
    id: 'PasskeyCreationOptions',
    description:
      "WebAuthn's PublicKeyCredentialCreationOptionsJSON: hand it to navigator.credentials.create " +
      "(PublicKeyCredential.parseCreationOptionsFromJSON) or @simplewebauthn/browser's startRegistration",
  });

export const PasskeyRequestOptions = z
  .looseObject({
    challenge: z.string().describe('base64url; answerable once, for 5 minutes'),
    rpId: z.string().optional(),
    allowCredentials: z
      .array(credentialDescriptor)
      .optional()
      .describe("The user's passkeys (the second step); absent for a sign-in without a password"),
    timeout: z.int().optional(),
    userVerification: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions: z.looseObject({}).optional(),
  })
  .register(components, {
    id: 'PasskeyRequestOptions',
    description:
      "WebAuthn's PublicKeyCredentialRequestOptionsJSON: hand it to navigator.credentials.get " +
      "(PublicKeyCredential.parseRequestOptionsFromJSON) or @simplewebauthn/browser's startAuthentication",
  });

export const Me = z
  .object({
    id: z.string(),
    username: z.string(),
    type: z.enum(['admin', 'user']),
    createdAt: time,
    mustChangePassword: z
      .boolean()
      .describe(
        'true while the password is one the user did not choose (generated at first start, or set by an admin); ' +
          'cleared by POST /api/auth/password. Nothing is refused because of it',
      ),
    email: z.string().nullable().optional().describe('Where mail notices go (GET and PATCH /api/auth/me only)'),
    mail: z.boolean().optional().describe('Whether this server can send mail (SMTP_URL and MAIL_FROM set; GET and PATCH /api/auth/me only)'),
    mfa: Mfa,
    ...signIn,
  })
  .register(components, { id: 'Me' });

export const SessionAnswer = z.union([Me, MfaRequired]).register(components, {
  id: 'SessionAnswer',
  description: 'Who signed in (the cookie is set), or MfaRequired (no cookie yet)',
});

const persistence = z
  .enum(PERSISTENCE_NAMES)
  .describe('Where records live; `memory` loses everything, accounts included, when Coffer stops');

export const Session = z
  .object({ user: Me.nullable(), registration: z.boolean(), persistence })
  .register(components, {
    id: 'Session',
    description:
      'Who the browser session belongs to (null when signed out), whether anyone may register, and the persistence',
  });

const scope = z
  .enum(['uploader', 'dav'])
  .describe('`uploader`: the upload routes of the API; `dav`: WebDAV at /dav/ only (HTTP Basic, the token as password)');

export const Token = z
  .object({ id: z.string(), name: z.string(), scope, createdAt: time })
  .register(components, { id: 'Token' });

export const CreatedToken = z
  .object({ id: z.string(), name: z.string(), scope, createdAt: time, token: z.string() })
  .register(components, { id: 'CreatedToken', description: 'The secret is shown only in this answer' });

export const SharexConfig = z
  .object({
    Version: z.string(),
    Name: z.string(),
    DestinationType: z.string(),
    RequestMethod: z.literal('POST'),
    RequestURL: z.string(),
    Headers: z.record(z.string(), z.string()),
    Body: z.literal('MultipartFormData'),
    Arguments: z.record(z.string(), z.string()),
    FileFormName: z.string(),
    URL: z.string(),
    ErrorMessage: z.string(),
  })
  .register(components, { id: 'SharexConfig', description: 'A ShareX custom uploader (.sxcu)' });

export const Health = z
  .object({ status: z.literal('ok'), persistence })
  .register(components, { id: 'Health' });

const requestState = z.enum(['active', 'expired', 'full', 'closed']);

export const Request = z
  .object({
    id: z.string(),
    notify: z.object({ email: z.boolean() }).optional().describe('The owner\'s mail notices (in the owner\'s listing, create and update answers)'),
    name: z.string(),
    message: z.string().nullable(),
    folderId: z.string(),
    protected: z.boolean(),
    expiresAt: time.nullable(),
    maxFiles: z.int().nullable(),
    maxBytes: bytes.nullable(),
    maxFileBytes: bytes.nullable(),
    allowedTypes: z.array(z.string()),
    requireName: z.boolean(),
    files: z.int(),
    bytes,
    state: requestState,
    url: z.string().describe('the page uploaders open, `{public base}/r/{id}`'),
    createdAt: time,
  })
  .register(components, { id: 'Request', description: 'A file request, as its owner sees it' });

export const PublicRequest = z
  .union([
    z.object({
      name: z.string(),
      message: z.string().nullable(),
      ownerName: z.string(),
      protected: z.boolean(),
      requireName: z.boolean(),
      maxFileBytes: bytes.nullable(),
      allowedTypes: z.array(z.string()),
      filesLeft: z.int().nullable().describe('null: no maximum'),
      bytesLeft: bytes.nullable().describe('null: no maximum'),
      state: requestState,
    }),
    z.object({ name: z.string(), protected: z.literal(true), state: requestState }),
  ])
  .register(components, {
    id: 'PublicRequest',
    description: 'What an uploader sees; a protected request not yet unlocked shows only its name and state',
  });

export const ReceivedFile = z
  .object({ id: z.string(), name: z.string(), size: bytes })
  .register(components, { id: 'ReceivedFile', description: 'The file an uploader sent: nothing else of the owner\'s' });

export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'gone',
  'limit_reached',
  'payload_too_large',
  'rate_limited',
  'share_password_required',
  'share_password_invalid',
  'unavailable',
  'precondition_failed',
  'unsupported_media_type',
  'checksum_mismatch',
  'internal',
] as const;

/** The one error shape; details beyond these (limit, maxBytes, shareId, retryAfter, ...) depend on the failure. */
export const ErrorBody = z
  .looseObject({
    error: z.enum(ERROR_CODES),
    message: z.string().describe('for people'),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('validation failures, one per field'),
    field: z.string().optional().describe('bad_request: the one field refused (also in issues)'),
    limit: z.string().optional().describe('limit_reached: the limit that was reached'),
    max: z.union([z.int(), z.string()]).optional().describe('limit_reached: its maximum (bytes as a decimal string)'),
    current: z.union([z.int(), z.string()]).optional().describe('limit_reached: what is in use'),
    maxBytes: z.int().optional().describe('payload_too_large: the largest body or file accepted'),
    retryAfter: z.number().optional().describe('rate_limited: seconds to wait (also in Retry-After)'),
    shareId: z.string().optional().describe('conflict: the share the item already has'),
    offset: z.int().optional().describe("conflict of a resumable upload's append: the offset the upload is at"),
    length: z.int().optional().describe("payload_too_large of a resumable upload's append: the upload's length"),
    version: z.string().optional().describe('precondition_failed: the tus version the server speaks'),
    maxParts: z.int().optional().describe('bad_request: the most appends a resumable upload takes'),
    allowedTypes: z.array(z.string()).optional().describe('unsupported_media_type of a file request: what it takes'),
    bytesLeft: z.string().optional().describe('payload_too_large of a file request: the bytes it still takes'),
    state: z.string().optional().describe('gone of a file request: closed, expired or full'),
  })
  .register(components, { id: 'Error' });

const ActivityClientView = z.object({
  address: z.string().nullable().describe('As ACTIVITY_ADDRESSES says: `203.0.113.0/24`, `2001:db8:1::/48`, the whole address, or null'),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  bot: z.boolean().describe('A link-preview bot: recorded, counting nothing'),
});

export const ActivityEvent = z
  .object({
    id: z.string(),
    at: time,
    shareId: z.string().optional(),
    requestId: z.string().optional(),
    kind: z.enum(['view', 'download', 'archive', 'password_refused', 'gone', 'received']),
    fileId: z.string().optional(),
    bytes: bytes.optional().describe('What was actually sent (download, archive) or received'),
    complete: z.boolean().optional().describe('Whether the whole body went out'),
    client: ActivityClientView,
    url,
  })
  .register(components, { id: 'ActivityEvent', description: 'One thing that happened to a share or a file request' });

const webhookFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  shareIds: z.array(z.string()).nullable().describe('Only these shares\' events; null: all of yours'),
  createdAt: time,
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe('Why deliveries stopped (24 hours without success); null while enabled'),
};

export const Webhook = z.object(webhookFields).register(components, { id: 'Webhook' });

export const CreatedWebhook = z
  .object({ ...webhookFields, secret: z.string() })
  .register(components, { id: 'CreatedWebhook', description: 'The secret is shown only in this answer' });

export const WebhookDelivery = z
  .object({
    id: z.string().describe('The event id: the same on every attempt'),
    type: z.string(),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int(),
    lastStatus: z.int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: time.nullable(),
    deliveredAt: time.nullable(),
    createdAt: time,
  })
  .register(components, { id: 'WebhookDelivery' });
