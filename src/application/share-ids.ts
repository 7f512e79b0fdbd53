import type { ShareType } from '../domain/index.js';
import type { Ports } from './ports/index.js';

/** One query for the share ids of many items; missing entries mean "not shared". */
export async function shareIdsOf(
  p: Pick<Ports, 'shares'>,
  type: ShareType,
  itemIds: readonly string[],
): Promise<Map<string, string>> {
  if (itemIds.length === 0) return new Map();
  return p.shares.idsForItems(type, itemIds);
}
