import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useState } from 'preact/hooks';
import { PdfPages, type PdfEngine } from './pdf-pages.js';
import './pdf-view.css';

export interface PdfViewProps {
  /** Where the PDF's bytes are fetched from (same origin; the page's cookies go with it). */
  url: string;
  /** The file's name: it labels the viewer and the download. */
  name: string;
  /** The download offered when the PDF cannot be drawn. */
  downloadUrl: string;
  /**
   * Read the PDF in one request, never by ranges: for a share with a download maximum, where the preview's own read
   * may use the last download and a later range would find the share gone. Default false (large PDFs open sooner).
   */
  wholeFile?: boolean;
}

type State =
  | { step: 'loading' }
  | { step: 'failed'; sentence: string }
  | { step: 'open'; engine: PdfEngine; doc: PDFDocumentProxy; ratio: number };

/** What went wrong, for people: pdf.js names its errors (its classes stay in the lazily loaded chunk). */
function sentenceFor(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') return 'This PDF is protected by a password, so it cannot be shown here.';
  if (name === 'ResponseException' && typeof (err as { status?: unknown }).status === 'number') {
    return `The PDF could not be loaded (status ${(err as { status: number }).status}).`;
  }
  if (name === 'InvalidPDFException') return 'This PDF cannot be shown here: it is damaged or not a PDF.';
  return 'This PDF cannot be shown here.';
}

/**
 * A PDF drawn into the page by pdf.js, loaded only now (its own chunk and worker): a focusable, scrollable column
 * of pages at the container's width, drawn as they come into view. A PDF that pdf.js cannot draw says so and offers
 * the download. Nothing in the PDF runs (see pdf-engine.ts).
 */
export function PdfView({ url, name, downloadUrl, wholeFile = false }: PdfViewProps) {
  const [state, setState] = useState<State>({ step: 'loading' });

  useEffect(() => {
    let live = true;
    let destroy = () => {};
    setState({ step: 'loading' });
    import('./pdf-engine.js')
      .then(async (engine) => {
        if (!live) return;
        const loading = engine.loadPdf(url, { wholeFile });
        destroy = loading.destroy;
        const doc = await loading.document;
        const first = (await doc.getPage(1)).getViewport({ scale: 1 });
        if (live) setState({ step: 'open', engine, doc, ratio: first.width / first.height });
      })
      .catch((err: unknown) => live && setState({ step: 'failed', sentence: sentenceFor(err) }));
    return () => {
      live = false;
      destroy();
    };
  }, [url, wholeFile]);

  switch (state.step) {
    case 'loading':
      return (
        <p class="pdf-status" role="status">
          Loading the PDF…
        </p>
      );
    case 'failed':
      return (
        <p class="pdf-failed" role="alert">
          {state.sentence}{' '}
          <a href={downloadUrl} download={name}>
            Download {name}
          </a>{' '}
          to open it on your device.
        </p>
      );
    case 'open':
      return <PdfPages engine={state.engine} doc={state.doc} ratio={state.ratio} name={name} />;
  }
}
