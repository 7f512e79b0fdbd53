import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';

const MiB = 1024 * 1024;

if (!chromiumFound) console.log(ENABLE_HINT);

describe.skipIf(!chromiumFound)('the dashboard pages in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp({ registration: 'open', limits: { storage: 100 * MiB }, maxUploadBytes: 32 * MiB }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('registers, signs out, signs in, changes the password, and signs out everywhere', async () => {
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Username').fill('erin');
    await page.getByLabel('Password').fill('erin-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.who').textContent()).toContain('erin');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Coffer' }).waitFor();
    await signInThroughPage(page, t.url, 'erin', 'erin-password');

    const other = await t.request('POST', '/api/auth/login', { json: { username: 'erin', password: 'erin-password' } });
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Current password').fill('erin-password');
    await page.getByLabel('New password (8 to 256 characters)').fill('erin-new-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText('Password changed.').isVisible()).toBe(true);
    expect((await t.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('heading', { name: 'Sign in to Coffer' }).waitFor();
    await signInThroughPage(page, t.url, 'erin', 'erin-new-password');
    assertClean();
  });

  it('pastes (highlighted, names as text), tokens (curl one-liner), collections from a selection', async () => {
    const { token } = await t.user('frank');
    for (const name of ['a.txt', 'b.txt']) await t.upload(token, name, { filename: name });
    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'frank', 'frank-password');

    await page.getByRole('link', { name: 'Pastes' }).click();
    await page.getByLabel('Name').fill('<img src=x onerror=alert(1)>');
    await page.getByLabel('Type').selectOption('javascript');
    await page.getByLabel('Content').fill('const answer = 42; // the answer\nreturn "text";');
    await page.getByRole('button', { name: 'Save paste' }).click();
    // The paste opens in the viewer, coloured by its type; its name stays text everywhere.
    await page.getByRole('link', { name: '<img src=x onerror=alert(1)>' }).click();
    await expect.poll(() => page.locator('.viewer .code .tk-keyword').first().textContent()).toBe('const');
    expect(await page.locator('.viewer .code .tk-comment').textContent()).toBe('// the answer');
    expect(await page.getByRole('dialog').getByRole('heading').first().textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(await page.locator('main img').count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByLabel('Name', { exact: true }).fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const curl = (await page.locator('.notice pre').textContent()) ?? '';
    expect(curl).toMatch(new RegExp(`^curl -H "Authorization: token [A-Za-z0-9_-]{40,}" -F file=@photo.jpg ${t.url}/api/file$`));
    await expect.poll(() => page.getByRole('button', { name: 'Revoke' }).count()).toBe(1);
    // A WebDAV token: its notice names the drive's address instead of the upload one-liner; the list tells the kinds.
    await page.getByLabel('Name', { exact: true }).fill('drive');
    await page.getByLabel('Kind').selectOption('dav');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(async () => (await page.locator('.notice').textContent()) ?? '').toContain(`${t.url}/dav/`);
    await expect.poll(async () => (await page.locator('main ul.plain-list').textContent()) ?? '').toContain('WebDAV, created');
    await page.screenshot({ path: screenshotPath('tokens-dav'), fullPage: true });

    await page.getByRole('link', { name: 'Collections' }).click();
    await page.getByLabel('Name').fill('Best of');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('link', { name: 'Best of' }).waitFor();
    await page.getByRole('link', { name: 'Files' }).click();
    await page.getByLabel('Select a.txt').check();
    await page.getByLabel('Select b.txt').check();
    await page.getByLabel('Collection').selectOption({ label: 'Best of' });
    await page.getByRole('button', { name: 'Add to collection' }).click();
    await expect.poll(() => page.getByText('2 selected').count()).toBe(0);
    await page.getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('link', { name: 'Best of' }).click();
    await expect.poll(() => page.locator('main li a').allTextContents()).toEqual(['a.txt', 'b.txt']);
    assertClean();
  });

  it('moves files into a folder with the picker and by dragging, renames in place, deletes after confirming', async () => {
    const { token } = await t.user('gina');
    await t.upload(token, 'draft', { filename: 'draft.txt' });
    await t.request('POST', '/api/folder', { token, json: { name: 'Archive' } });
    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'gina', 'gina-password');

    await page.getByRole('button', { name: 'Actions for draft.txt' }).click();
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('group', { name: 'Move draft.txt' }).getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Move to Archive' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'draft.txt' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Archive', exact: true }).click();
    await page.getByRole('button', { name: 'Actions for draft.txt' }).click();
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name for draft.txt').fill('final.txt');
    await page.getByLabel('New name for draft.txt').press('Enter');
    await page.getByRole('link', { name: 'final.txt' }).waitFor();

    // Drag and drop: a file dragged onto a folder moves into it.
    await t.upload(token, 'loose', { filename: 'loose.txt' });
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'loose.txt' }).waitFor();
    await page.locator('.entry', { hasText: 'loose.txt' }).dragTo(page.locator('.entry', { hasText: 'Archive' }));
    await expect.poll(() => page.getByRole('link', { name: 'loose.txt' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Archive', exact: true }).click();
    await page.getByRole('link', { name: 'loose.txt' }).waitFor();

    await page.getByRole('button', { name: 'Actions for final.txt' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'final.txt' }).count()).toBe(0);
    expect((await t.request('GET', '/api/usage/stats', { token })).body.files.current).toBe(1);
    assertClean();
  });

  it('uploads files dropped onto the page, and edits then revokes a share on the Shares page', async () => {
    await t.user('hugo');
    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'hugo', 'hugo-password');
    const drop = await page.evaluateHandle(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['first dropped file'], 'dropped-1.txt', { type: 'text/plain' }));
      data.items.add(new File(['second dropped file'], 'dropped-2.txt', { type: 'text/plain' }));
      return data;
    })()`);
    await page.dispatchEvent('section.files', 'dragover', { dataTransfer: drop });
    await page.dispatchEvent('section.files', 'drop', { dataTransfer: drop });
    await page.getByRole('link', { name: 'dropped-2.txt' }).waitFor();
    await page.getByRole('link', { name: 'dropped-1.txt' }).waitFor();

    await page.getByRole('button', { name: 'Actions for dropped-1.txt' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByLabel('Max downloads').fill('3');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByLabel('Share link').waitFor();

    await page.getByRole('link', { name: 'Shares' }).click();
    const row = page.locator('.share-row').filter({ hasText: 'dropped-1.txt' });
    await expect.poll(() => row.textContent()).toContain('0 of 3');
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Max views').fill('10');
    await row.getByLabel('Max downloads').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.fact').first().textContent()).toBe('Views0 of 10');
    expect(await row.locator('.fact').nth(1).textContent()).toBe('Downloads0');

    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => page.locator('.share-row').count()).toBe(0);
    assertClean();
  });

  it('resumes an upload after a reload when the same file is picked again', async () => {
    const { token } = await t.user('ivy');
    const bytes = randomBytes(8 * MiB);
    const path = join(tempDir('dash-reload'), 'movie.bin');
    writeFileSync(path, bytes);
    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'ivy', 'ivy-password');
    // A slow uplink (1 MiB/s) until the reload, so the reload lands in the middle of the upload.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: MiB,
    });
    await page.getByLabel('Upload files').setInputFiles(path);
    const bar = page.getByRole('progressbar', { name: 'Upload of movie.bin' });
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 20_000 }).toBeGreaterThan(MiB);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const resumedAt: number[] = [];
    page.on('response', (res) => {
      if (res.request().method() === 'HEAD' && res.url().includes('/api/upload/tus/')) {
        resumedAt.push(Number(res.headers()['upload-offset']));
      }
    });
    await page.getByLabel('Upload files').setInputFiles(path);
    await expect.poll(() => page.locator('.upload-done').count(), { timeout: 30_000 }).toBe(1);
    expect(resumedAt.some((offset) => offset > 0)).toBe(true);

    const files = (await t.request('GET', '/api/folder', { token })).body.files;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['movie.bin']);
    const content = await t.request('GET', `/api/file/${files[0].id}/content`, { token });
    expect(content.bytes.equals(bytes)).toBe(true);
    assertClean();
  });
});
