import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import {
  assertAdmin,
  assertMay,
  assertMayShareKind,
  DomainError,
  mayShareItem,
  uploaderTokenOf,
} from '../../src/domain/index.js';

const actor = (via: Actor['via'], userType: Actor['userType'] = 'user'): Actor => ({
  userId: 'u1',
  userType,
  via,
  tokenId: 't1',
  limits: {},
});

function codeOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof DomainError ? err.code : 'not a DomainError';
  }
}

describe('assertMay', () => {
  it('lets a session do anything', () => {
    for (const action of ['file.upload', 'token.create', 'auth.logout', 'folder.create', 'anything']) {
      expect(codeOf(() => assertMay(actor('session'), action))).toBeNull();
    }
  });

  it('lets an uploader token do exactly its four actions', () => {
    for (const action of ['file.upload', 'paste.create', 'share.create', 'usage.read']) {
      expect(codeOf(() => assertMay(actor('uploader'), action))).toBeNull();
    }
  });

  it('forbids an uploader token everything else, whoever owns it', () => {
    for (const action of ['token.create', 'token.list', 'token.delete', 'auth.logout', 'auth.me', 'folder.create', 'file.delete']) {
      expect(codeOf(() => assertMay(actor('uploader', 'admin'), action))).toBe('forbidden');
    }
  });
});

describe('assertAdmin', () => {
  it('passes an admin session', () => {
    expect(codeOf(() => assertAdmin(actor('session', 'admin')))).toBeNull();
  });

  it('forbids a plain user session', () => {
    expect(codeOf(() => assertAdmin(actor('session', 'user')))).toBe('forbidden');
  });

  it("forbids an admin's API token", () => {
    expect(codeOf(() => assertAdmin(actor('uploader', 'admin')))).toBe('forbidden');
  });
});

describe('the sharing rule', () => {
  it('lets a session share every kind, an uploader token only files and pastes', () => {
    for (const type of ['file', 'folder', 'collection', 'paste'] as const) {
      expect(codeOf(() => assertMayShareKind(actor('session'), type))).toBeNull();
      const expected = type === 'file' || type === 'paste' ? null : 'forbidden';
      expect(codeOf(() => assertMayShareKind(actor('uploader', 'admin'), type)), type).toBe(expected);
    }
  });

  it('lets an uploader token share only what that same token made; a session anything its user owns', () => {
    const made = (uploaderTokenId: string | null, ownerId = 'u1') => ({ ownerId, uploaderTokenId });
    expect(mayShareItem(actor('uploader'), made('t1'))).toBe(true);
    expect(mayShareItem(actor('uploader'), made('t2'))).toBe(false);
    expect(mayShareItem(actor('uploader'), made(null))).toBe(false);
    expect(mayShareItem(actor('uploader'), made('t1', 'u2'))).toBe(false);
    expect(mayShareItem(actor('uploader'), null)).toBe(false);
    expect(mayShareItem(actor('session'), made('t2'))).toBe(true);
    expect(mayShareItem(actor('session'), made(null, 'u2'))).toBe(false);
  });

  it('records the uploader token behind a create, and nothing for a session', () => {
    expect(uploaderTokenOf(actor('uploader'))).toBe('t1');
    expect(uploaderTokenOf(actor('session'))).toBeNull();
  });
});
