/**
 * A small XML reader for WebDAV request bodies (PROPFIND, PROPPATCH, LOCK): elements, attributes, namespaces, text,
 * CDATA, comments and processing instructions, nothing more. A document type declaration is refused outright, so no
 * entity can be defined and nothing external is ever fetched; only the five predefined entities and character
 * references are understood. The body is read whole (it is bounded by the caller) and nested at most MAX_DEPTH deep.
 */

export const MAX_XML_BYTES = 1024 * 1024;
export const MAX_DEPTH = 64;

export class XmlError extends Error {}

export interface XmlElement {
  /** The namespace name ('' for none). */
  ns: string;
  local: string;
  /** Attributes by their namespace-qualified name `{ns}local` (or `local` without one). */
  attrs: Map<string, string>;
  children: XmlElement[];
  /** The element's own text, its children's left out. */
  text: string;
  /** Namespace declarations in scope on this element (prefix '' is the default namespace). */
  scope: Map<string, string>;
  /** The language in scope (xml:lang), if any. */
  lang: string | null;
}

const NAME = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?/u;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

function decodeText(raw: string): string {
  if (/&(?![^;&\s]{1,10};)/.test(raw)) throw new XmlError('A bare & in text');
  return raw.replace(/&([^;&\s]{1,10});/g, (whole, ref: string) => {
    if (ref in PREDEFINED) return PREDEFINED[ref]!;
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : ref.startsWith('#') ? parseInt(ref.slice(1), 10) : NaN;
    if (Number.isNaN(code) || code > 0x10ffff || code === 0 || (code >= 0xd800 && code <= 0xdfff)) {
      throw new XmlError(`Unknown entity ${whole}`);
    }
    return String.fromCodePoint(code);
  });
}

interface Open {
  qname: string;
  element: XmlElement;
}

/** Parses one document into its root element; XmlError on anything malformed or refused. */
export function parseXml(text: string): XmlElement {
  if (text.length > MAX_XML_BYTES) throw new XmlError('The XML body is too large');
  let at = 0;
  const stack: Open[] = [];
  let root: XmlElement | null = null;
  const fail = (why: string): never => {
    throw new XmlError(`${why} (at character ${at})`);
  };
  if (text.charCodeAt(0) === 0xfeff) at = 1;
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    const chunk = text.slice(at, lt === -1 ? text.length : lt);
    if (chunk.length > 0) {
      const top = stack.at(-1);
      if (top) top.element.text += decodeText(chunk);
      else if (chunk.trim() !== '') fail('Text outside the root element');
    }
    if (lt === -1) break;
    at = lt;
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) fail('Unclosed comment');
      at = end + 3;
    } else if (text.startsWith('<![CDATA[', at)) {
      const end = text.indexOf(']]>', at);
      if (end === -1 || stack.length === 0) fail('Misplaced CDATA');
      stack.at(-1)!.element.text += text.slice(at + 9, end);
      at = end + 3;
    } else if (text.startsWith('<!', at)) {
      fail('Document type declarations and entities are not accepted');
    } else if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at);
      if (end === -1) fail('Unclosed processing instruction');
      at = end + 2;
    } else if (text.startsWith('</', at)) {
      const name = NAME.exec(text.slice(at + 2, at + 2 + 512))?.[0];
      const open = stack.pop();
      if (!name || !open || open.qname !== name) fail('Mismatched end tag');
      at = text.indexOf('>', at);
      if (at === -1 || text.slice(lt + 2 + name!.length, at).trim() !== '') fail('Malformed end tag');
      at++;
    } else {
      if (stack.length === 0 && root !== null) fail('More than one root element');
      at = readStart(text, at + 1, stack, fail);
      if (stack.length > MAX_DEPTH) fail('The XML nests too deep');
      root ??= stack[0]!.element;
      if (stack.at(-1)!.element === SELF_CLOSED) stack.splice(-2, 2);
    }
  }
  if (stack.length > 0) fail('Unclosed element');
  if (root === null) fail('No root element');
  return root!;
}

const SELF_CLOSED = {} as XmlElement;

function readStart(text: string, from: number, stack: Open[], fail: (why: string) => never): number {
  let at = from;
  const qname = NAME.exec(text.slice(at, at + 512))?.[0] ?? fail('Malformed start tag');
  at += qname.length;
  const raw: [string, string][] = [];
  for (;;) {
    const space = /^\s*/.exec(text.slice(at, at + 4096))![0].length;
    at += space;
    if (text.startsWith('/>', at) || text[at] === '>') break;
    if (space === 0) fail('Malformed attribute');
    const name = NAME.exec(text.slice(at, at + 512))?.[0] ?? fail('Malformed attribute');
    at += name.length;
    const eq = /^\s*=\s*(["'])/.exec(text.slice(at, at + 4096)) ?? fail('Malformed attribute');
    at += eq[0].length;
    const end = text.indexOf(eq[1]!, at);
    if (end === -1) fail('Unclosed attribute value');
    const rawValue = text.slice(at, end);
    if (rawValue.includes('<')) fail('A < in an attribute');
    const value = decodeText(rawValue);
    if (raw.some(([n]) => n === name)) fail('Repeated attribute');
    raw.push([name, value]);
    at = end + 1;
  }
  const parent = stack.at(-1)?.element;
  const scope = new Map(parent?.scope ?? []);
  let lang = parent?.lang ?? null;
  for (const [name, value] of raw) {
    if (name === 'xmlns') scope.set('', value);
    else if (name.startsWith('xmlns:')) {
      if (value === '') fail('An empty namespace for a prefix');
      scope.set(name.slice(6), value);
    } else if (name === 'xml:lang') lang = value;
  }
  const resolve = (q: string, element: boolean): { ns: string; local: string } => {
    const colon = q.indexOf(':');
    if (colon === -1) return { ns: element ? scope.get('') ?? '' : '', local: q };
    const prefix = q.slice(0, colon);
    const ns = prefix === 'xml' ? XML_NS : scope.get(prefix);
    if (ns === undefined) fail(`Undeclared namespace prefix ${prefix}`);
    return { ns: ns!, local: q.slice(colon + 1) };
  };
  const attrs = new Map<string, string>();
  for (const [name, value] of raw) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const { ns, local } = resolve(name, false);
    attrs.set(ns ? `{${ns}}${local}` : local, value);
  }
  const element: XmlElement = { ...resolve(qname, true), attrs, children: [], text: '', scope, lang };
  parent?.children.push(element);
  stack.push({ qname, element });
  if (text.startsWith('/>', at)) {
    stack.push({ qname, element: SELF_CLOSED });
    return at + 2;
  }
  return at + 1;
}
