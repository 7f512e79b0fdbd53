import { describe, expect, it } from 'vitest';
import { DEFAULT_MIME, dispositionFor, isActiveContent, normalizeMime } from '../../src/domain/index.js';

describe('normalizeMime', () => {
  it('keeps the lower-cased essence of a declared type', () => {
    expect(normalizeMime('text/plain')).toBe('text/plain');
    expect(normalizeMime('Text/HTML; charset=UTF-8')).toBe('text/html');
    expect(normalizeMime(' image/svg+xml ')).toBe('image/svg+xml');
    expect(normalizeMime('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });

  it('falls back to octet-stream for anything that is not a type', () => {
    for (const raw of [undefined, '', 'text', 'text/', '/plain', 'text/plain/extra', 'text/pl ain', 'te\nxt/plain', '*/*']) {
      expect(normalizeMime(raw)).toBe(DEFAULT_MIME);
    }
    expect(normalizeMime(`a/${'b'.repeat(200)}`)).toBe(DEFAULT_MIME);
  });
});

describe('isActiveContent', () => {
  it('flags HTML, SVG, XML and scripts by type', () => {
    for (const mime of [
      'text/html',
      'application/xhtml+xml',
      'image/svg+xml',
      'text/xml',
      'application/xml',
      'application/atom+xml',
      'text/javascript',
      'application/javascript',
    ]) {
      expect(isActiveContent(mime, 'data.bin'), mime).toBe(true);
    }
  });

  it('flags them by name too, whatever type the client claimed', () => {
    for (const name of ['page.html', 'PAGE.HTM', 'x.svg', 'x.svgz', 'feed.xml', 'a.xhtml', 'app.js', 'm.mjs', 'a.mhtml']) {
      expect(isActiveContent('text/plain', name), name).toBe(true);
    }
  });

  it('leaves passive content alone', () => {
    expect(isActiveContent('image/png', 'photo.png')).toBe(false);
    expect(isActiveContent('text/plain', 'html.txt')).toBe(false);
    expect(isActiveContent('application/pdf', 'svg-guide.pdf')).toBe(false);
    expect(isActiveContent('application/json', 'data.json')).toBe(false);
  });
});

describe('dispositionFor', () => {
  it('shows a short list of passive types inline', () => {
    for (const mime of ['image/png', 'image/jpeg', 'image/webp', 'video/mp4', 'audio/mpeg', 'text/plain']) {
      expect(dispositionFor(mime, 'file'), mime).toBe('inline');
    }
  });

  it('downloads PDF: a browser\'s own viewer would run its scripts, so the pages draw it with pdf.js instead', () => {
    expect(dispositionFor('application/pdf', 'paper.pdf')).toBe('attachment');
  });

  it('downloads everything else, and active content always', () => {
    expect(dispositionFor('application/octet-stream', 'a.bin')).toBe('attachment');
    expect(dispositionFor('application/zip', 'a.zip')).toBe('attachment');
    expect(dispositionFor('text/html', 'a.html')).toBe('attachment');
    expect(dispositionFor('image/svg+xml', 'a.svg')).toBe('attachment');
    expect(dispositionFor('text/plain', 'evil.html')).toBe('attachment');
    expect(dispositionFor('image/png', 'evil.svg')).toBe('attachment');
  });
});
