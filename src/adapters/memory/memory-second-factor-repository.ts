import { injectable } from 'inversify';
import type {
  SecondFactorRecord,
  SecondFactorRepository,
  TotpConfirmation,
} from '../../application/ports/index.js';
import { clone } from './clone.js';

/** Every method checks and writes in one synchronous step, as MongoDB's conditional updates do. */
@injectable()
export class MemorySecondFactorRepository implements SecondFactorRepository {
  private readonly rows = new Map<string, SecondFactorRecord>();

  async find(userId: string): Promise<SecondFactorRecord | null> {
    const row = this.rows.get(userId);
    return row ? clone(row) : null;
  }

  async startTotp(userId: string, secret: string, updatedAt: Date): Promise<boolean> {
    const row = this.rows.get(userId);
    if (row?.totpSecret != null) return false;
    if (row) {
      row.pendingTotpSecret = secret;
      row.updatedAt = new Date(updatedAt);
    } else {
      this.rows.set(userId, {
        userId,
        totpSecret: null,
        pendingTotpSecret: secret,
        lastTotpStep: null,
        recoveryCodeHashes: [],
        passkeyCount: 0,
        updatedAt: new Date(updatedAt),
      });
    }
    return true;
  }

  async confirmTotp(userId: string, c: TotpConfirmation): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.totpSecret !== null || row.pendingTotpSecret !== c.secret) return false;
    row.totpSecret = c.secret;
    row.pendingTotpSecret = null;
    row.lastTotpStep = c.step;
    row.recoveryCodeHashes = [...c.recoveryCodeHashes];
    row.updatedAt = new Date(c.updatedAt);
    return true;
  }

  async useTotpStep(userId: string, secret: string, step: number): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.totpSecret !== secret) return false;
    if (row.lastTotpStep !== null && row.lastTotpStep >= step) return false;
    row.lastTotpStep = step;
    return true;
  }

  async useRecoveryCode(userId: string, hash: string): Promise<boolean> {
    const row = this.rows.get(userId);
    const at = row?.totpSecret != null ? row.recoveryCodeHashes.indexOf(hash) : -1;
    if (!row || at < 0) return false;
    row.recoveryCodeHashes.splice(at, 1);
    return true;
  }

  async replaceRecoveryCodes(userId: string, secret: string, hashes: string[], updatedAt: Date): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.totpSecret !== secret) return false;
    row.recoveryCodeHashes = [...hashes];
    row.updatedAt = new Date(updatedAt);
    return true;
  }

  async turnOffTotp(userId: string, secret: string, updatedAt: Date): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.totpSecret !== secret) return false;
    row.totpSecret = null;
    row.pendingTotpSecret = null;
    row.lastTotpStep = null;
    row.recoveryCodeHashes = [];
    row.updatedAt = new Date(updatedAt);
    return true;
  }

  async addPasskeySlot(userId: string, max: number, updatedAt: Date): Promise<boolean> {
    const row = this.rows.get(userId);
    if (row && row.passkeyCount >= max) return false;
    if (!row && max < 1) return false;
    if (row) {
      row.passkeyCount += 1;
      row.updatedAt = new Date(updatedAt);
    } else {
      this.rows.set(userId, {
        userId,
        totpSecret: null,
        pendingTotpSecret: null,
        lastTotpStep: null,
        recoveryCodeHashes: [],
        passkeyCount: 1,
        updatedAt: new Date(updatedAt),
      });
    }
    return true;
  }

  async releasePasskeySlot(userId: string, updatedAt: Date): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.passkeyCount <= 0) return false;
    row.passkeyCount -= 1;
    row.updatedAt = new Date(updatedAt);
    return true;
  }

  async deleteByUser(userId: string): Promise<boolean> {
    return this.rows.delete(userId);
  }
}
