import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { overflowsHorizontally, signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const MiB = 1024 * 1024;
const PHONE = { viewport: { width: 375, height: 800 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const DEFAULT_STORAGE = 100 * MiB;

/** A field path, a JSON pointer or an error code: what no sentence for people may hold. */
const MACHINE_WORDS = /\b[a-z]+[A-Z]\w*\b|\b\w+\.\w*[a-z]\w*\b|\/\w+\/|\b[a-z]+_[a-z_]+\b/;

/** Whether the page answers a 375 px screen without sideways scrolling, saved as a screenshot to look at. */
async function fitsPhone(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(`words-${name}-375`), fullPage: true });
  expect(await overflowsHorizontally(page), name).toBe(false);
}

describe.skipIf(!chromiumFound)('the dashboard in words for people (Chromium)', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      makeHttp({ limits: { storage: DEFAULT_STORAGE }, maxUploadBytes: 6 * MiB }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const userRecord = async (username: string) =>
    (await t.request('GET', '/api/admin/users', { token: await t.adminToken() })).body.find(
      (u: { username: string }) => u.username === username,
    );

  it('sets a storage maximum as a number and a unit (5 + MB, or "5 MB" typed), shows it in units, and empty restores the default', async () => {
    await t.user('ruth', 'admin');
    await t.user('sam');
    const { page, expectHttpError, assertClean } = await watchedPage(browser, PHONE);
    await signInThroughPage(page, t.url, 'ruth', 'ruth-password');
    await page.getByRole('link', { name: 'Admin' }).click();
    const form = page.getByRole('form', { name: 'Storage maximum of sam' });
    const amount = form.getByLabel('Storage maximum');
    const unit = form.getByLabel('Unit');
    // The current maximum in units, and what the units mean.
    await expect.poll(() => amount.inputValue()).toBe('104.8576');
    expect(await unit.inputValue()).toBe('MB');
    expect(await form.textContent()).toContain('1 MB = 1,000,000 bytes');

    await amount.fill('5');
    await unit.selectOption('MB');
    await form.getByRole('button', { name: 'Set' }).click();
    await expect.poll(async () => (await userRecord('sam')).storage.max).toBe('5000000');
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Storage maximum set to 5 MB.');

    await amount.fill('2.5 GB');
    await amount.press('Enter');
    await expect.poll(async () => (await userRecord('sam')).storage.max).toBe('2500000000');
    // The form shows the new maximum once the page has read it back; typing before that would be overwritten.
    await expect.poll(() => amount.inputValue()).toBe('2.5');
    expect(await unit.inputValue()).toBe('GB');
    await amount.fill('5 MB');
    await unit.selectOption('TB');
    await form.getByRole('button', { name: 'Set' }).click();
    await expect.poll(async () => (await userRecord('sam')).storage.max).toBe('5000000');
    await expect.poll(() => amount.inputValue()).toBe('5');
    expect(await unit.inputValue()).toBe('MB');
    await fitsPhone(page, 'admin-storage');

    // What the page cannot read is explained, and nothing is sent.
    let patches = 0;
    page.on('request', (req) => void (req.method() === 'PATCH' && (patches += 1)));
    await amount.fill('1,000');
    await form.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/^Type the size as a number, such as 5 or 2\.5/);
    expect(patches).toBe(0);

    await amount.fill('');
    await form.getByRole('button', { name: 'Set' }).click();
    await expect.poll(async () => (await userRecord('sam')).storage.max).toBe(String(DEFAULT_STORAGE));
    expect(patches).toBe(1);
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Storage maximum back to the default: 104.9 MB.');

    // A refusal of the server is a sentence about what was typed, never a field path.
    expectHttpError('/api/admin/users', 400);
    await page.getByLabel('Username').fill('a-name-far-too-long-for-any-username-at-all');
    await page.getByLabel('Password', { exact: true }).fill('long enough');
    await page.getByRole('button', { name: 'Create user' }).click();
    const alert = page.getByRole('region', { name: 'Create a user' }).getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(
      'A username has 2 to 32 characters (letters, digits, “.”, “_” or “-”) and starts with a letter or digit.',
    );
    expect(await alert.textContent()).not.toMatch(MACHINE_WORDS);
    await fitsPhone(page, 'admin-refusal');
    assertClean();
  });

  it('explains a past expiry before sending anything, and offers 1 hour to 30 days', async () => {
    const { token } = await t.user('una');
    await t.upload(token, 'notes', { filename: 'notes.txt' });
    const { page, assertClean } = await watchedPage(browser, PHONE);
    await signInThroughPage(page, t.url, 'una', 'una-password');
    let shareRequests = 0;
    page.on('request', (req) => void (req.url().endsWith('/api/share') && (shareRequests += 1)));

    await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const expires = page.getByLabel('Expires');
    expect(await expires.locator('option').allTextContents()).toEqual([
      'Never',
      'In 1 hour',
      'In 1 day',
      'In 7 days',
      'In 30 days',
      'On a date and time…',
    ]);
    await expires.selectOption('date');
    // A moment that has passed for the browser; the server's own clock would still take it, so only the page stops it.
    await page.getByLabel('Expiry date and time').fill('2026-11-23T09:30');
    await page.getByRole('button', { name: 'Create link' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/has passed already\. Choose a date and time in the future, or pick another expiry\.$/);
    expect(await alert.textContent()).toContain('2026');
    expect(await alert.textContent()).not.toMatch(MACHINE_WORDS);
    expect(shareRequests).toBe(0);
    await fitsPhone(page, 'share-past-expiry');

    // By keyboard: the expiry choice, then the submit.
    await expires.focus();
    await page.keyboard.press('Home');
    await expires.selectOption('7d');
    await page.getByRole('button', { name: 'Create link' }).press('Enter');
    await page.getByLabel('Share link').waitFor();
    expect(shareRequests).toBe(1);
    const [share] = (await t.request('GET', '/api/share', { token })).body;
    const days = (Date.parse(share.expiresAt) - Date.now()) / (24 * 3600 * 1000);
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    assertClean();
  });

  it('says the sign-in throttle’s wait in words', async () => {
    await t.user('vera');
    // Nine wrong guesses from this address already (the browser comes from the same one); the tenth is judged, the
    // eleventh is paused for the rest of the 30-minute window (the test clock stands still).
    for (let guess = 0; guess < 9; guess += 1) {
      expect((await t.request('POST', '/api/auth/login', { json: { username: 'vera', password: `guess ${guess}` } })).status).toBe(401);
    }
    const { page, expectHttpError, assertClean } = await watchedPage(browser, PHONE);
    expectHttpError('/api/auth/session', 401);
    expectHttpError('/api/auth/session', 429);
    await page.goto(`${t.url}/`);
    await page.getByLabel('Username').fill('vera');
    await page.getByLabel('Password').fill('not her password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('The username or the password is wrong. Check both and try again.');
    await page.getByLabel('Password').press('Enter');
    await expect.poll(() => alert.textContent()).toBe(
      'Too many wrong passwords for this account. Signing in is paused for safety: try again in 30 minutes.',
    );
    await fitsPhone(page, 'sign-in-paused');
    assertClean();
  });

  it('says what the ShareX button creates, and a new token has a Copy button and says it is shown once', async () => {
    const { token } = await t.user('wes');
    const { page, assertClean } = await watchedPage(browser, PHONE);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await signInThroughPage(page, t.url, 'wes', 'wes-password');
    await page.getByRole('link', { name: 'API tokens' }).click();

    const sharex = page.getByRole('region', { name: 'ShareX' });
    const hint = sharex.locator('#sharex-hint');
    await expect.poll(() => hint.textContent()).toContain('Creates a new uploader token named “ShareX” each time');
    await sharex.getByLabel('Token name').fill('ShareX (laptop)');
    expect(await hint.textContent()).toContain('Creates a new uploader token named “ShareX (laptop)” each time');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      sharex.getByRole('button', { name: 'Download ShareX config' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('ShareX (laptop).sxcu');
    const config = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(config.RequestURL).toBe(`${t.url}/api/file`);
    await expect.poll(async () => (await t.request('GET', '/api/token', { token })).body.map((x: { name: string }) => x.name)).toEqual([
      'ShareX (laptop)',
    ]);
    await expect.poll(() => sharex.getByRole('status').textContent()).toContain('Its token “ShareX (laptop)” is in the list');

    await page.getByLabel('Name', { exact: true }).fill('backup script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const notice = page.locator('.notice');
    await expect.poll(() => notice.textContent()).toContain('it is shown only once');
    const secret = await page.getByLabel('New token').inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect.poll(() => notice.getByText('Copied').count()).toBe(1);
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    t.scan.addToken(secret);
    // What was copied is the working token.
    expect((await t.request('GET', '/api/usage/stats', { token: secret })).status).toBe(200);
    await fitsPhone(page, 'tokens');
    assertClean();
  });

  it('keeps running uploads on top, failed ones visible with their sentence, and folds finished ones into a count', async () => {
    await t.user('xena');
    const dir = tempDir('words-uploads');
    const big = join(dir, 'big-video.bin');
    writeFileSync(big, randomBytes(4 * MiB));
    const small = [1, 2, 3, 4, 5].map((i) => {
      const path = join(dir, `small-${i}.txt`);
      writeFileSync(path, `small file ${i}`);
      return path;
    });
    const tooLarge = join(dir, 'too-large.bin');
    writeFileSync(tooLarge, randomBytes(7 * MiB));

    const { page, expectHttpError, assertClean } = await watchedPage(browser, PHONE);
    expectHttpError('/api/upload/tus', 413);
    await signInThroughPage(page, t.url, 'xena', 'xena-password');
    // A slow uplink, so the big file is still on its way while the others finish.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    await page.getByLabel('Upload files').setInputFiles([big, ...small, tooLarge]);

    const uploads = page.getByRole('region', { name: 'Uploads' });
    const finished = uploads.locator('details.finished-uploads');
    await expect.poll(() => finished.locator('summary').textContent(), { timeout: 20_000 }).toBe('5 finished');
    await expect.poll(() => uploads.locator('.upload-failed').count()).toBe(1);
    const open = uploads.locator('ul.upload-list').first().locator('li');
    expect(await open.evaluateAll((rows) => rows.map((row) => [row.querySelector('.name')?.textContent, row.className]))).toEqual([
      ['big-video.bin', 'upload upload-sending'],
      ['too-large.bin', 'upload upload-failed'],
    ]);
    expect(await uploads.locator('.upload-failed .problem').textContent()).toBe(
      'This file is too large: one file can hold at most 6.3 MB.',
    );
    // Folded: the finished rows are there, but out of the way until asked for (by keyboard here).
    expect(await finished.getAttribute('open')).toBeNull();
    expect(await uploads.getByText('small-1.txt').isVisible()).toBe(false);
    await fitsPhone(page, 'uploads-running');
    await finished.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => uploads.getByText('small-1.txt').isVisible()).toBe(true);
    expect(await finished.locator('li.upload-done').count()).toBe(5);

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect.poll(() => finished.locator('summary').textContent(), { timeout: 30_000 }).toBe('6 finished');
    expect(await uploads.locator('ul.upload-list').first().locator('li').count()).toBe(1);
    assertClean();
  });

  it('shows where each search hit is, and opens it in place: a folder at its page, a file in its folder', async () => {
    const { token } = await t.user('yuri');
    const folder = async (name: string, parentId: string | null = null) =>
      (await t.request('POST', '/api/folder', { token, json: { name, parentId } })).body.id as string;
    const projects = await folder('Projects');
    const year = await folder('2026', projects);
    const plans = await folder('plans', projects);
    for (let i = 0; i < 60; i += 1) await t.upload(token, 'x', { filename: `filler-${String(i).padStart(2, '0')}.txt`, folderId: year });
    const final = (await t.upload(token, 'final plan', { filename: 'zz-plan-final.txt', folderId: year })).body.id as string;
    await t.upload(token, 'draft', { filename: 'plan-draft.txt' });

    const { page, assertClean } = await watchedPage(browser, PHONE);
    await signInThroughPage(page, t.url, 'yuri', 'yuri-password');
    const search = async () => {
      await page.getByLabel('Search names').fill('plan');
      await page.getByLabel('Search names').press('Enter');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'matches' }).textContent()).toBe('3 matches');
    };
    await search();
    const where = (name: string) => page.locator('.entry', { hasText: name }).locator('.where').textContent();
    expect(await where('zz-plan-final.txt')).toBe('in Projects / 2026');
    expect(await where('plan-draft.txt')).toBe('in Home');
    expect(await where('plans')).toBe('in Projects');
    await fitsPhone(page, 'search-hits');

    // A file hit opens its folder with the file in the viewer, its row in view behind it; closing the viewer leaves
    // the focus on that row.
    await page.getByRole('link', { name: 'zz-plan-final.txt' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/files/${year}?view=${final}`);
    await expect.poll(() => page.getByRole('dialog').getByRole('heading').first().textContent()).toBe('zz-plan-final.txt');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('2026');
    const row = page.locator('.entry.highlighted');
    await expect.poll(() => row.textContent()).toContain('zz-plan-final.txt');
    await fitsPhone(page, 'search-opened-file');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/files/${year}`);
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('zz-plan-final.txt');

    // A folder hit opens that folder; Back returns to where the person was.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await search();
    await page.getByRole('link', { name: 'plans', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/files/${plans}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('plans');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    assertClean();
  });

  it('fits 375 px on every page with the new forms, at 1280 px too', async () => {
    await t.user('zoe', 'admin');
    for (const options of [PHONE, DESKTOP]) {
      const { page, assertClean } = await watchedPage(browser, options);
      await signInThroughPage(page, t.url, 'zoe', 'zoe-password');
      for (const path of ['/', '/shares', '/pastes', '/collections', '/usage', '/tokens', '/account', '/admin']) {
        await page.goto(`${t.url}${path}`);
        await page.waitForLoadState('networkidle');
        const name = `page${path === '/' ? '-files' : path.replace('/', '-')}`;
        await page.screenshot({ path: screenshotPath(`words-${name}-${options.viewport.width}`), fullPage: true });
        expect(await overflowsHorizontally(page), `${path} at ${options.viewport.width}px`).toBe(false);
      }
      assertClean();
    }
  });
});
