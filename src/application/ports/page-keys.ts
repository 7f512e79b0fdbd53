/**
 * Where a keyset page starts: strictly after the record with this key, in the listing's order. A key names a
 * position, not a record, so a page starts in the right place even when that record has since been deleted.
 */

/** For listings in name order: the name lower-cased as `sortName` does, then the id. */
export interface NameKey {
  lower: string;
  id: string;
}

/** For listings in creation order: createdAt (millisecond precision), then the id. */
export interface CreatedKey {
  createdAt: Date;
  id: string;
}

/** The name-order key of a record's name: the very value every adapter sorts and indexes by. */
export function sortName(name: string): string {
  return name.toLowerCase();
}
