import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** One built file, held in memory: the front end is a few tens of kilobytes. */
export interface WebFile {
  /** Content-Type. */
  type: string;
  body: Buffer;
  /** A digest of the bytes, the base of every ETag of this file. */
  digest: string;
  /** Whether the name carries Vite's content hash, so the bytes under this name never change. */
  immutable: boolean;
  /** Worth compressing (text). */
  compressible: boolean;
}

export interface WebAssets {
  /** index.html: the shell of the share page. */
  shell: WebFile;
  /** dash.html: the shell of the dashboard (its own entry, so it shares no first load with the share page). */
  dashShell: WebFile | null;
  /** request.html: the shell of a file request's page (`/r/{id}`), its own entry too. */
  requestShell: WebFile | null;
  /** By file name (no directory): the only names /assets/{name} can answer. */
  assets: ReadonlyMap<string, WebFile>;
}

/** The kinds of file Vite emits for this front end; any other file in the directory is not served. */
const TYPES: Record<string, { type: string; compressible: boolean }> = {
  '.html': { type: 'text/html; charset=utf-8', compressible: true },
  '.js': { type: 'text/javascript; charset=utf-8', compressible: true },
  // pdf.js's worker, copied as it is published.
  '.mjs': { type: 'text/javascript; charset=utf-8', compressible: true },
  '.css': { type: 'text/css; charset=utf-8', compressible: true },
  '.svg': { type: 'image/svg+xml', compressible: true },
  '.png': { type: 'image/png', compressible: false },
  '.webp': { type: 'image/webp', compressible: false },
  '.woff2': { type: 'font/woff2', compressible: false },
  // What pdf.js asks for by name: the standard fonts and the predefined CMaps.
  '.ttf': { type: 'font/ttf', compressible: true },
  '.pfb': { type: 'application/octet-stream', compressible: false },
  '.bcmap': { type: 'application/octet-stream', compressible: false },
};
/** A plain file name: no separator, no leading dot, nothing a path could be built from. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;
/** Vite's `[name]-[hash].[ext]`, hash of 8 URL-safe characters. */
const HASHED = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

function webFile(path: string, name: string): WebFile | null {
  const kind = TYPES[extname(name)];
  if (!kind) return null;
  const body = readFileSync(path);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { ...kind, body, digest, immutable: HASHED.test(name) };
}

/**
 * Reads the built front end once, at start. Requests are answered from this map only: what a client sends is looked
 * up as a key, never joined into a path. Null when the directory holds no build (index.html missing).
 */
export function loadWebAssets(dir: string): WebAssets | null {
  const shellPath = join(dir, 'index.html');
  if (!existsSync(shellPath)) return null;
  const shell = webFile(shellPath, 'index.html');
  if (!shell) return null;
  const assets = new Map<string, WebFile>();
  const assetDir = join(dir, 'assets');
  const entries = existsSync(assetDir) ? readdirSync(assetDir, { withFileTypes: true }) : [];
  for (const entry of entries) {
    if (!entry.isFile() || !SAFE_NAME.test(entry.name)) continue;
    const file = webFile(join(assetDir, entry.name), entry.name);
    if (file) assets.set(entry.name, file);
  }
  const dashPath = join(dir, 'dash.html');
  const dash = existsSync(dashPath) ? webFile(dashPath, 'dash.html') : null;
  const requestPath = join(dir, 'request.html');
  const request = existsSync(requestPath) ? webFile(requestPath, 'request.html') : null;
  return {
    shell: { ...shell, immutable: false },
    dashShell: dash && { ...dash, immutable: false },
    requestShell: request && { ...request, immutable: false },
    assets,
  };
}
