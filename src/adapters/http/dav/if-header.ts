import { davPathOf } from './dav-path.js';

/** One condition of an If header (RFC 4918 §10.4): a state token or an entity tag, maybe negated. */
export interface Condition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** One parenthesised list; `path` is its tag's path (under /dav/), or null for the request's own resource. */
export interface IfList {
  path: string | null;
  conditions: Condition[];
}

export class IfHeaderError extends Error {}

/** Parses an If header; IfHeaderError when it is malformed (the request then fails with 400). */
export function parseIf(header: string): IfList[] {
  const lists: IfList[] = [];
  let at = 0;
  let tag: string | null = null;
  const skip = () => {
    while (at < header.length && /\s/.test(header[at]!)) at++;
  };
  const until = (end: string) => {
    const stop = header.indexOf(end, at);
    if (stop === -1) throw new IfHeaderError('Malformed If header');
    const text = header.slice(at, stop);
    at = stop + 1;
    return text;
  };
  for (skip(); at < header.length; skip()) {
    if (header[at] === '<') {
      at++;
      const url = until('>');
      const path = davPathOf(url);
      // A tag outside /dav/ names nothing of ours; its lists can never hold.
      tag = path ?? '\0';
    } else if (header[at] === '(') {
      at++;
      const conditions: Condition[] = [];
      for (skip(); header[at] !== ')'; skip()) {
        if (at >= header.length) throw new IfHeaderError('Malformed If header');
        let not = false;
        if (/^not\b/i.test(header.slice(at, at + 4))) {
          not = true;
          at += 3;
          skip();
        }
        if (header[at] === '<') {
          at++;
          conditions.push({ not, token: until('>') });
        } else if (header[at] === '[') {
          at++;
          conditions.push({ not, etag: until(']') });
        } else throw new IfHeaderError('Malformed If header');
      }
      at++;
      if (conditions.length === 0) throw new IfHeaderError('Malformed If header');
      lists.push({ path: tag, conditions });
    } else throw new IfHeaderError('Malformed If header');
  }
  if (lists.length === 0) throw new IfHeaderError('Malformed If header');
  return lists;
}

/** The state tokens a client submits with its request: every one its If header names, outside a Not. */
export function submittedTokens(lists: readonly IfList[]): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists) for (const c of list.conditions) if (!c.not && c.token) tokens.add(c.token);
  return tokens;
}
