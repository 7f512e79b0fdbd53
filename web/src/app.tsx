import { SharePage } from './share/share-page.js';
import { Message } from './message.js';

/** The share id of a `/s/{id}` path, or null; a malformed escape is no share at all. */
export function shareIdOf(path: string): string | null {
  const match = /^\/s\/([^/]+)\/?$/.exec(path);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export function App({ path }: { path: string }) {
  const shareId = shareIdOf(path);
  return (
    <>
      <header class="site-header">
        <span class="brand">Coffer</span>
      </header>
      <main id="main" class="page">
        {shareId === null ? (
          <Message title="Page not found">There is nothing at this address.</Message>
        ) : (
          <SharePage id={shareId} />
        )}
      </main>
    </>
  );
}
