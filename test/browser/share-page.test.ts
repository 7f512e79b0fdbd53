import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, watchedPage } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const XSS = '<img src=x onerror=alert(1)>';

describe.skipIf(!chromiumFound)('the share page in Chromium', () => {
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

  async function share(type: string, id: string, password?: string): Promise<string> {
    const res = await t.request('POST', '/api/share', { token, json: { type, id, password } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function fileShare(bytes: Uint8Array, filename: string, password?: string): Promise<string> {
    const file = await t.upload(token, bytes, { filename, type: 'application/octet-stream' });
    expect(file.status).toBe(201);
    return share('file', file.body.id, password);
  }

  it('shows a file share (name, size, type, owner) and its Download link saves the very bytes', async () => {
    const bytes = randomBytes(50_000);
    const id = await fileShare(bytes, 'report 2026.bin');
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('report 2026.bin');
    const facts = await page.locator('dl').innerText();
    expect(facts).toContain('50 kB\n50,000 bytes');
    expect(facts).toContain('application/octet-stream');
    expect(facts).toContain('alice');
    expect(await page.title()).toBe('report 2026.bin · Coffer');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report 2026.bin');
    expect(readFileSync(await download.path()).equals(bytes)).toBe(true);
    assertClean();
  });

  it('renders a paste and its name as text: an XSS attempt creates no element and opens no dialog', async () => {
    const content = `${XSS}\n<script>alert(2)</script>\n<b>bold?</b>`;
    const paste = await t.request('POST', '/api/paste', { token, json: { name: XSS, type: 'html', content } });
    expect(paste.status).toBe(201);
    const id = await share('paste', paste.body.id);
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);

    await expect.poll(() => page.locator('pre code').textContent()).toBe(content);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(XSS);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('body img, body b, body script').count()).toBe(0);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Copied|selected/);
    assertClean();
  });

  it('shows a folder and a collection by name and counts, names as text', async () => {
    const folder = await t.request('POST', '/api/folder', { token, json: { name: `Photos ${XSS}` } });
    expect(folder.status).toBe(201);
    await t.upload(token, 'one', { filename: 'a.txt', folderId: folder.body.id });
    await t.upload(token, 'two', { filename: 'b.txt', folderId: folder.body.id });
    await t.request('POST', '/api/folder', { token, json: { name: 'inner', parentId: folder.body.id } });
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'Best of' } });
    expect(collection.status).toBe(201);

    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${await share('folder', folder.body.id)}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Photos ${XSS}`);
    expect(await page.locator('dl').innerText()).toContain('2 files, 1 folder');
    expect(await page.locator('body img').count()).toBe(0);

    await page.goto(`${t.url}/s/${await share('collection', collection.body.id)}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Best of');
    expect(await page.locator('dl').innerText()).toContain('0 files');
    assertClean();
  });

  it('asks for the password of a protected share: a wrong one says so, the right one opens and downloads', async () => {
    const password = 'correct horse ✓ pässwort';
    const bytes = randomBytes(20_000);
    const id = await fileShare(bytes, 'secret.bin', password);
    const { page, expectHttpError, assertClean } = await watchedPage(browser);
    expectHttpError(`/api/share/${id}`, 401);
    await page.goto(`${t.url}/s/${id}`);

    const field = page.getByLabel('Password');
    await field.fill('wrong password');
    await field.press('Enter');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('That password is wrong. Check it and try again.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(page.url()).toBe(`${t.url}/s/${id}`);

    await page.keyboard.press('Control+A');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('secret.bin');
    const title = page.locator('#share-title');
    expect(await title.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(page.url()).not.toContain('horse');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('secret.bin');
    expect(readFileSync(await download.path()).equals(bytes)).toBe(true);
    assertClean();
  });

  it('says when guessing is paused and keeps the Open button off until then', async () => {
    const id = await fileShare(randomBytes(10), 'guarded.bin', 'the right one');
    let status = 0;
    for (let guess = 0; guess < 20 && status !== 429; guess += 1) {
      const headers = { 'x-share-password': `guess ${guess}` };
      status = (await t.request('GET', `/api/share/${id}`, { headers })).status;
    }
    expect(status).toBe(429);
    const { page, expectHttpError, assertClean } = await watchedPage(browser);
    expectHttpError(`/api/share/${id}`, 401);
    expectHttpError(`/api/share/${id}`, 429);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByLabel('Password').fill('the right one');
    await page.getByRole('button', { name: 'Open' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(await page.getByRole('button', { name: 'Open' }).isDisabled()).toBe(true);
    assertClean();
  });

  it('says when an unknown share is not found', async () => {
    const id = 'AAAAAAAAAAAAAAAAAAAAAA';
    const { page, expectHttpError, assertClean } = await watchedPage(browser);
    expectHttpError(`/api/share/${id}`, 404);
    await page.goto(`${t.url}/s/${id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Share not found');
    expect(await page.locator('main').innerText()).toContain('deleted');
    assertClean();
  });
});
