import type { Ports } from '../../src/application/index.js';

/**
 * Reads what is stored for one owner and lists every way it is not a whole tree: a folder whose parent is missing
 * (or hidden, being deleted), a folder that does not reach the root, a file in a missing folder, and counters that
 * differ from what exists. Empty when all is well.
 */
export async function treeProblems(ports: Pick<Ports, 'folders' | 'files' | 'usage'>, ownerId: string): Promise<string[]> {
  const problems: string[] = [];
  const folders = await ports.folders.listByOwner(ownerId);
  const parents = new Map(folders.map((folder) => [folder.id, folder.parentId]));
  for (const folder of folders) {
    if (!(await ports.folders.findById(folder.id))) problems.push(`folder ${folder.id} is stored but hidden`);
    const seen = new Set<string>();
    let at: string | null = folder.id;
    while (at !== null && !seen.has(at) && parents.has(at)) {
      seen.add(at);
      at = parents.get(at)!;
    }
    if (at !== null) {
      problems.push(seen.has(at) ? `folder ${folder.id} sits in a cycle` : `folder ${folder.id} hangs from missing ${at}`);
    }
  }
  const files = await ports.files.listByOwner(ownerId);
  for (const file of files) {
    if (file.folderId !== null && !parents.has(file.folderId)) {
      problems.push(`file ${file.id} sits in missing folder ${file.folderId}`);
    }
  }
  const usage = await ports.usage.get(ownerId);
  const storage = files.reduce((sum, file) => sum + file.size, 0);
  if (usage.folders !== folders.length) problems.push(`folders counted ${usage.folders}, stored ${folders.length}`);
  if (usage.files !== files.length) problems.push(`files counted ${usage.files}, stored ${files.length}`);
  if (usage.storage !== storage) problems.push(`storage counted ${usage.storage}, stored ${storage}`);
  return problems;
}

/** Resolves after `n` turns of the microtask queue: staggers racing use cases on the memory adapters finely. */
export async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}
