import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import { assertAdmin, assertMay, DomainError } from '../../src/domain/index.js';

const actor = (via: Actor['via'], userType: Actor['userType'] = 'user'): Actor => ({
  userId: 'u1',
  userType,
  via,
  tokenId: 't1',
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
