import { injectable } from 'inversify';
import type { FileRequest, RequestRoom } from '../../domain/index.js';
import type { CreatedKey, RequestPatch, RequestRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { Groups } from './groups.js';
import { compareCreated, pageCreated } from './order.js';

const fits = (current: number, amount: number, max: number | null) => amount <= 0 || max === null || current + amount <= max;

@injectable()
export class MemoryRequestRepository implements RequestRepository {
  private readonly rows = new Map<string, FileRequest>();
  private readonly byOwner = new Groups<string, FileRequest>();
  /** The room each unfinished upload holds, by its hold's id (what MongoDB keeps in the request's `held`). */
  private readonly held = new Map<string, RequestRoom & { requestId: string }>();

  async insert(request: FileRequest): Promise<void> {
    if (this.rows.has(request.id)) throw new Error(`A request with id ${request.id} already exists`);
    const stored = clone(request);
    this.rows.set(stored.id, stored);
    this.byOwner.set(stored.ownerId, stored.id, stored);
  }

  async findById(id: string): Promise<FileRequest | null> {
    const request = this.rows.get(id);
    return request ? clone(request) : null;
  }

  async pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<FileRequest[]> {
    return pageCreated(this.byOwner.get(ownerId).values(), after, limit).map(clone);
  }

  async listByOwner(ownerId: string): Promise<FileRequest[]> {
    return [...this.byOwner.get(ownerId).values()].sort(compareCreated).map(clone);
  }

  async update(id: string, patch: RequestPatch): Promise<FileRequest | null> {
    const request = this.rows.get(id);
    if (!request) return null;
    for (const [key, value] of Object.entries(clone(patch))) {
      if (value !== undefined) (request as unknown as Record<string, unknown>)[key] = value;
    }
    return clone(request);
  }

  async delete(id: string): Promise<FileRequest | null> {
    const request = this.rows.get(id);
    if (!request) return null;
    this.rows.delete(id);
    this.byOwner.delete(request.ownerId, id);
    for (const [hold, room] of this.held) if (room.requestId === id) this.held.delete(hold);
    return request;
  }

  /** The same check-and-set MongoDB makes in one update; no await between the check and the change. */
  async takeRoom(id: string, room: RequestRoom, now: Date, hold: string): Promise<FileRequest | null> {
    const request = this.rows.get(id);
    if (!request || request.closed) return null;
    if (request.expiresAt !== null && request.expiresAt.getTime() <= now.getTime()) return null;
    if (!fits(request.files, room.files, request.maxFiles) || !fits(request.bytes, room.bytes, request.maxBytes)) {
      return null;
    }
    const held = this.held.get(hold);
    if (held && held.requestId !== id) throw new Error(`Hold ${hold} already holds room of request ${held.requestId}`);
    request.files += room.files;
    request.bytes += room.bytes;
    this.held.set(hold, { requestId: id, files: (held?.files ?? 0) + room.files, bytes: (held?.bytes ?? 0) + room.bytes });
    return clone(request);
  }

  async giveBackHeld(hold: string): Promise<boolean> {
    const held = this.held.get(hold);
    if (!held) return false;
    this.held.delete(hold);
    const request = this.rows.get(held.requestId);
    if (!request) return false;
    request.files = Math.max(0, request.files - held.files);
    request.bytes = Math.max(0, request.bytes - held.bytes);
    return true;
  }

  async settleHeld(hold: string): Promise<void> {
    this.held.delete(hold);
  }
}
