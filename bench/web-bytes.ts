import { log, type Bench } from './context.js';
import { figure } from './report.js';

/** Issue 15's budget for a first visit to the dashboard, every asset included, compressed (the share page's: page). */
const PAGES = [{ name: 'dashboard (/)', path: '/', budget: 250 * 1024 }];

/** Bytes on the wire: the compressed body as sent (Content-Length), not what fetch decodes. */
async function wireBytes(origin: string, path: string, encoding: string): Promise<{ bytes: number; text: string }> {
  const res = await fetch(origin + path, { headers: { 'accept-encoding': encoding } });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  const text = encoding === 'identity' ? await res.text() : '';
  if (encoding !== 'identity') await res.arrayBuffer();
  return { bytes: Number(res.headers.get('content-length')), text };
}

/** What a browser fetches on a first visit (cold cache): the shell and every asset it names. */
async function firstVisit(origin: string, path: string, encoding: string): Promise<number> {
  const { text } = await wireBytes(origin, path, 'identity');
  const assets = [...text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
  let total = (await wireBytes(origin, path, encoding)).bytes;
  for (const asset of assets) total += (await wireBytes(origin, asset, encoding)).bytes;
  return total;
}

/** First-load bytes of the dashboard, Brotli and gzip, against its budget. */
export async function webBytes(b: Bench): Promise<void> {
  const details: Record<string, number> = {};
  for (const page of PAGES) {
    for (const encoding of ['br', 'gzip']) {
      const bytes = await firstVisit(b.coffer.origin, page.path, encoding);
      details[`${page.path} ${encoding}`] = bytes;
      log(`first load of the ${page.name}, ${encoding}: ${bytes} bytes`);
      b.figures.push(
        figure(`first load, ${page.name}, ${encoding}`, 'bytes', bytes, 'budget', page.budget, { below: page.budget }),
      );
    }
  }
  b.details['webBytes'] = details;
}
