import { useEffect, useState } from 'preact/hooks';
import { dispositionFor } from '../../../src/domain/file.js';
import { CodeView } from './code-view.js';
import { languageOfFile } from './languages.js';

export interface PreviewFile {
  name: string;
  mime: string;
  size: string;
}

// Only what a browser shows as a picture without running anything: never SVG.
const IMAGE = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;
const TEXT = /^(text\/[a-z0-9.+-]+|application\/(json|javascript|ecmascript|xml|x-sh|x-yaml|[a-z0-9.-]+\+(json|xml)))$/;
// How much of a text file the preview reads: enough to see what it is.
const TEXT_PREVIEW_BYTES = 256 * 1024;

export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | null;

/**
 * The server frames a PDF only when it would serve it inline (a passive name) and the page asks for a preview; a
 * PDF with an active name stays a download, so the page offers no frame that would only start one.
 */
const isFramedPdf = (file: PreviewFile) =>
  file.mime === 'application/pdf' && dispositionFor(file.mime, file.name) === 'inline';

/**
 * How a file can be shown in the page. Active content (HTML, SVG, scripts) is only ever shown as its source text,
 * never rendered; a PDF opens in the browser's own viewer, in a frame (see docs/SECURITY.md, "Previews").
 */
export function previewKind(file: PreviewFile): PreviewKind {
  if (IMAGE.test(file.mime)) return 'image';
  if (isFramedPdf(file)) return 'pdf';
  if (file.mime.startsWith('video/')) return 'video';
  if (file.mime.startsWith('audio/')) return 'audio';
  if (TEXT.test(file.mime) || languageOfFile(file.name, file.mime)) return 'text';
  return null;
}

function TextPreview({ src, file }: { src: string; file: PreviewFile }) {
  const [text, setText] = useState<{ body: string; cut: boolean } | { problem: string } | null>(null);
  useEffect(() => {
    let live = true;
    const headers = { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` };
    fetch(src, { headers, cache: 'no-store' })
      .then(async (res) => {
        if (!res.ok) throw new Error('The preview could not be loaded. Download the file to see it.');
        const body = new TextDecoder().decode(await res.arrayBuffer());
        if (live) setText({ body, cut: Number(file.size) > TEXT_PREVIEW_BYTES });
      })
      .catch((err: unknown) => live && setText({ problem: err instanceof Error ? err.message : 'No preview.' }));
    return () => {
      live = false;
    };
  }, [src, file.size]);
  if (text === null) return <p role="status">Loading the preview…</p>;
  if ('problem' in text) return <p class="problem">{text.problem}</p>;
  return (
    <>
      <CodeView text={text.body} language={languageOfFile(file.name, file.mime)} label={`Preview of ${file.name}`} />
      {text.cut && <p class="note">The preview shows the start of the file only.</p>}
    </>
  );
}

/** The file inline: a picture, a player (seekable: the server answers ranges), a PDF viewer, or its text. */
export function Preview({ src, file }: { src: string; file: PreviewFile }) {
  switch (previewKind(file)) {
    case 'image':
      return <img class="preview-image" src={src} alt={`Preview of ${file.name}`} />;
    case 'video':
      return <video class="preview-media" src={src} controls preload="metadata" aria-label={`Video: ${file.name}`} />;
    case 'audio':
      return <audio class="preview-audio" src={src} controls preload="metadata" aria-label={`Audio: ${file.name}`} />;
    case 'pdf':
      return <iframe class="preview-pdf" src={src} title={`Preview of ${file.name}`} />;
    case 'text':
      return <TextPreview src={src} file={file} />;
    case null:
      return null;
  }
}

/**
 * A preview shown at once, or, on a share with a download maximum (where loading the bytes uses a download), only
 * when the visitor asks for it.
 */
export function PreviewSlot({ src, file, costly }: { src: string; file: PreviewFile; costly: boolean }) {
  const [wanted, setWanted] = useState(!costly);
  if (previewKind(file) === null) {
    return <p class="note">No preview for this kind of file: download it to open it.</p>;
  }
  if (!wanted) {
    return (
      <p class="note">
        <button type="button" class="button secondary" onClick={() => setWanted(true)}>
          Show preview
        </button>{' '}
        This share allows a limited number of downloads; a preview uses one.
      </p>
    );
  }
  return (
    <div class="preview">
      <Preview src={src} file={file} />
    </div>
  );
}
