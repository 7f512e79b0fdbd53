import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, watchedPage } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';

if (!chromiumFound) console.log(ENABLE_HINT);

describe.skipIf(!chromiumFound)('the API reference page in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation from /api/openapi.json under its own CSP, offline, without a violation', async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(t.url)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await page.goto(`${t.url}/api/docs`);
    await page.getByText('Coffer API').first().waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/api/file/{id}/content' }).first().waitFor();
    const shown = await page.locator('.opblock').count();
    const document = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, object> };
    const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(shown).toBe(operations);
    // An expanded operation draws its parameters, bodies and schemas: more of the renderer under the same CSP.
    await page.locator('.opblock-summary', { hasText: '/api/file' }).first().click();
    await page.locator('.opblock-body').first().waitFor();
    await page.locator('.opblock-summary', { hasText: '/api/share/{id}' }).first().click();
    await page.getByText('X-Share-Password').first().waitFor();
    expect(outside).toEqual([]);
    watched.assertClean();
    // Swagger UI draws every operation at once: seconds of script on a busy two-core machine.
  }, 60_000);
});
