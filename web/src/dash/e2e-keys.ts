/**
 * The keys of end-to-end encrypted files uploaded from this browser, in IndexedDB (this origin, this browser
 * profile only), so their owner can copy a file's link with its key again. Nothing here ever goes to the server.
 */
const DB = 'coffer-e2e';
const STORE = 'keys';

export interface KeptKey {
  fileId: string;
  /** The share link with its key in the fragment (`…/s/{id}#k=…`). */
  link: string;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'fileId' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available'));
  });
}

async function inStore<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = act(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB failed'));
    });
  } finally {
    db.close();
  }
}

export const keepKey = (kept: KeptKey) => inStore('readwrite', (store) => store.put(kept)).then(() => undefined);

export async function keptKey(fileId: string): Promise<KeptKey | null> {
  try {
    return ((await inStore('readonly', (store) => store.get(fileId))) as KeptKey | undefined) ?? null;
  } catch {
    return null;
  }
}
