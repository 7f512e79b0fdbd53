import type { Collection, Folder, Paste, Share, StoredFile, Token, User } from '../../src/domain/index.js';

/** Builders for the contract suites. Every record is new, so tests never share objects by accident. */

export const T0 = new Date('2026-11-22T10:00:00.000Z');

/** A timestamp `minutes` after T0. */
export function at(minutes: number): Date {
  return new Date(T0.getTime() + minutes * 60_000);
}

let counter = 0;
function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}-${String(counter).padStart(6, '0')}`;
}

export function aUser(fields: Partial<User> = {}): User {
  const id = fields.id ?? nextId('user');
  return {
    id,
    username: `name${id.replace(/\W/g, '')}`,
    type: 'user',
    passwordHash: `hash-of-${id}`,
    credentialsEpoch: 0,
    keptSessionId: null,
    mustChangePassword: false,
    limits: {},
    oidc: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

export function aToken(fields: Partial<Token> = {}): Token {
  const id = fields.id ?? nextId('token');
  return {
    id,
    userId: 'owner-1',
    type: 'session',
    name: 'session',
    hash: `hash-${id}`,
    createdAt: at(0),
    expiresAt: at(60),
    credentialsEpoch: 0,
    ...fields,
  };
}

export function aFile(fields: Partial<StoredFile> = {}): StoredFile {
  const id = fields.id ?? nextId('file');
  return {
    id,
    ownerId: 'owner-1',
    folderId: null,
    name: `${id}.txt`,
    mime: 'text/plain',
    size: 12,
    blobKey: `blob-${id}`,
    uploaderTokenId: null,
    charset: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

export function aFolder(fields: Partial<Folder> = {}): Folder {
  const id = fields.id ?? nextId('folder');
  return { id, ownerId: 'owner-1', parentId: null, name: id, createdAt: at(0), updatedAt: at(0), ...fields };
}

export function aCollection(fields: Partial<Collection> = {}): Collection {
  const id = fields.id ?? nextId('collection');
  return { id, ownerId: 'owner-1', name: id, fileIds: [], createdAt: at(0), updatedAt: at(0), ...fields };
}

export function aPaste(fields: Partial<Paste> = {}): Paste {
  const id = fields.id ?? nextId('paste');
  return {
    id,
    ownerId: 'owner-1',
    name: id,
    type: 'text',
    content: 'hello',
    size: 5,
    uploaderTokenId: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

export function aShare(fields: Partial<Share> = {}): Share {
  const id = fields.id ?? nextId('share');
  return {
    id,
    ownerId: 'owner-1',
    type: 'file',
    itemId: `item-${id}`,
    passwordHash: null,
    views: 0,
    downloads: 0,
    expiresAt: null,
    maxViews: null,
    maxDownloads: null,
    createdAt: at(0),
    ...fields,
  };
}

export function ids(items: readonly { id: string }[]): string[] {
  return items.map((item) => item.id);
}
