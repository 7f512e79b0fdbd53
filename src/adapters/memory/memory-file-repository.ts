import { injectable } from 'inversify';
import type { StoredFile } from '../../domain/index.js';
import type { FilePatch, FileRepository, FolderRef, NameKey, ReplacedContent } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { PlacedStore } from './placed-store.js';

@injectable()
export class MemoryFileRepository implements FileRepository {
  private readonly store = new PlacedStore<StoredFile>((file) => file.folderId);
  /** How many records point at each blob key (a record's key changes only by replaceContent). */
  private readonly blobRefs = new Map<string, number>();
  /** The removal that claimed each claimed file. */
  private readonly claims = new Map<string, string>();

  async insert(file: StoredFile): Promise<void> {
    if (this.store.get(file.id)) throw new Error(`A file with id ${file.id} already exists`);
    this.store.put(clone(file));
    this.blobRefs.set(file.blobKey, (this.blobRefs.get(file.blobKey) ?? 0) + 1);
  }

  async findById(id: string): Promise<StoredFile | null> {
    const file = this.store.get(id);
    return file ? clone(file) : null;
  }

  async findByIds(ids: readonly string[]): Promise<StoredFile[]> {
    const found: StoredFile[] = [];
    for (const id of new Set(ids)) {
      const file = this.store.get(id);
      if (file) found.push(clone(file));
    }
    return found;
  }

  async update(id: string, patch: FilePatch): Promise<StoredFile | null> {
    const current = this.store.get(id);
    if (!current || (patch.whileIn !== undefined && current.folderId !== patch.whileIn)) return null;
    const next: StoredFile = { ...clone(current), updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.folderId !== undefined) next.folderId = patch.folderId;
    this.store.put(next);
    return clone(next);
  }

  async replaceContent(id: string, whileBlob: string, content: ReplacedContent): Promise<StoredFile | null> {
    const current = this.store.get(id);
    if (!current || current.blobKey !== whileBlob || this.claims.has(id)) return null;
    const next: StoredFile = {
      ...clone(current),
      ...content,
      updatedAt: new Date(content.updatedAt),
      revision: (current.revision ?? 0) + 1,
    };
    this.store.put(next);
    this.unref(current.blobKey);
    this.blobRefs.set(next.blobKey, (this.blobRefs.get(next.blobKey) ?? 0) + 1);
    return clone(next);
  }

  async claim(ids: readonly string[], claim: string): Promise<StoredFile[]> {
    const held: StoredFile[] = [];
    for (const id of new Set(ids)) {
      const file = this.store.get(id);
      if (!file) continue;
      if (!this.claims.has(id)) this.claims.set(id, claim);
      if (this.claims.get(id) === claim) held.push(clone(file));
    }
    return held;
  }

  async isClaimed(id: string): Promise<boolean> {
    return this.claims.has(id) && this.store.get(id) !== undefined;
  }

  async claimedBy(claim: string): Promise<StoredFile[]> {
    return [...this.claims].flatMap(([id, by]) => {
      const file = by === claim ? this.store.get(id) : undefined;
      return file ? [clone(file)] : [];
    });
  }

  async deleteClaimed(claim: string): Promise<number> {
    let deleted = 0;
    for (const [id, by] of [...this.claims]) if (by === claim && (await this.delete(id))) deleted++;
    return deleted;
  }

  async delete(id: string): Promise<StoredFile | null> {
    const removed = this.store.remove(id);
    this.claims.delete(id);
    if (!removed) return null;
    this.unref(removed.blobKey);
    return removed;
  }

  private unref(blobKey: string): void {
    const refs = (this.blobRefs.get(blobKey) ?? 1) - 1;
    if (refs > 0) this.blobRefs.set(blobKey, refs);
    else this.blobRefs.delete(blobKey);
  }

  async listInFolders(ownerId: string, folderIds: readonly FolderRef[], limit: number): Promise<StoredFile[]> {
    return this.store.find(ownerId, folderIds, '', limit).map(clone);
  }

  async pageInFolder(
    ownerId: string,
    folderId: FolderRef,
    after: NameKey | null,
    limit: number,
  ): Promise<StoredFile[]> {
    return this.store.pageIn(ownerId, folderId, after, limit).map(clone);
  }

  async countInFolders(ownerId: string, folderIds: readonly string[]): Promise<Map<string, number>> {
    return new Map(folderIds.map((id) => [id, this.store.countIn(ownerId, id)]));
  }

  async search(
    ownerId: string,
    query: string,
    folderIds: readonly FolderRef[] | null,
    limit: number,
  ): Promise<StoredFile[]> {
    return this.store.find(ownerId, folderIds, query, limit).map(clone);
  }

  async listByOwner(ownerId: string): Promise<StoredFile[]> {
    return this.store.ofOwner(ownerId).map(clone);
  }

  async referencedBlobKeys(blobKeys: readonly string[]): Promise<Set<string>> {
    return new Set(blobKeys.filter((key) => this.blobRefs.has(key)));
  }
}
