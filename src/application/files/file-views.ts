import type { StoredFile } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import type { FileView } from '../views.js';
import { fileView } from '../views.js';

/** Views of many files with their share ids, in one share query; keeps the given order. */
export async function fileViews(p: Pick<Ports, 'shares'>, files: readonly StoredFile[]): Promise<FileView[]> {
  const shareIds = await p.shares.idsForItems('file', files.map((file) => file.id));
  return files.map((file) => fileView(file, shareIds.get(file.id) ?? null));
}

export async function fileViewOf(p: Pick<Ports, 'shares'>, file: StoredFile): Promise<FileView> {
  const share = await p.shares.findByItem('file', file.id);
  return fileView(file, share?.id ?? null);
}
