import { injectable } from 'inversify';
import type { Passkey, PasskeyRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

/** As strict as MongoDB's unique index on the credential id; each change checks and writes in one synchronous step. */
@injectable()
export class MemoryPasskeyRepository implements PasskeyRepository {
  private readonly rows = new Map<string, Passkey>();

  async insert(passkey: Passkey): Promise<boolean> {
    if (this.rows.has(passkey.id)) throw new Error('A passkey with this id already exists');
    for (const row of this.rows.values()) if (row.credentialId === passkey.credentialId) return false;
    this.rows.set(passkey.id, clone(passkey));
    return true;
  }

  async listByUser(userId: string): Promise<Passkey[]> {
    return [...this.rows.values()]
      .filter((row) => row.userId === userId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(clone);
  }

  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    for (const row of this.rows.values()) if (row.credentialId === credentialId) return clone(row);
    return null;
  }

  async rename(userId: string, id: string, name: string): Promise<Passkey | null> {
    const row = this.rows.get(id);
    if (!row || row.userId !== userId) return null;
    row.name = name;
    return clone(row);
  }

  async recordUse(id: string, counter: number, newCounter: number, at: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.counter !== counter) return false;
    row.counter = newCounter;
    row.lastUsedAt = new Date(at);
    return true;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    return row !== undefined && row.userId === userId && this.rows.delete(id);
  }

  async deleteByUser(userId: string): Promise<number> {
    let deleted = 0;
    for (const [id, row] of this.rows) if (row.userId === userId && this.rows.delete(id)) deleted++;
    return deleted;
  }
}
