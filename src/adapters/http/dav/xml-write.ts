import type { XmlElement } from './xml-read.js';

/** Text and attribute values, escaped for XML; characters XML 1.0 cannot hold at all are dropped. */
export function esc(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/** An element named by namespace and local name; DAV: gets the `D:` prefix declared on the multistatus root. */
export function tag(ns: string, local: string, inner: string | null, attrs = ''): string {
  const open = ns === 'DAV:' ? `D:${local}` : ns === '' ? `${local} xmlns=""` : `x:${local} xmlns:x="${esc(ns)}"`;
  const close = ns === 'DAV:' ? `D:${local}` : ns === '' ? local : `x:${local}`;
  return inner === null || inner === '' ? `<${open}${attrs}/>` : `<${open}${attrs}>${inner}</${close}>`;
}

/** `<D:name>text</D:name>`, escaped. */
export const dav = (local: string, text?: string | null): string =>
  text === undefined || text === null ? `<D:${local}/>` : `<D:${local}>${esc(text)}</D:${local}>`;

/**
 * The inside of an element written back as XML that stands on its own: every element and namespaced attribute
 * declares its namespace itself, so a stored value keeps its meaning wherever it is written again.
 */
export function innerXml(element: XmlElement): string {
  let out = esc(element.text);
  for (const child of element.children) out += outerXml(child);
  return out;
}

function outerXml(element: XmlElement): string {
  let attrs = '';
  let n = 0;
  for (const [key, value] of element.attrs) {
    const m = /^\{(.*)\}(.*)$/.exec(key);
    if (m) {
      attrs += ` xmlns:a${n}="${esc(m[1]!)}" a${n}:${m[2]} ="${esc(value)}"`.replace(' =', '=');
      n++;
    } else attrs += ` ${key}="${esc(value)}"`;
  }
  const inner = innerXml(element);
  const open = `e:${element.local}${element.ns ? ` xmlns:e="${esc(element.ns)}"` : ''}`;
  const name = element.ns ? `e:${element.local}` : element.local;
  const head = element.ns ? open : `${element.local} xmlns=""`;
  return inner === '' ? `<${head}${attrs}/>` : `<${head}${attrs}>${inner}</${name}>`;
}
