import type { WriteLock } from '../../domain/index.js';
import { MAX_LOCK_SECONDS } from '../../domain/index.js';

export const live = (locks: readonly WriteLock[], now: Date) => locks.filter((lock) => lock.expiresAt > now);
export const seconds = (asked: number) => Math.max(1, Math.min(MAX_LOCK_SECONDS, Math.floor(asked)));
