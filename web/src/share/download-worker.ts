/**
 * The share page's service worker (built as /assets/download-worker.js, scope /s/): it decrypts end-to-end encrypted
 * files as they stream, so a download of any size goes to disk and a preview into the page without the page ever
 * holding the file. The page hands it a share's key (from the link's fragment) just before each use; it keeps keys
 * in memory only, and answers only `/s/{id}/e2e/download` and `/s/{id}/e2e/inline`, for shares it holds a key of.
 * Everything else goes to the network untouched.
 */
import { decryptStream } from '../common/e2e/ece.js';
import type { FileMetadata } from '../common/e2e/metadata.js';
import { e2ePath, type KeyMessage } from './e2e-paths.js';

interface FetchEventLike extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface WorkerScope {
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<KeyMessage>) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
}

const scope = self as unknown as WorkerScope;
const held = new Map<string, { key: Uint8Array; metadata: FileMetadata }>();

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
// Pages open before this worker started are taken over at once, so their previews come through it too.
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));

scope.addEventListener('message', (event) => {
  const message = event.data;
  if (message?.type !== 'coffer-e2e-key') return;
  held.set(message.shareId, { key: message.key, metadata: message.metadata });
  event.ports[0]?.postMessage('held');
});

scope.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== location.origin) return;
  const match = /^\/s\/([^/]+)\/e2e\/(download|inline)$/.exec(url.pathname);
  if (!match) return;
  const shareId = decodeURIComponent(match[1]!);
  const entry = held.get(shareId);
  if (!entry) return;
  event.respondWith(answer(shareId, match[2] as 'download' | 'inline', entry, event.request));
});

const CONTENT_RANGE_START = /^bytes=0-(\d+)$/;
/** The types a preview shows as themselves (pictures, players); the type is the uploader's word, so nothing else is. */
const PASSIVE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+)$/;
const inlineType = (type: string) => (PASSIVE.test(type) ? type : 'text/plain; charset=utf-8');

async function answer(
  shareId: string,
  use: 'download' | 'inline',
  { key, metadata }: { key: Uint8Array; metadata: FileMetadata },
  request: Request,
): Promise<Response> {
  const source = `${e2ePath(shareId)}/content${use === 'inline' ? '?preview=1' : ''}`;
  const cipher = await fetch(source, { credentials: 'same-origin', cache: 'no-store' });
  if (!cipher.ok || !cipher.body) return new Response(null, { status: cipher.status });
  let plain = cipher.body.pipeThrough(decryptStream(key));
  const headers = new Headers({
    'Content-Type': use === 'inline' ? inlineType(metadata.type) : 'application/octet-stream',
    'Content-Disposition': `${use === 'inline' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(metadata.name)}`,
    // As the server's own content answers: opened on its own, nothing in it runs as our origin.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  // A preview of text asks for its first bytes only: they are decrypted and the rest is never read.
  const range = use === 'inline' ? CONTENT_RANGE_START.exec(request.headers.get('Range') ?? '') : null;
  if (range && Number(range[1]) + 1 < metadata.size) {
    const end = Number(range[1]);
    plain = plain.pipeThrough(firstBytes(end + 1));
    headers.set('Content-Range', `bytes 0-${end}/${metadata.size}`);
    headers.set('Content-Length', String(end + 1));
    return new Response(plain, { status: 206, headers });
  }
  headers.set('Content-Length', String(metadata.size));
  return new Response(plain, { status: 200, headers });
}

/** Passes the first `limit` bytes and ends (the source behind is cancelled). */
function firstBytes(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let left = limit;
  return new TransformStream({
    transform(chunk, controller) {
      if (left <= 0) return;
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      controller.enqueue(part);
      if (left <= 0) controller.terminate();
    },
  });
}
