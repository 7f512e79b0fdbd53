import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** A whole-page message (not found, failures): its heading takes focus so a screen reader reads it out. */
export function Message({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Coffer`;
    heading.current?.focus();
  }, [title]);
  return (
    <section class="card message" aria-labelledby="message-title">
      <h1 id="message-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      <p>{children}</p>
    </section>
  );
}
