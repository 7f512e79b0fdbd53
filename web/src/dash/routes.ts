import { useEffect, useState } from 'preact/hooks';

/** The dashboard's views, one per path (the server answers each of these paths with the dashboard's shell). */
export type View =
  | { name: 'files'; folderId: string | null }
  | { name: 'collection'; id: string }
  | { name: 'shares' | 'pastes' | 'collections' | 'usage' | 'tokens' | 'account' | 'admin' };

const SIMPLE = ['shares', 'pastes', 'collections', 'usage', 'tokens', 'account', 'admin'] as const;

function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function viewOf(path: string): View | null {
  if (path === '/' || path === '') return { name: 'files', folderId: null };
  const [, first = '', second, ...rest] = path.split('/');
  if (rest.length > 0) return null;
  const simple = SIMPLE.find((name) => name === first);
  if (simple && second === undefined) return { name: simple };
  const id = second ? decoded(second) : null;
  if (first === 'files' && id) return { name: 'files', folderId: id };
  if (first === 'collections' && id) return { name: 'collection', id };
  return null;
}

export function pathOf(view: View): string {
  if (view.name === 'files') return view.folderId ? `/files/${encodeURIComponent(view.folderId)}` : '/';
  if (view.name === 'collection') return `/collections/${encodeURIComponent(view.id)}`;
  return `/${view.name}`;
}

const listeners = new Set<() => void>();
addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** Moves to another view (a path, perhaps with a query) without reloading the page. */
export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  listeners.forEach((listener) => listener());
}

export function onNavigate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** One parameter of the address's query (`?view=…`), following every move within the dashboard, Back included. */
export function useSearchParam(name: string): string | null {
  const read = () => new URLSearchParams(location.search).get(name);
  const [value, setValue] = useState(read);
  useEffect(() => onNavigate(() => setValue(read())), [name]);
  return value;
}
