import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let page: string;
beforeAll(async () => {
  t = await makeHttp();
  const token = await t.userToken('alice');
  const file = await t.upload(token, 'hello', { filename: 'hello.txt' });
  const share = await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.body.id } });
  page = `/s/${share.body.id}`;
});
afterAll(() => t.close());

/** Issue 14's budget for a first visit to a share page, every asset included, compressed; issue 15's for the dashboard. */
const BUDGET_BYTES = 150 * 1024;
const DASHBOARD_BUDGET_BYTES = 250 * 1024;

/** The bytes on the wire: Content-Length of the encoded body (fetch hands back the decoded one). */
async function transferred(path: string, encoding: string): Promise<{ bytes: number; body: string }> {
  const res = await t.request('GET', path, { headers: { 'accept-encoding': encoding } });
  expect(res.status).toBe(200);
  return { bytes: Number(res.headers.get('content-length')), body: res.text };
}

/** Every byte of a first visit to a page: its shell and each asset the shell names. */
async function firstVisit(path: string, encoding: string): Promise<{ total: number; assets: string[] }> {
  const shell = await transferred(path, encoding);
  const assets = [...shell.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
  expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
  const sizes: Record<string, number> = { html: shell.bytes };
  for (const asset of assets) sizes[asset.replace(/^\/assets\//, '')] = (await transferred(asset, encoding)).bytes;
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  console.log(`first visit to ${path}, ${encoding}: ${total} bytes`, sizes);
  return { total, assets };
}

describe('the first visit to the dashboard', () => {
  it.each(['gzip', 'br'])('transfers every asset under its budget (%s)', async (encoding) => {
    expect((await firstVisit('/', encoding)).total).toBeLessThan(DASHBOARD_BUDGET_BYTES);
  });

  it('and a share page load none of each other\'s own code (separate entries)', async () => {
    const dashboard = (await firstVisit('/', 'identity')).assets;
    const share = (await firstVisit(page, 'identity')).assets;
    const own = (assets: string[], other: string[]) => assets.filter((a) => !other.includes(a) && a.endsWith('.js'));
    expect(own(dashboard, share).length).toBeGreaterThan(0);
    expect(own(share, dashboard).length).toBeGreaterThan(0);
  });
});

describe('the first visit to a share page', () => {
  it.each(['gzip', 'br'])('transfers little: shell, script, style and icon under the budget (%s)', async (encoding) => {
    expect((await firstVisit(page, encoding)).total).toBeLessThan(BUDGET_BYTES);
  });

  it('names nothing of pdf.js: its chunk and worker load only when a PDF is shown (test/http/pdf-preview.test.ts)', async () => {
    for (const path of [page, '/']) {
      const { assets } = await firstVisit(path, 'identity');
      expect(assets.filter((asset) => /pdf/i.test(asset)), path).toEqual([]);
    }
  });

  it('names nothing of the code highlighter: Prism loads only when text is coloured (test/browser/code-highlight.test.ts)', async () => {
    for (const path of [page, '/']) {
      const { assets } = await firstVisit(path, 'identity');
      expect(assets.filter((asset) => /highlighter|prism/i.test(asset)), path).toEqual([]);
      for (const script of assets.filter((asset) => asset.endsWith('.js'))) {
        expect((await transferred(script, 'identity')).body, script).not.toContain('Prism');
      }
    }
  });

  it('carries no inline script: every script element names its source, but the JSON data block', async () => {
    const { body } = await transferred(page, 'identity');
    const scripts = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attributes, content] of scripts) {
      if (attributes === ' type="application/json" id="page-data"') {
        expect(JSON.parse(content!)).toMatchObject({ state: 'open' });
        continue;
      }
      expect(attributes).toMatch(/\bsrc="\/assets\//);
      expect(content).toBe('');
    }
    expect(body).not.toMatch(/\bon[a-z]+=|javascript:|<style\b|\bstyle=/i);
  });
});
