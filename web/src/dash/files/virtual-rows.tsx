import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

const OVERSCAN = 6;

/**
 * Renders only the rows in view (plus a few), in a scrolling box whose full height stands for all of them: ten
 * thousand entries cost what forty do. Rows have one fixed height.
 */
export function VirtualRows({
  count,
  rowHeight,
  label,
  scrollToRow = null,
  children,
}: {
  count: number;
  rowHeight: number;
  label: string;
  /** A row to bring into view (centred) whenever this changes. */
  scrollToRow?: number | null;
  children: (index: number) => ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const element = box.current;
    if (!element || scrollToRow === null) return;
    element.scrollTop = Math.max(0, scrollToRow * rowHeight - (element.clientHeight - rowHeight) / 2);
  }, [scrollToRow, rowHeight]);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows: ComponentChildren[] = [];
  for (let index = first; index < last; index += 1) {
    rows.push(
      <div role="row" aria-rowindex={index + 1} class="vrow" style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }} key={index}>
        {children(index)}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      class="vbox"
      role="grid"
      aria-label={label}
      aria-rowcount={count}
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div class="vspace" style={{ height: `${count * rowHeight}px` }}>
        {rows}
      </div>
    </div>
  );
}
