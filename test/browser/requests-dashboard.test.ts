import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { overflowsHorizontally, signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const LOOKS = [
  { name: 'narrow-light', viewport: { width: 375, height: 800 }, colorScheme: 'light' },
  { name: 'wide-dark', viewport: { width: 1280, height: 900 }, colorScheme: 'dark' },
  { name: 'narrow-dark', viewport: { width: 375, height: 800 }, colorScheme: 'dark' },
  { name: 'wide-light', viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
] as const;

/** The files the stranger sends: one on its own, then a whole folder of two. */
function filesToSend(): { one: string; folder: string } {
  const dir = tempDir('request-dashboard');
  writeFileSync(join(dir, 'one.txt'), 'first file');
  mkdirSync(join(dir, 'trip'));
  writeFileSync(join(dir, 'trip', 'two.txt'), 'second file');
  writeFileSync(join(dir, 'trip', 'three.txt'), 'third file!');
  return { one: join(dir, 'one.txt'), folder: join(dir, 'trip') };
}

/** The request's entry on the Requests page, found by its name. */
const itemOf = (page: Page, name: string) => page.locator('.request-item').filter({ has: page.getByText(name, { exact: true }) });

/**
 * The whole of a file request as its owner and a stranger live it: the owner creates it on the dashboard's Requests
 * page with every option, copies its link, a stranger opens the link in a fresh context, unlocks it and sends files
 * and a whole folder, and the owner sees them on the Requests page (grouped by who sent them) and in the folder
 * chosen (with the sender's name); then closes, reopens and deletes it, by keyboard. No console error and no CSP
 * violation on either side, no sideways scrolling at 375 px.
 */
describe.skipIf(!chromiumFound)('file requests from the dashboard in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const look of LOOKS) {
    it(`creates a protected request, a stranger sends files and a folder, the owner sees them (${look.name})`, async () => {
      const owner = `owner-${look.name}`;
      const { token } = await t.user(owner);
      const inbox = (await t.request('POST', '/api/folder', { token, json: { name: 'Inbox' } })).body;
      const dashboard = await watchedPage(browser, { viewport: look.viewport, colorScheme: look.colorScheme });
      const { page } = dashboard;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
      await signInThroughPage(page, t.url, owner, `${owner}-password`);
      await openRequests(page);
      await page.screenshot({ path: screenshotPath(`requests-empty-${look.name}`), fullPage: true });
      expect(await overflowsHorizontally(page)).toBe(false);

      // Every option of the form, the form filled by keyboard as a person tabbing through it would.
      const name = `Trip photos ${look.name}`;
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Message for the people who send').fill('Everything from the trip, please.');
      await page.getByLabel('Folder').selectOption({ label: 'Inbox' });
      await page.getByLabel('Password (optional)').fill('pass-word');
      const until = new Date(Date.now() + 7 * 86_400_000);
      const local = new Date(until.getTime() - until.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await page.getByLabel('Expires').fill(local);
      await page.getByLabel('Most files').fill('10');
      await page.getByLabel('Most MB in all').fill('5');
      await page.getByLabel('Most MB per file').fill('1');
      await page.getByLabel(/^Types taken/).fill('.txt, image/*');
      await page.getByLabel('Ask who sends the files').focus();
      await page.keyboard.press('Space');
      await page.getByRole('button', { name: 'Create request' }).focus();
      await page.keyboard.press('Enter');
      const item = itemOf(page, name);
      await item.waitFor();
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');

      const created = (await t.request('GET', '/api/request', { token })).body[0];
      expect(created).toMatchObject({
        name,
        message: 'Everything from the trip, please.',
        folderId: inbox.id,
        protected: true,
        maxFiles: 10,
        maxBytes: '5000000',
        maxFileBytes: '1000000',
        allowedTypes: ['.txt', 'image/*'],
        requireName: true,
        state: 'active',
      });
      expect(Math.abs(Date.parse(created.expiresAt) - until.getTime())).toBeLessThan(60_000);
      const text = (await item.textContent()) ?? '';
      for (const shown of ['Taking files', '0 of 10 files', '.txt, image/*', 'password', 'name asked', 'Nothing received yet.']) {
        expect(text).toContain(shown);
      }
      await page.screenshot({ path: screenshotPath(`requests-created-${look.name}`), fullPage: true });

      // The link, as the owner copies it.
      await item.getByRole('button', { name: 'Copy link' }).click();
      await expect.poll(() => item.getByRole('status').textContent()).toBe('Copied');
      const link = await page.evaluate<string>('navigator.clipboard.readText()');
      expect(link).toBe(created.url);
      expect(await item.getByLabel('Request link').inputValue()).toBe(link);

      // A stranger: a fresh context, nothing of the owner's.
      const stranger = await watchedPage(browser, { viewport: look.viewport, colorScheme: look.colorScheme });
      const sent = filesToSend();
      await stranger.page.goto(link);
      await stranger.page.getByLabel('Password').fill('pass-word');
      await stranger.page.keyboard.press('Enter');
      await stranger.page.getByRole('heading', { name }).waitFor();
      await stranger.page.getByLabel('Your name').fill('Zoe');
      await stranger.page.locator('input[type=file]:not([webkitdirectory])').setInputFiles(sent.one);
      await expect.poll(() => stranger.page.locator('.sent-list li').count(), { timeout: 10_000 }).toBe(1);
      await stranger.page.locator('input[webkitdirectory]').setInputFiles(sent.folder);
      await expect.poll(() => stranger.page.locator('.sent-list li').count(), { timeout: 10_000 }).toBe(3);
      stranger.assertClean();
      await stranger.page.context().close();

      // Back to the owner: what came, grouped by who sent it, and the files in the folder with the sender's name.
      await page.reload();
      await item.waitFor();
      await expect.poll(() => item.locator('.received li').textContent()).toBe('Zoe: 3 files, 32 bytes');
      expect(await item.textContent()).toContain('3 of 10 files');
      await page.screenshot({ path: screenshotPath(`requests-received-${look.name}`), fullPage: true });
      expect(await overflowsHorizontally(page)).toBe(false);

      // Closing and reopening, by keyboard.
      await item.getByRole('button', { name: 'Close' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => item.locator('.request-state').textContent()).toBe('Closed');
      expect((await t.request('GET', `/api/request/${created.id}`, { token })).body.state).toBe('closed');
      await page.screenshot({ path: screenshotPath(`requests-closed-${look.name}`), fullPage: true });
      await item.getByRole('button', { name: 'Reopen' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => item.locator('.request-state').textContent()).toBe('Taking files');

      await page.getByRole('link', { name: 'Files' }).click();
      await page.getByRole('link', { name: 'Inbox' }).click();
      await expect.poll(() => page.locator('.sender').count()).toBe(3);
      for (const file of ['one.txt', 'two.txt', 'three.txt']) {
        const name = page.locator('.name').filter({ has: page.getByText(file, { exact: true }) });
        expect(await name.locator('.sender').textContent()).toBe(' · from Zoe');
      }
      await page.screenshot({ path: screenshotPath(`requests-folder-${look.name}`), fullPage: true });

      // Deleting it, by keyboard: asked first, and the files stay.
      await openRequests(page);
      await item.getByRole('button', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      // The question takes the button's place, the focus on its safe answer; the one before it deletes.
      await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Cancel');
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Yes, delete');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.request-item').count()).toBe(0);
      expect(await page.getByText('No file requests yet.').isVisible()).toBe(true);
      const folder = (await t.request('GET', `/api/folder/${inbox.id}`, { token })).body;
      expect(folder.files.map((f: { name: string }) => f.name).sort()).toEqual(['one.txt', 'three.txt', 'two.txt']);
      dashboard.assertClean();
      await page.context().close();
    });
  }
});

async function openRequests(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Sections' });
  // At 375 px the sections may sit behind a menu button.
  const link = nav.getByRole('link', { name: 'Requests' });
  if (!(await link.isVisible())) await page.getByRole('button', { name: /menu|sections/i }).click();
  await link.click();
  await page.getByRole('heading', { name: 'New file request' }).waitFor();
}
