import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';

if (!chromiumFound) console.log(ENABLE_HINT);

/**
 * The page of a file request, in a fresh context with nothing of the owner's: a protected request is unlocked, files
 * and a whole folder are sent, and the owner finds them in the request's folder with the uploader's name. At 375 px,
 * light and dark, with no console error and no CSP violation. (Creating the request goes through the API here;
 * requests-dashboard.test.ts creates one on the dashboard's Requests page.)
 */
describe.skipIf(!chromiumFound)('the file request page in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
    token = await t.userToken('alice');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`sends files and a folder to a protected request (${colorScheme}, 375 px)`, async () => {
      const request = (
        await t.request('POST', '/api/request', {
          token,
          json: { name: `Holiday photos ${colorScheme}`, message: 'Send me everything from the trip.', password: 'pass-word', requireName: true, maxFiles: 10 },
        })
      ).body;
      const dir = tempDir('request-files');
      writeFileSync(join(dir, 'one.txt'), 'first file');
      mkdirSync(join(dir, 'trip'));
      writeFileSync(join(dir, 'trip', 'two.txt'), 'second file');
      writeFileSync(join(dir, 'trip', 'three.txt'), 'third file');

      const watched = await watchedPage(browser, { viewport: { width: 375, height: 800 }, colorScheme });
      const { page } = watched;
      await page.goto(request.url);
      await page.getByLabel('Password').fill('pass-word');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('heading', { name: request.name }).count()).toBe(1);
      await page.screenshot({ path: screenshotPath(`request-page-open-${colorScheme}`), fullPage: true });
      await page.getByLabel('Your name').fill('Zoe');
      await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles(join(dir, 'one.txt'));
      await expect.poll(() => page.locator('.sent-list li').count(), { timeout: 10_000 }).toBe(1);
      await page.locator('input[webkitdirectory]').setInputFiles(join(dir, 'trip'));
      await expect.poll(() => page.locator('.sent-list li').count(), { timeout: 10_000 }).toBe(3);
      await page.screenshot({ path: screenshotPath(`request-page-sent-${colorScheme}`), fullPage: true });
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(375);
      watched.assertClean();
      await page.context().close();

      const folder = (await t.request('GET', `/api/folder/${request.folderId}`, { token })).body;
      const names = folder.files.map((f: { name: string; request: { uploaderName: string } }) => `${f.name} ${f.request.uploaderName}`);
      expect(names.sort()).toEqual(['one.txt Zoe', 'three.txt Zoe', 'two.txt Zoe']);
    });
  }
});
