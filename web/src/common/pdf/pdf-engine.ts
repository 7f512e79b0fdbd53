/// <reference types="vite/client" />
import { getDocument, PDFWorker, VerbosityLevel, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * The half of the PDF viewer that is loaded only when a PDF is shown (pdf-view.tsx imports it dynamically, so Vite
 * puts pdf.js in a chunk of its own): pdf.js, its worker (a built asset of ours), and the font and CMap files it may
 * ask for, all from our own /assets/. PDF scripting never runs: pdf.js runs a document's JavaScript only through its
 * viewer's scripting sandbox (pdf.sandbox.mjs), which is never imported; forms and annotations are drawn as pictures,
 * no XFA, no eval. See docs/SECURITY.md, "Previews".
 */

/** File name → built URL, for the files pdf.js asks for by name (the build gives each a hashed name). */
function byName(urls: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(urls).map(([path, url]) => [path.slice(path.lastIndexOf('/') + 1), url]));
}

// Vite reads these globs as written (literal options): each file becomes a hashed asset, and the chunk holds its URL.
/** The 14 standard fonts, used when a PDF names one without embedding it (Helvetica in most hand-made PDFs). */
const STANDARD_FONTS = byName(
  import.meta.glob<string>('../../../../node_modules/pdfjs-dist/standard_fonts/*.{pfb,ttf}', {
    eager: true,
    query: '?url',
    import: 'default',
  }),
);
/** Adobe's predefined CMaps, for CJK text in fonts that are not embedded. */
const CMAPS = byName(
  import.meta.glob<string>('../../../../node_modules/pdfjs-dist/cmaps/*.bcmap', {
    eager: true,
    query: '?url',
    import: 'default',
  }),
);

async function bytesOf(url: string | undefined, what: string): Promise<Uint8Array> {
  if (url === undefined) throw new Error(`No ${what} is built in`);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${what} could not be loaded (${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

/** pdf.js's factories, asked on the page (not in the worker) for a file by name: ours map it to its built URL. */
class BuiltCMaps {
  async fetch({ name }: { name: string }) {
    return { cMapData: await bytesOf(CMAPS.get(`${name}.bcmap`), `CMap ${name}`), isCompressed: true };
  }
}
class BuiltStandardFonts {
  async fetch({ filename }: { filename: string }) {
    return bytesOf(STANDARD_FONTS.get(filename), `font ${filename}`);
  }
}

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}
declare global {
  interface Window {
    trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy };
  }
}

/**
 * The pages require Trusted Types, and a worker's address is a script URL: this one policy (the only name the CSP
 * allows, created once) vouches for exactly the built worker's URL and refuses any other.
 */
const workerPolicy = window.trustedTypes?.createPolicy('coffer-pdf-worker', {
  createScriptURL(url) {
    if (url !== workerUrl) throw new TypeError('coffer-pdf-worker vouches only for the PDF worker');
    return url;
  },
});

function startWorker(): Worker {
  return new Worker((workerPolicy?.createScriptURL(workerUrl) ?? workerUrl) as string, { type: 'module', name: 'pdf' });
}

export interface LoadingPdf {
  document: Promise<PDFDocumentProxy>;
  /** Stops loading or drawing and ends the document's worker. */
  destroy(): void;
}

/**
 * Opens the PDF at `url` (a same-origin fetch with the page's cookies; by ranges when the server allows, unless
 * `wholeFile`) in a worker of its own, which ends with it.
 */
export function loadPdf(url: string, { wholeFile }: { wholeFile: boolean }): LoadingPdf {
  const port = startWorker();
  // PDFWorker's declared types predate ports; a Worker is the port it expects.
  const worker = new PDFWorker({ port: port as never });
  const task = getDocument({
    url,
    worker,
    disableRange: wholeFile,
    isEvalSupported: false,
    enableXfa: false,
    // Standard fonts from our files rather than the system's (`local()`), so every reader sees the same page.
    useSystemFonts: false,
    // The image decoders' WebAssembly is not shipped (see docs/SECURITY.md); JBIG2 falls back to JavaScript.
    useWasm: false,
    useWorkerFetch: false,
    CMapReaderFactory: BuiltCMaps,
    StandardFontDataFactory: BuiltStandardFonts,
    verbosity: VerbosityLevel.ERRORS,
  });
  return {
    document: task.promise,
    destroy: () => {
      void task.destroy().finally(() => {
        worker.destroy();
        port.terminate();
      });
    },
  };
}

export { drawPage, type PageDrawing } from './page-drawing.js';
