import { TextLayer, type PDFPageProxy, type RenderTask } from 'pdfjs-dist';

/** A page's canvas holds at most this many pixels (64 MB), however large the page or the screen's pixel ratio. */
const MAX_PIXELS = 16 * 1024 * 1024;
/** Sharper than the screen brings nothing; more costs memory. */
const MAX_PIXEL_RATIO = 3;

export interface PageDrawing {
  /** Draws the page again for a new width (CSS pixels); the text layer follows by CSS. */
  resize(width: number): void;
  /** Stops drawing and frees the canvas, the text and the page's resources. */
  release(): void;
}

const cancelled = (err: unknown) => err instanceof Error && err.name === 'RenderingCancelledException';

/**
 * Draws one page into `holder`: a canvas at the holder's width times the pixel ratio, swapped in once complete (a
 * resize never blanks the page), under pdf.js's text layer (transparent text, so the page's words can be selected,
 * found and read aloud). `onProblem` hears of a page that cannot be drawn.
 */
export function drawPage(page: PDFPageProxy, holder: HTMLElement, width: number, onProblem: () => void): PageDrawing {
  const base = page.getViewport({ scale: 1 });
  let canvas: HTMLCanvasElement | null = null;
  let task: RenderTask | null = null;

  const text = document.createElement('div');
  text.className = 'textLayer';
  holder.append(text);
  const textLayer = new TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport: base });
  // The text is a help, not the page: a page whose text cannot be read is still shown.
  textLayer.render().catch(() => undefined);

  function paint(cssWidth: number) {
    task?.cancel();
    holder.style.setProperty('--total-scale-factor', String(cssWidth / base.width));
    let scale = (cssWidth / base.width) * Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
    const pixels = base.width * base.height * scale * scale;
    if (pixels > MAX_PIXELS) scale *= Math.sqrt(MAX_PIXELS / pixels);
    const viewport = page.getViewport({ scale });
    const next = document.createElement('canvas');
    next.width = Math.max(1, Math.floor(viewport.width));
    next.height = Math.max(1, Math.floor(viewport.height));
    const current = page.render({ canvas: next, viewport });
    task = current;
    current.promise.then(
      () => {
        if (task !== current) return;
        task = null;
        if (canvas) canvas.width = 0;
        canvas?.remove();
        canvas = next;
        holder.prepend(next);
      },
      (err: unknown) => {
        if (!cancelled(err)) onProblem();
      },
    );
  }

  paint(width);
  return {
    resize: paint,
    release() {
      task?.cancel();
      task = null;
      textLayer.cancel();
      text.remove();
      if (canvas) canvas.width = 0;
      canvas?.remove();
      canvas = null;
      page.cleanup();
    },
  };
}
