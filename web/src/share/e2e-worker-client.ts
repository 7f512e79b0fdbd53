import type { FileMetadata } from '../common/e2e/metadata.js';
import { WORKER_SCOPE, WORKER_SCRIPT, type KeyMessage } from './e2e-paths.js';

let ready: Promise<ServiceWorker> | null = null;

/**
 * The pages require Trusted Types and a service worker's address is a script URL: this policy (a name of its own in
 * the CSP, created once, lazily) vouches for exactly the built worker's address. Window.trustedTypes is declared by
 * common/pdf/pdf-engine.ts.
 */
let policy: { createScriptURL(url: string): unknown } | undefined | null = null;
function scriptUrl(): string {
  policy ??= window.trustedTypes?.createPolicy('coffer-download-worker', {
    createScriptURL(url) {
      if (url !== WORKER_SCRIPT) throw new TypeError('coffer-download-worker vouches only for the download worker');
      return url;
    },
  });
  return (policy?.createScriptURL(WORKER_SCRIPT) ?? WORKER_SCRIPT) as string;
}

/**
 * The share page's service worker, registered on first need and controlling this page (its previews' requests go
 * through it). Null when this browser runs no service workers (then nothing encrypted can be downloaded here).
 */
function worker(): Promise<ServiceWorker> | null {
  if (!('serviceWorker' in navigator)) return null;
  ready ??= (async () => {
    await navigator.serviceWorker.register(scriptUrl(), { scope: WORKER_SCOPE, type: 'module' });
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
    return registration.active!;
  })();
  return ready;
}

export const workersAvailable = () => 'serviceWorker' in navigator;

/** Hands the worker this share's key (again: a worker stopped while idle forgets), and waits until it holds it. */
export async function lendKey(shareId: string, key: Uint8Array, metadata: FileMetadata): Promise<void> {
  const active = await worker();
  if (!active) throw new Error('This browser cannot run the service worker that decrypts downloads.');
  const channel = new MessageChannel();
  const held = new Promise<void>((resolve) => (channel.port1.onmessage = () => resolve()));
  const message: KeyMessage = { type: 'coffer-e2e-key', shareId, key, metadata };
  (navigator.serviceWorker.controller ?? active).postMessage(message, [channel.port2]);
  await held;
}
