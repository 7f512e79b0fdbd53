import { injectable } from 'inversify';
import {
  MAX_UPLOAD_PARTS,
  assertCut,
  type UploadPart,
  type UploadSession,
  type UploadSessionRepository,
} from '../../application/ports/index.js';
import { clone } from './clone.js';

/** Each method checks and changes in one synchronous step, as the conditional updates of MongoDB do. */
@injectable()
export class MemoryUploadSessionRepository implements UploadSessionRepository {
  private readonly sessions = new Map<string, UploadSession>();

  async insert(session: UploadSession): Promise<void> {
    if (this.sessions.has(session.id)) throw new Error(`An upload with id ${session.id} already exists`);
    this.sessions.set(session.id, clone(session));
  }

  async findById(id: string): Promise<UploadSession | null> {
    const session = this.sessions.get(id);
    return session ? clone(session) : null;
  }

  async findByPart(key: string): Promise<UploadSession | null> {
    for (const session of this.sessions.values()) {
      if (session.parts.some((part) => part.key === key)) return clone(session);
    }
    return null;
  }

  async append(id: string, from: number, part: UploadPart, expiresAt: Date, now: Date): Promise<UploadSession | null> {
    const session = this.sessions.get(id);
    if (!session || session.offset !== from || !live(session, now) || from + part.size > session.length) return null;
    if (session.parts.length >= MAX_UPLOAD_PARTS) return null;
    session.offset += part.size;
    session.parts.push({ ...part });
    session.expiresAt = new Date(expiresAt);
    return clone(session);
  }

  async cutBack(id: string, seen: readonly UploadPart[], keep: number): Promise<UploadSession | null> {
    assertCut(seen, keep);
    const session = this.sessions.get(id);
    const last = seen[seen.length - 1]!;
    if (!session || session.parts.length !== seen.length || session.parts.at(-1)?.key !== last.key) return null;
    session.parts = session.parts.slice(0, keep);
    session.offset = session.parts.reduce((sum, part) => sum + part.size, 0);
    return clone(session);
  }

  async take(id: string): Promise<UploadSession | null> {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    return session ?? null;
  }

  async takeExpired(id: string, now: Date): Promise<UploadSession | null> {
    const session = this.sessions.get(id);
    if (!session || live(session, now)) return null;
    this.sessions.delete(id);
    return session;
  }

  async idsByOwner(ownerId: string): Promise<string[]> {
    return [...this.sessions.values()].filter((session) => session.ownerId === ownerId).map((session) => session.id);
  }

  async expiredIds(now: Date, limit: number): Promise<string[]> {
    return [...this.sessions.values()]
      .filter((session) => !live(session, now))
      .slice(0, limit)
      .map((session) => session.id);
  }

  async referencedPartKeys(blobKeys: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(blobKeys);
    const found = new Set<string>();
    for (const session of this.sessions.values()) {
      for (const part of session.parts) if (wanted.has(part.key)) found.add(part.key);
    }
    return found;
  }
}

function live(session: UploadSession, now: Date): boolean {
  return session.expiresAt.getTime() > now.getTime();
}
