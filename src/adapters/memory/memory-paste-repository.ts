import { injectable } from 'inversify';
import type { Paste } from '../../domain/index.js';
import { REWRITES_KEPT, type CreatedKey, type PastePatch, type PasteRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { Groups } from './groups.js';
import { compareCreated, pageCreated } from './order.js';

@injectable()
export class MemoryPasteRepository implements PasteRepository {
  private readonly rows = new Map<string, Paste>();
  private readonly byOwner = new Groups<string, Paste>();

  async insert(paste: Paste): Promise<void> {
    if (this.rows.has(paste.id)) throw new Error(`A paste with id ${paste.id} already exists`);
    const stored = clone(paste);
    this.rows.set(stored.id, stored);
    this.byOwner.set(stored.ownerId, stored.id, stored);
  }

  async findById(id: string): Promise<Paste | null> {
    const paste = this.rows.get(id);
    return paste ? clone(paste) : null;
  }

  async listByOwner(ownerId: string): Promise<Paste[]> {
    return [...this.byOwner.get(ownerId).values()]
      .sort(compareCreated)
      .map(clone);
  }

  async pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<Paste[]> {
    return pageCreated(this.byOwner.get(ownerId).values(), after, limit).map(clone);
  }

  async update(id: string, patch: PastePatch): Promise<Paste | null> {
    const paste = this.rows.get(id);
    if (!paste || (patch.ifSize !== undefined && paste.size !== patch.ifSize)) return null;
    if (patch.name !== undefined) paste.name = patch.name;
    if (patch.type !== undefined) paste.type = patch.type;
    if (patch.content !== undefined) paste.content = patch.content;
    if (patch.size !== undefined) paste.size = patch.size;
    paste.updatedAt = new Date(patch.updatedAt);
    if (patch.rewrite !== undefined) paste.rewrites = [...(paste.rewrites ?? []), patch.rewrite].slice(-REWRITES_KEPT);
    return clone(paste);
  }

  async delete(id: string): Promise<Paste | null> {
    const paste = this.rows.get(id);
    if (!paste) return null;
    this.rows.delete(id);
    this.byOwner.delete(paste.ownerId, id);
    return paste;
  }
}
