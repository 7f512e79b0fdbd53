/** The dashboard's views, one per path (the server answers each of these paths with the dashboard's shell). */
export type View =
  | { name: 'files'; folderId: string | null }
  | { name: 'collection'; id: string }
  | { name: 'shares' | 'pastes' | 'requests' | 'collections' | 'usage' | 'tokens' | 'account' | 'admin' | 'activity' | 'webhooks' };

const SIMPLE = ['shares', 'pastes', 'requests', 'collections', 'usage', 'tokens', 'account', 'admin', 'activity', 'webhooks'] as const;

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
const notify = () => listeners.forEach((listener) => listener());
const here = () => location.pathname + location.search;

/** Moves to another view (a path, perhaps with a query) without reloading the page. */
export function navigate(path: string): void {
  if (path === here()) return;
  history.pushState(null, '', path);
  notify();
}

export function onNavigate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The item open in the viewer: `?view={id}` on the page's own address, so a reload reopens it. */
export const viewParam = (): string | null => new URLSearchParams(location.search).get('view');

const withView = (id: string | null) => (id === null ? location.pathname : `${location.pathname}?view=${encodeURIComponent(id)}`);

/** Opens the viewer on an item: a history entry of its own, so Back closes it. */
export function openViewer(id: string): void {
  history.pushState({ viewer: true }, '', withView(id));
  notify();
}

/** Moves the open viewer to another item in place: Back still closes the viewer, it does not step through items. */
export function switchViewer(id: string): void {
  history.replaceState(history.state, '', withView(id));
  notify();
}

/** Closes the viewer: back to the entry before it when this page opened it, else the same page without it. */
export function closeViewer(): void {
  if ((history.state as { viewer?: boolean } | null)?.viewer) return history.back();
  history.replaceState(null, '', withView(null));
  notify();
}
