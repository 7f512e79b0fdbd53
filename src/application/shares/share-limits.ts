import type { ShareLimits } from '../../domain/index.js';
import { badRequest, isShareMaximum } from '../../domain/index.js';
import type { ShareOptions } from '../contract.js';

/**
 * The limits the options name, checked: an absent one is left out (unchanged), null clears it. A new share may not
 * expire in the past (or this very instant); an existing one may, which ends it at once without deleting it.
 */
export function shareLimits(options: ShareOptions, now: Date, creating: boolean): Partial<ShareLimits> {
  const limits: Partial<ShareLimits> = {};
  const { expiresAt, maxViews, maxDownloads } = options;
  if (expiresAt !== undefined) {
    if (expiresAt !== null && !(expiresAt instanceof Date && Number.isFinite(expiresAt.getTime()))) {
      throw badRequest('expiresAt must be a timestamp or null', { field: 'expiresAt' });
    }
    if (creating && expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
      throw badRequest('expiresAt must lie in the future', { field: 'expiresAt' });
    }
    limits.expiresAt = expiresAt;
  }
  for (const [field, value] of [
    ['maxViews', maxViews],
    ['maxDownloads', maxDownloads],
  ] as const) {
    if (value === undefined) continue;
    if (value !== null && !isShareMaximum(value)) {
      throw badRequest(`${field} must be a whole number of at least 1, or null`, { field });
    }
    limits[field] = value;
  }
  return limits;
}
