import type { Collection } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import type { CollectionView } from '../views.js';
import { collectionView, fileView } from '../views.js';

type Deps = Pick<Ports, 'files' | 'shares'>;

/**
 * Views of many collections with a fixed number of queries. Files appear in the order they were added; ids of files
 * that no longer exist (or somehow belong to someone else) are skipped rather than shown as holes.
 */
export async function collectionViews(p: Deps, collections: readonly Collection[]): Promise<CollectionView[]> {
  const fileIds = [...new Set(collections.flatMap((c) => c.fileIds))];
  const found = fileIds.length === 0 ? [] : await p.files.findByIds(fileIds);
  const files = new Map(found.map((f) => [f.id, f]));
  const [fileShares, collectionShares] = await Promise.all([
    p.shares.idsForItems('file', [...files.keys()]),
    p.shares.idsForItems('collection', collections.map((c) => c.id)),
  ]);
  return collections.map((collection) => {
    const views = collection.fileIds.flatMap((id) => {
      const file = files.get(id);
      return file && file.ownerId === collection.ownerId ? [fileView(file, fileShares.get(id) ?? null)] : [];
    });
    return collectionView(collection, views, collectionShares.get(collection.id) ?? null);
  });
}

export async function collectionViewOf(p: Deps, collection: Collection): Promise<CollectionView> {
  const [view] = await collectionViews(p, [collection]);
  return view!;
}
