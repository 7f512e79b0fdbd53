import { injectable } from 'inversify';
import type { Folder } from '../../domain/index.js';
import type { FolderPatch, FolderRef, FolderRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { PlacedStore } from './placed-store.js';

@injectable()
export class MemoryFolderRepository implements FolderRepository {
  private readonly store = new PlacedStore<Folder>((folder) => folder.parentId);

  async insert(folder: Folder): Promise<void> {
    if (this.store.get(folder.id)) throw new Error(`A folder with id ${folder.id} already exists`);
    this.store.put(clone(folder));
  }

  async findById(id: string): Promise<Folder | null> {
    const folder = this.store.get(id);
    return folder ? clone(folder) : null;
  }

  async update(id: string, patch: FolderPatch): Promise<Folder | null> {
    const current = this.store.get(id);
    if (!current) return null;
    const next: Folder = { ...clone(current), updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.parentId !== undefined) next.parentId = patch.parentId;
    this.store.put(next);
    return clone(next);
  }

  async deleteMany(ids: readonly string[]): Promise<number> {
    let existed = 0;
    for (const id of new Set(ids)) if (this.store.remove(id)) existed++;
    return existed;
  }

  async listChildren(ownerId: string, parentIds: readonly FolderRef[], limit: number): Promise<Folder[]> {
    return this.store.find(ownerId, parentIds, '', limit).map(clone);
  }

  async countChildren(ownerId: string, parentIds: readonly string[]): Promise<Map<string, number>> {
    return new Map(parentIds.map((id) => [id, this.store.countIn(ownerId, id)]));
  }

  /** Breadth-first over the children index, so a deep or wide tree costs only the folders it returns. */
  async listSubtree(ownerId: string, rootId: string, limit: number): Promise<Folder[]> {
    const found: Folder[] = [];
    const seen = new Set([rootId]);
    const queue = [rootId];
    for (let next = 0; next < queue.length && found.length < limit; next++) {
      for (const childId of this.store.idsIn(ownerId, queue[next]!)) {
        if (found.length >= limit) break;
        if (seen.has(childId)) continue;
        seen.add(childId);
        queue.push(childId);
        found.push(clone(this.store.get(childId)!));
      }
    }
    return found;
  }

  async chain(folderId: string): Promise<string[]> {
    const ids: string[] = [];
    const seen = new Set<string>();
    let folder = this.store.get(folderId);
    // The seen set only guards against a corrupted (cyclic) tree; the use cases never create one.
    while (folder && !seen.has(folder.id)) {
      seen.add(folder.id);
      ids.push(folder.id);
      folder = folder.parentId === null ? undefined : this.store.get(folder.parentId);
    }
    return ids.reverse();
  }

  async search(
    ownerId: string,
    query: string,
    parentIds: readonly FolderRef[] | null,
    limit: number,
  ): Promise<Folder[]> {
    return this.store.find(ownerId, parentIds, query, limit).map(clone);
  }

  async listByOwner(ownerId: string): Promise<Folder[]> {
    return this.store.ofOwner(ownerId).map(clone);
  }
}
