import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, watchedPage } from '../support/browser.js';
import { makeHttp, silentLogger, type HttpTest } from '../support/http.js';
import { solidPng } from '../support/media.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const PASSWORD = 'correct horse';

/** Another origin's page: it embeds the protected picture and links to it; window.loaded says what the image did. */
function embeddingPage(content: string): string {
  return `<!doctype html><html><body>
<img id="embedded" src="${content}" onload="window.loaded = 'loaded'" onerror="window.loaded = 'refused'">
<a id="link" href="${content}">the picture</a>
</body></html>`;
}

describe.skipIf(!chromiumFound)('the unlock grant in Chromium, with a protected picture unlocked', () => {
  let t: HttpTest;
  let browser: Browser;
  let other: Server;
  let otherPort: number;
  let content: string;
  /** What the service answered, from its request log: a refused image never reaches the page's listeners. */
  const answered: Array<{ path?: string; status?: number }> = [];
  const statusesOf = (path: string) => answered.filter((line) => line.path === path).map((line) => line.status);

  beforeAll(async () => {
    const logger = { ...silentLogger, info: (line: { path?: string; status?: number }) => answered.push(line) };
    [t, browser] = await Promise.all([makeHttp({ logger }), launchChromium()]);
    const token = await t.userToken('alice');
    const file = await t.upload(token, solidPng(40, 30, [200, 40, 40]), { filename: 'red.png', type: 'image/png' });
    const share = await t.request('POST', '/api/share', {
      token,
      json: { type: 'file', id: file.body.id, password: PASSWORD },
    });
    content = `${t.url}/s/${share.body.id}/content`;
    other = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(embeddingPage(content));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherPort = (other.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => other?.close(resolve));
    await t?.close();
  });

  // 127.0.0.1 on another port is the same site: SameSite=Strict sends the cookie along (the sibling-subdomain case).
  it('another origin of the same site cannot embed it, though a link it offers opens it; our own page shows it', async () => {
    const { page, assertClean } = await watchedPage(browser);
    const shareId = new URL(content).pathname.split('/')[2]!;
    await page.goto(`${t.url}/s/${shareId}`);
    const unlocked = await page.evaluate(
      `fetch('/s/${shareId}/unlock', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ password: '${PASSWORD}' }) }).then((r) => r.status)`,
    );
    expect(unlocked).toBe(200);
    const ownWidth = await page.evaluate(`new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve(img.naturalWidth);
      img.onerror = () => resolve(0);
      img.src = '/s/${shareId}/content';
    })`);
    expect(ownWidth).toBe(40);

    const path = `/s/${shareId}/content`;
    expect(statusesOf(path)).toEqual([200]);

    // The other origin's <img> of it: Chromium sends the cookie (same site), the service ignores the grant.
    const outsider = await page.context().newPage();
    await outsider.goto(`http://127.0.0.1:${otherPort}/`);
    await outsider.waitForFunction('window.loaded !== undefined');
    expect(await outsider.evaluate('window.loaded')).toBe('refused');
    expect(statusesOf(path)).toEqual([200, 401]);

    // A link it offers is a top-level navigation the visitor sees: the grant counts, the picture opens.
    await Promise.all([outsider.waitForURL(content), outsider.click('#link')]);
    await outsider.waitForFunction('document.images[0]?.complete === true');
    expect(await outsider.evaluate('document.images[0].naturalWidth')).toBe(40);
    // 200, or 304 should the browser revalidate a copy it kept: either way the grant was honoured.
    expect(statusesOf(path).slice(0, 2)).toEqual([200, 401]);
    expect([[200], [304]]).toContainEqual(statusesOf(path).slice(2));
    assertClean();
  });
});
