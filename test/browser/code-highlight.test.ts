import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { solidPng } from '../support/media.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const CODE = 'def greet(name):\n    # say hello\n    return f"<b>{name}</b>" + str(42)\n';
const HIGHLIGHTER = /\/assets\/highlighter-[\w-]{8}\.js$/;

/** The scripts a page fetched, by path. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** What the code element holds once the page has settled: its markup, for comparing two pages. */
async function settledCode(page: Page, selector: string): Promise<string> {
  await expect.poll(() => page.locator(`${selector} .tk-keyword`).count()).toBeGreaterThan(0);
  return page.locator(`${selector} code`).innerHTML();
}

describe.skipIf(!chromiumFound)('one code highlighter, loaded when text is coloured', () => {
  let t: HttpTest;
  let browser: Browser;
  let token: string;
  let pasteId: string;
  let pasteShare: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
    token = (await t.user('hana')).token;
    const paste = await t.request('POST', '/api/paste', { token, json: { name: 'greet', type: 'python', content: CODE } });
    pasteId = paste.body.id as string;
    const share = await t.request('POST', '/api/share', { token, json: { type: 'paste', id: pasteId } });
    pasteShare = share.body.id as string;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is fetched by a page that colours text, and by no other', async () => {
    const picture = await t.upload(token, solidPng(8, 8, [0, 0, 255]), { filename: 'blue.png', type: 'image/png' });
    const pictureShare = await t.request('POST', '/api/share', { token, json: { type: 'file', id: picture.body.id } });
    const { page, assertClean } = await watchedPage(browser);
    const scripts = scriptsOf(page);
    await page.goto(`${t.url}/s/${pictureShare.body.id}`);
    await expect.poll(() => page.getByRole('img', { name: 'Preview of blue.png' }).isVisible()).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(scripts.some((path) => path.startsWith('/assets/'))).toBe(true);
    expect(scripts.filter((path) => HIGHLIGHTER.test(path))).toEqual([]);

    await page.goto(`${t.url}/s/${pasteShare}`);
    await expect.poll(() => page.locator('pre code .tk-keyword').first().textContent()).toBe('def');
    expect(await page.locator('pre code').textContent()).toBe(CODE);
    expect(scripts.filter((path) => HIGHLIGHTER.test(path))).toHaveLength(1);
    assertClean();
  });

  it('colours a paste the same on the share page, in the owner\'s viewer and in the new-paste preview', async () => {
    const share = await (await browser.newContext()).newPage();
    await share.goto(`${t.url}/s/${pasteShare}`);
    const onSharePage = await settledCode(share, 'main');
    expect(onSharePage).toContain('<span class="tk-comment">');
    expect(onSharePage).not.toContain('<b>');
    await share.context().close();

    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'hana', 'hana-password');
    await page.goto(`${t.url}/pastes?view=${encodeURIComponent(pasteId)}`);
    expect(await settledCode(page, '.viewer')).toBe(onSharePage);
    await page.keyboard.press('Escape');

    await page.getByLabel('Type').selectOption('python');
    await page.getByLabel('Content').fill(CODE);
    const preview = page.getByLabel('Preview', { exact: true });
    await expect.poll(() => preview.locator('.tk-keyword').count()).toBeGreaterThan(0);
    expect(await preview.locator('code').innerHTML()).toBe(onSharePage);
    await page.screenshot({ path: screenshotPath('dashboard-paste-preview'), fullPage: true });
    assertClean();
  });

  it('shows the text plain when the highlighter cannot be loaded', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.route(HIGHLIGHTER, (route) => route.abort());
    await page.goto(`${t.url}/s/${pasteShare}`);
    await expect.poll(() => page.locator('pre code').textContent()).toBe(CODE);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('pre code span').count()).toBe(0);
    await page.context().close();
  });
});
