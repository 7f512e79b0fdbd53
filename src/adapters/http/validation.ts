import { z } from 'zod';
import { isByteKind, LIMIT_KINDS, SHARE_TYPES, badRequest, type DomainError, type LimitKind } from '../../domain/index.js';
import type { LimitChanges } from '../../application/contract.js';

/** Every id a client sends, in a path, a body or a header. */
export const id = z.string().min(1).max(128);
const ref = id.nullable();

/** A zod failure as a bad_request whose message names each field, with the issues as details. */
export function validationError(error: z.ZodError, field?: string): DomainError {
  const issues = error.issues.map((issue) => ({
    path: [...(field === undefined ? [] : [field]), ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return badRequest(message || 'Invalid input', { issues });
}

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** One shared schema for every id: building a schema per call made zod compile a parser on every request. */
export function parseId(value: string | undefined, field = 'id'): string {
  const result = id.safeParse(value);
  if (!result.success) throw validationError(result.error, field);
  return result.data;
}

// Objects strip unknown fields; a body that is not a JSON object fails as a whole.
export const credentialsBody = z.object({ username: z.string(), password: z.string() });
export const tokenCreateBody = z.object({ name: z.string() });
export const fileUpdateBody = z.object({ name: z.string().optional(), folderId: ref.optional() });
export const folderCreateBody = z.object({ name: z.string(), parentId: ref.default(null) });
export const folderUpdateBody = z.object({ name: z.string().optional(), parentId: ref.optional() });
export const collectionCreateBody = z.object({ name: z.string() });
export const collectionUpdateBody = z.object({ name: z.string().optional() });
export const pasteCreateBody = z.object({
  name: z.string().optional(),
  type: z.string().optional(),
  content: z.string(),
});
export const pasteUpdateBody = z.object({
  name: z.string().optional(),
  type: z.string().optional(),
  content: z.string().optional(),
});
export const shareCreateBody = z.object({
  type: z.enum(SHARE_TYPES),
  id,
  password: z.string().nullable().default(null),
});
export const shareUpdateBody = z.object({ password: z.string().nullable() });
export const searchBody = z.object({
  query: z.string(),
  folderId: ref.default(null),
  recursive: z.boolean().default(false),
});

const userType = z.enum(['admin', 'user']);
const count = z.int().min(0).nullable();
/** Storage is a byte count written as a decimal string, like everywhere else in the API. */
const storageBytes = z
  .string()
  .regex(/^\d{1,16}$/, 'expected a decimal string of bytes')
  .refine((s) => Number.isSafeInteger(Number(s)), 'too large')
  .transform(Number)
  .nullable();

export const adminCreateBody = z.object({ username: z.string(), password: z.string(), type: userType.optional() });
export const adminUpdateBody = z.object({
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
