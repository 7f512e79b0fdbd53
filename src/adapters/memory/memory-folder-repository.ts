import { injectable } from 'inversify';
import { MAX_STORED_DEPTH, type Folder } from '../../domain/index.js';
import type { FolderPatch, FolderRef, FolderRepository, NameKey } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { PlacedStore } from './placed-store.js';

/**
 * Live folders and folders being deleted sit in two stores, so every read of live folders stays an index lookup;
 * marking moves a folder from one to the other. Every method checks and writes in one synchronous step, as one
 * MongoDB update would.
 */
@injectable()
export class MemoryFolderRepository implements FolderRepository {
  private readonly live = new PlacedStore<Folder>((folder) => folder.parentId);
  private readonly deleting = new PlacedStore<Folder>((folder) => folder.parentId);
  /** The removal that claimed each claimed folder (only folders being deleted are claimed). */
  private readonly claims = new Map<string, string>();
  private readonly leases = new Map<string, { holder: string; until: number }>();

  async insert(folder: Folder): Promise<void> {
    if (this.stored(folder.id)) throw new Error(`A folder with id ${folder.id} already exists`);
    this.live.put(clone(folder));
  }

  async findById(id: string): Promise<Folder | null> {
    const folder = this.live.get(id);
    return folder ? clone(folder) : null;
  }

  async findMany(ownerId: string, ids: readonly string[]): Promise<Folder[]> {
    const found: Folder[] = [];
    for (const id of new Set(ids)) {
      const folder = this.live.get(id);
      if (folder?.ownerId === ownerId) found.push(clone(folder));
    }
    return found;
  }

  async update(id: string, patch: FolderPatch): Promise<Folder | null> {
    const current = this.live.get(id);
    if (!current || (patch.whileIn !== undefined && current.parentId !== patch.whileIn)) return null;
    const next: Folder = { ...clone(current), updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.parentId !== undefined) next.parentId = patch.parentId;
    this.live.put(next);
    return clone(next);
  }

  async deleteMany(ids: readonly string[]): Promise<number> {
    let existed = 0;
    for (const id of new Set(ids)) {
      this.claims.delete(id);
      if (this.live.remove(id) || this.deleting.remove(id)) existed++;
    }
    return existed;
  }

  async claimDeleting(ids: readonly string[], claim: string): Promise<string[]> {
    const held: string[] = [];
    for (const id of new Set(ids)) {
      if (!this.deleting.get(id)) continue;
      if (!this.claims.has(id)) this.claims.set(id, claim);
      if (this.claims.get(id) === claim) held.push(id);
    }
    return held;
  }

  async claimedBy(claim: string): Promise<string[]> {
    return [...this.claims].filter(([id, by]) => by === claim && this.deleting.get(id)).map(([id]) => id);
  }

  async deleteClaimed(claim: string): Promise<number> {
    return this.deleteMany(await this.claimedBy(claim));
  }

  async listChildren(ownerId: string, parentIds: readonly FolderRef[], limit: number): Promise<Folder[]> {
    return this.live.find(ownerId, parentIds, '', limit).map(clone);
  }

  async pageChildren(ownerId: string, parentId: FolderRef, after: NameKey | null, limit: number): Promise<Folder[]> {
    return this.live.pageIn(ownerId, parentId, after, limit).map(clone);
  }

  async countChildren(ownerId: string, parentIds: readonly string[]): Promise<Map<string, number>> {
    return new Map(parentIds.map((id) => [id, this.live.countIn(ownerId, id)]));
  }

  /** Breadth-first over the children index, so a deep or wide tree costs only the folders it returns. */
  async listSubtree(ownerId: string, rootId: string, limit: number): Promise<Folder[]> {
    const found: Folder[] = [];
    const seen = new Set([rootId]);
    const queue = [rootId];
    for (let next = 0; next < queue.length && found.length < limit; next++) {
      for (const childId of this.live.idsIn(ownerId, queue[next]!)) {
        if (found.length >= limit) break;
        if (seen.has(childId)) continue;
        seen.add(childId);
        queue.push(childId);
        found.push(clone(this.live.get(childId)!));
      }
    }
    return found;
  }

  async chain(folderId: string): Promise<string[]> {
    const ids: string[] = [];
    const seen = new Set<string>();
    let folder = this.stored(folderId);
    while (folder && !seen.has(folder.id) && ids.length < MAX_STORED_DEPTH) {
      seen.add(folder.id);
      ids.push(folder.id);
      folder = folder.parentId === null ? undefined : this.stored(folder.parentId);
    }
    return ids.reverse();
  }

  async search(
    ownerId: string,
    query: string,
    parentIds: readonly FolderRef[] | null,
    limit: number,
  ): Promise<Folder[]> {
    return this.live.find(ownerId, parentIds, query, limit).map(clone);
  }

  async listByOwner(ownerId: string): Promise<Folder[]> {
    return [...this.live.ofOwner(ownerId), ...this.deleting.ofOwner(ownerId)].map(clone);
  }

  async markDeleting(ownerId: string, id: string): Promise<boolean> {
    const folder = this.stored(id);
    if (!folder || folder.ownerId !== ownerId) return false;
    this.mark(folder);
    return true;
  }

  async markChildrenDeleting(ownerId: string, parentIds: readonly string[]): Promise<string[]> {
    const marked: string[] = [];
    for (const parentId of new Set(parentIds)) {
      for (const id of [...this.live.idsIn(ownerId, parentId)]) this.mark(this.live.get(id)!);
      marked.push(...this.deleting.idsIn(ownerId, parentId));
    }
    return marked;
  }

  async acquireMoveLease(ownerId: string, holder: string, until: Date, now: Date): Promise<boolean> {
    const lease = this.leases.get(ownerId);
    if (lease && lease.until > now.getTime()) return false;
    this.leases.set(ownerId, { holder, until: until.getTime() });
    return true;
  }

  async releaseMoveLease(ownerId: string, holder: string): Promise<void> {
    if (this.leases.get(ownerId)?.holder === holder) this.leases.delete(ownerId);
  }

  private stored(id: string): Folder | undefined {
    return this.live.get(id) ?? this.deleting.get(id);
  }

  private mark(folder: Folder): void {
    if (!this.live.remove(folder.id)) return;
    this.deleting.put(folder);
  }
}
