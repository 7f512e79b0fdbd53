import { z } from 'zod';
import { ACTIVITY_KINDS, WEBHOOK_EVENT_TYPES, isByteKind, LIMIT_KINDS, SHARE_TYPES, badRequest, type DomainError, type LimitKind } from '../../domain/index.js';
import type { LimitChanges } from '../../application/contract.js';

/** Every id a client sends, in a path, a body or a header. */
const ID_MIN = 1;
const ID_MAX = 128;
export const id = z.string().min(ID_MIN).max(ID_MAX);
const ref = id.nullable();

const KIND: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/**
 * What a person can act on, said of the field ("is required", "must be a string"): zod's own wording ("Invalid
 * input: expected string, received undefined") speaks of types. Messages a schema gives itself are kept.
 */
const humanMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${KIND[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${String(issue.minimum)} characters long`
        : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${String(issue.maximum)} characters long`
        : `must be at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return undefined;
  }
};

/** A zod failure as a bad_request whose issues name each field, `[{path, message}]`, each message a sentence. */
export function validationError(error: z.ZodError, field?: string): DomainError {
  const pathOf = (path: readonly PropertyKey[]) => [...(field === undefined ? [] : [field]), ...path.map(String)].join('.');
  const said = (path: string, message: string) => ({ path, message: `${path || 'The request body'} ${message}` });
  // An unknown field is named on its own, so a client sees which option it sent was not understood.
  const issues = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => said(pathOf([...issue.path, key]), 'is not a field of this request'))
      : [said(pathOf(issue.path), issue.message)],
  );
  const message = issues.map((i) => i.message).join('; ');
  return badRequest(message || 'Invalid input', { issues });
}

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { error: humanMessage });
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** One value of a form or a query, judged by `schema`; a failure names `field`. */
export function parseField<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
  const result = schema.safeParse(value, { error: humanMessage });
  if (!result.success) throw validationError(result.error, field);
  return result.data;
}

/** One shared schema for every id: building a schema per call made zod compile a parser on every request. */
export function parseId(value: string | undefined, field = 'id'): string {
  // The schema's own rule, checked first without zod: every share read and file request passes here, and zod's
  // machinery cost 5% of a share read's CPU. zod still words the error of a value that fails.
  if (typeof value === 'string' && value.length >= ID_MIN && value.length <= ID_MAX) return value;
  const result = id.safeParse(value, { error: humanMessage });
  if (!result.success) throw validationError(result.error, field);
  return result.data;
}

// Bodies are strict: a field the route does not know is refused (400) rather than silently dropped.
export const credentialsBody = z.strictObject({ username: z.string(), password: z.string() });
/** A browser's sign-in (or sign-up, `register`): the session goes into a cookie, never into the answer. */
export const browserSessionBody = credentialsBody.extend({ register: z.boolean().default(false) });
export const passwordChangeBody = z.strictObject({ currentPassword: z.string(), newPassword: z.string() });
export const tokenCreateBody = z.strictObject({ name: z.string(), scope: z.enum(['uploader', 'dav']).default('uploader') });
/** A ShareX config always carries an uploader token. */
export const sharexTokenBody = z.strictObject({ name: z.string() });
export const fileUpdateBody = z.strictObject({ name: z.string().optional(), folderId: ref.optional() });
export const folderCreateBody = z.strictObject({ name: z.string(), parentId: ref.default(null) });
export const folderUpdateBody = z.strictObject({ name: z.string().optional(), parentId: ref.optional() });
export const collectionCreateBody = z.strictObject({ name: z.string() });
export const collectionUpdateBody = z.strictObject({ name: z.string().optional() });
export const pasteUpdateBody = z.strictObject({
  name: z.string().optional(),
  type: z.string().optional(),
  content: z.string().optional(),
});
/** An instant written in ISO 8601 with its offset (`2026-12-01T18:00:00Z`, `…+02:00`): never a local time. */
export const timestamp = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp with a time zone, such as 2026-12-01T18:00:00Z' })
  .transform((text) => new Date(text));
export const shareMaximum = z.int().min(1);
/** Absent: the default (create) or unchanged (update); null: none. */
const shareOptions = {
  password: z.string().nullable().optional(),
  expiresAt: timestamp.nullable().optional(),
  maxViews: shareMaximum.nullable().optional(),
  maxDownloads: shareMaximum.nullable().optional(),
};
/** `notify: {email}`: mail the owner (at most every 10 minutes) when a share is downloaded or a request receives files. */
const notify = { notify: z.strictObject({ email: z.boolean() }).optional() };
export const shareCreateBody = z.strictObject({ type: z.enum(SHARE_TYPES), id, ...shareOptions, ...notify });
export const shareUpdateBody = z.strictObject({ ...shareOptions, ...notify });
/** `share: true` shares the paste in the same request, with the options of a share; options alone are refused. */
export const pasteCreateBody = z
  .strictObject({
    name: z.string().optional(),
    type: z.string().optional(),
    content: z.string(),
    share: z.boolean().optional(),
    encrypted: z.boolean().optional(),
    ...shareOptions,
  })
  .transform(({ share, password, expiresAt, maxViews, maxDownloads, ...paste }, ctx) => {
    const options = Object.fromEntries(
      Object.entries({ password, expiresAt, maxViews, maxDownloads }).filter(([, value]) => value !== undefined),
    );
    if (share !== true && Object.keys(options).length > 0) {
      for (const path of Object.keys(options)) ctx.addIssue({ code: 'custom', path: [path], message: 'takes effect only with share: true' });
      return z.NEVER;
    }
    return { ...paste, share: share === true ? options : null };
  });
/** A share page's password, sent to POST /s/{id}/unlock. */
export const unlockBody = z.strictObject({ password: z.string() });
/** `preview=1`: the share page shows the bytes inline as part of its visit (ShareKey.preview). */
export const previewQuery = z.object({ preview: z.literal('1').optional() });
export const searchBody = z.strictObject({
  query: z.string(),
  folderId: ref.default(null),
  recursive: z.boolean().default(false),
});

// File requests (routes/requests.ts). Byte maxima are decimal strings, as every size in the API.
const positiveBytes = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a decimal string of bytes, at least 1')
  .refine((s) => Number.isSafeInteger(Number(s)), 'is too large')
  .transform(Number);
const requestOptions = {
  message: z.string().nullable().optional(),
  password: z.string().nullable().optional(),
  expiresAt: timestamp.nullable().optional(),
  maxFiles: z.int().min(1).nullable().optional(),
  maxBytes: positiveBytes.nullable().optional(),
  maxFileBytes: positiveBytes.nullable().optional(),
  allowedTypes: z.array(z.string()).nullable().optional(),
  requireName: z.boolean().optional(),
};
export const requestCreateBody = z.strictObject({ name: z.string(), folderId: ref.optional(), ...requestOptions, ...notify });
export const requestUpdateBody = z.strictObject({
  ...notify,
  name: z.string().optional(),
  folderId: id.optional(),
  closed: z.boolean().optional(),
  ...requestOptions,
});

const userType = z.enum(['admin', 'user']);
const count = z.int().min(0).nullable();
/** Storage is a byte count written as a decimal string, like everywhere else in the API. */
const storageBytes = z
  .string()
  .regex(/^\d{1,16}$/, 'must be a decimal string of bytes')
  .refine((s) => Number.isSafeInteger(Number(s)), 'is too large')
  .transform(Number)
  .nullable();

export const adminCreateBody = z.strictObject({ username: z.string(), password: z.string(), type: userType.optional() });
export const adminUpdateBody = z.strictObject({
  type: userType.optional(),
  password: z.string().optional(),
  // Every kind the domain knows, none other: a kind the client names that does not exist is refused, not dropped.
  limits: z
    .strictObject(
      Object.fromEntries(
        LIMIT_KINDS.map((kind) => [kind, (isByteKind(kind) ? storageBytes : count).optional()]),
      ) as Record<LimitKind, z.ZodOptional<typeof count>>,
    )
    .optional(),
});

/** Keeps only the kinds the client named, so an absent kind stays unchanged in the core. */
export function limitChanges(limits: Partial<Record<string, number | null>>): LimitChanges {
  const out: LimitChanges = {};
  for (const kind of LIMIT_KINDS) {
    const value = limits[kind];
    if (value !== undefined) out[kind] = value;
  }
  return out;
}

// Second factors (routes/mfa.ts). A code is a TOTP code (six digits) or a recovery code (`xxxxx-xxxxx`).
const code = z.string().max(64);
export const mfaCodeBody = z.strictObject({ code });
const mfaToken = z.string().max(256);

/**
 * A WebAuthn credential as the browser hands it over (PublicKeyCredential#toJSON, @simplewebauthn/browser's
 * startRegistration and startAuthentication): the fields Coffer reads are named; browsers add others as WebAuthn
 * grows, so the rest passes (the checks themselves are WebAuthn's, in the core).
 */
export const webauthnCredential = z
  .looseObject({
    id: z.string().max(1400),
    rawId: z.string().max(1400),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: z.string() }),
    clientExtensionResults: z.looseObject({}).optional(),
    authenticatorAttachment: z.string().optional(),
  })
  .meta({ description: 'The credential as PublicKeyCredential#toJSON() (or @simplewebauthn/browser) gives it' });

/** The second step of a sign-in: a code (TOTP or recovery), or a passkey's answer to the step's options. */
export const mfaLoginBody = z
  .strictObject({ mfaToken, code: code.optional(), passkey: webauthnCredential.optional() })
  .refine((body) => (body.code === undefined) !== (body.passkey === undefined), {
    message: 'Answer with either code or passkey',
    path: ['code'],
  });
export const mfaOptionsBody = z.strictObject({ mfaToken });

// Passkeys (routes/passkeys.ts).
export const passkeyCreateBody = z.strictObject({ name: z.string().max(1024).optional(), response: webauthnCredential });
export const passkeyRenameBody = z.strictObject({ name: z.string().max(1024) });
export const passkeyLoginBody = z.strictObject({ response: webauthnCredential });
export const totpOffBody = z.strictObject({ password: z.string(), code });

// Activity and webhooks (routes/activity.ts, routes/webhooks.ts).
export const activityQuery = z.object({ kind: z.enum(ACTIVITY_KINDS).optional() });
const webhookEvents = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length * 2);
const webhookShareIds = z.array(id).max(1000).nullable();
export const webhookCreateBody = z.strictObject({
  url: z.string().max(2048),
  events: webhookEvents,
  shareIds: webhookShareIds.optional(),
});
export const webhookUpdateBody = z.strictObject({
  url: z.string().max(2048).optional(),
  events: webhookEvents.optional(),
  shareIds: webhookShareIds.optional(),
  enabled: z.literal(true).optional().describe('Turns a disabled webhook back on'),
});

export const meUpdateBody = z.strictObject({ email: z.string().max(254).nullable() });
