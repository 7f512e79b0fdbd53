import { useEffect, useState } from 'preact/hooks';
import { PdfView } from './pdf/pdf-view.js';
import { CodeView, preloadHighlighter } from './code/code-view.js';
import { languageOfFile } from './code/languages.js';

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
 * How a file can be shown in the page. Active content (HTML, SVG, scripts) is only ever shown as its source text,
 * never rendered; a PDF stored as such is drawn by pdf.js into the page, whatever its name, since its bytes are only
 * ever fetched as data (see docs/SECURITY.md, "Previews").
 */
export function previewKind(file: PreviewFile): PreviewKind {
  if (IMAGE.test(file.mime)) return 'image';
  if (file.mime === 'application/pdf') return 'pdf';
  if (file.mime.startsWith('video/')) return 'video';
  if (file.mime.startsWith('audio/')) return 'audio';
  if (TEXT.test(file.mime) || languageOfFile(file.name, file.mime)) return 'text';
  return null;
}

function TextPreview({ src, file }: { src: string; file: PreviewFile }) {
  const [text, setText] = useState<{ body: string; cut: boolean } | { problem: string } | null>(null);
  const language = languageOfFile(file.name, file.mime);
  useEffect(() => {
    let live = true;
    const headers = { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` };
    // The highlighter comes while the text does, so the text can appear coloured at once.
    preloadHighlighter(language);
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
      <CodeView text={text.body} language={language} label={`Preview of ${file.name}`} />
      {text.cut && <p class="note">The preview shows the start of the file only.</p>}
    </>
  );
}

export interface PreviewProps {
  /** The bytes for the preview (`?preview=1`). */
  src: string;
  /** The same file as a download, offered when a PDF cannot be drawn. */
  download: string;
  file: PreviewFile;
  /** The share has a download maximum: the preview's read may be a download (the share page's PreviewSlot). */
  costly: boolean;
}

/** The file inline: a picture, a player (seekable: the server answers ranges), a PDF drawn by pdf.js, or its text. */
export function Preview({ src, download, file, costly }: PreviewProps) {
  switch (previewKind(file)) {
    case 'image':
      return <img class="preview-image" src={src} alt={`Preview of ${file.name}`} />;
    case 'video':
      return <video class="preview-media" src={src} controls preload="metadata" aria-label={`Video: ${file.name}`} />;
    case 'audio':
      return <audio class="preview-audio" src={src} controls preload="metadata" aria-label={`Audio: ${file.name}`} />;
    case 'pdf':
      return <PdfView url={src} name={file.name} downloadUrl={download} wholeFile={costly} />;
    case 'text':
      return <TextPreview src={src} file={file} />;
    case null:
      return null;
  }
}
