import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount } from '../format.js';
import type { PageDrawing } from './page-drawing.js';
import type * as PdfEngineModule from './pdf-engine.js';

/** The lazily loaded half of the viewer (pdf-engine.ts), as pdf-view.tsx hands it on once loaded. */
export type PdfEngine = typeof PdfEngineModule;

/** Pages within this distance of the visible part (a share of its height) are drawn; farther ones are let go. */
const NEAR = '100% 0px';

type Watch = (element: Element, onChange: (near: boolean) => void) => () => void;

/** One IntersectionObserver for every page of a document: a long PDF needs no thousand observers. */
function useNearWatch(root: { current: HTMLElement | null }): Watch | null {
  const [watch, setWatch] = useState<Watch | null>(null);
  useEffect(() => {
    const listeners = new Map<Element, (near: boolean) => void>();
    const observer = new IntersectionObserver(
      (entries) => entries.forEach((entry) => listeners.get(entry.target)?.(entry.isIntersecting)),
      { root: root.current, rootMargin: NEAR },
    );
    setWatch(() => (element: Element, onChange: (near: boolean) => void) => {
      listeners.set(element, onChange);
      observer.observe(element);
      return () => {
        listeners.delete(element);
        observer.unobserve(element);
      };
    });
    return () => observer.disconnect();
  }, [root]);
  return watch;
}

/** The width pages are drawn at: the list's content width, followed as the container changes (a turned phone). */
function useWidth(element: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(target.clientWidth)));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

interface PageProps {
  engine: PdfEngine;
  doc: PDFDocumentProxy;
  number: number;
  count: number;
  /** Width over height, the first page's until this one's own is known. */
  ratio: number;
  width: number;
  watch: Watch;
}

/** A page's place, sized before it is drawn; drawn while near the visible part, released when far from it. */
function PdfPage({ engine, doc, number, count, ratio, width, watch }: PageProps) {
  const holder = useRef<HTMLDivElement>(null);
  const drawing = useRef<PageDrawing | null>(null);
  const [near, setNear] = useState(false);
  const [ownRatio, setOwnRatio] = useState<number | null>(null);
  const [problem, setProblem] = useState(false);
  const currentWidth = useRef(width);
  currentWidth.current = width;
  const measured = width > 0;

  useEffect(() => (holder.current ? watch(holder.current, setNear) : undefined), [watch]);

  // Coming near (once the width is known) starts a drawing, going far ends it; a new width only redraws (below).
  useEffect(() => {
    if (!near || !measured) return;
    let live = true;
    doc.getPage(number).then(
      (page) => {
        if (!live || !holder.current) return;
        const size = page.getViewport({ scale: 1 });
        setOwnRatio(size.width / size.height);
        const onProblem = () => live && setProblem(true);
        drawing.current = engine.drawPage(page, holder.current, currentWidth.current, onProblem);
      },
      () => live && setProblem(true),
    );
    return () => {
      live = false;
      drawing.current?.release();
      drawing.current = null;
    };
  }, [near, measured, doc, number, engine]);

  useEffect(() => {
    if (width > 0) drawing.current?.resize(width);
  }, [width]);

  return (
    <div
      class="pdf-page"
      role="group"
      aria-label={`Page ${number} of ${count}`}
      ref={holder}
      style={{ aspectRatio: String(ownRatio ?? ratio) }}
    >
      {problem && <p class="pdf-page-problem">Page {number} could not be drawn.</p>}
    </div>
  );
}

interface Props {
  engine: PdfEngine;
  doc: PDFDocumentProxy;
  ratio: number;
  name: string;
}

/** The document: its page count, then a focusable, scrollable column of its pages at the container's width. */
export function PdfPages({ engine, doc, ratio, name }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const watch = useNearWatch(scroller);
  const width = useWidth(list);
  const count = doc.numPages;
  const pages = formatCount(count, 'page', 'pages');
  const numbers = Array.from({ length: count }, (_, i) => i + 1);

  return (
    <div class="pdf-view">
      <p class="pdf-count">{pages}</p>
      <div class="pdf-scroller" ref={scroller} tabIndex={0} role="region" aria-label={`${name}, ${pages}`}>
        <div class="pdf-page-list" ref={list}>
          {watch &&
            numbers.map((number) => (
              <PdfPage
                key={number}
                engine={engine}
                doc={doc}
                number={number}
                count={count}
                ratio={ratio}
                width={width}
                watch={watch}
              />
            ))}
        </div>
      </div>
    </div>
  );
}
