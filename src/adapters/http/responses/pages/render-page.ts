import { type PageData, PAGE_DATA_ID } from './page-data.js';
import { shareCard } from './share-card.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML attribute value or element content: nothing in it can close a tag or an attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/**
 * JSON inside a `<script type="application/json">` block: `<` is written as \u003c so no text (a paste holding
 * `</script>`) can end the block, and U+2028/2029 are escaped for old parsers.
 */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The built shell (index.html) with this share's title, card tags and page data. Every value is escaped; the data
 * block is not script (its type is JSON), so the CSP has nothing to allow for it.
 */
export function renderSharePage(shell: string, data: PageData, pageUrl: string): string {
  const { title, tags } = shareCard(data, pageUrl);
  const head = [
    `<title>${escapeHtml(`${title} · Coffer`)}</title>`,
    '<meta name="robots" content="noindex, nofollow" />',
    ...tags.map((t) => `<meta ${t.attribute}="${escapeHtml(t.key)}" content="${escapeHtml(t.value)}" />`),
  ].join('\n    ');
  const block = `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(data)}</script>`;
  return shell
    .replace(/<title>[^<]*<\/title>/, () => head)
    .replace('<div id="app"></div>', () => `<div id="app"></div>\n    ${block}`);
}
