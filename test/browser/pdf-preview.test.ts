import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { onePagePdf, pdfWithPages } from '../support/pdf.js';
import { shareCounts } from '../support/share-counts.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const PHONE = { width: 375, height: 740 };
const TEXT = 'Coffer PDF preview';
/** What a hostile PDF runs when a viewer opens it: a dialog, then a prompt (a phishing "password?" in real life). */
const OPEN_SCRIPT = "app.alert('x'); app.response('y');";

interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}

/** Dark pixels of a canvas (the text drawn on white paper), counted in the page (passed to it as source). */
function DARK_PIXELS(element: unknown): number {
  const canvas = element as Canvas;
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 384) dark += 1;
  return dark;
}

describe.skipIf(!chromiumFound)('the PDF preview in Chromium: drawn by pdf.js, nothing in the PDF runs', () => {
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

  async function upload(bytes: Uint8Array | string, filename: string, type: string, folderId?: string) {
    const file = await t.upload(token, bytes, { filename, type, folderId });
    expect(file.status).toBe(201);
    return file.body.id as string;
  }

  async function share(type: string, id: string, options: Record<string, unknown> = {}): Promise<string> {
    const res = await t.request('POST', '/api/share', { token, json: { type, id, ...options } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function folderWith(bytes: Uint8Array, filename: string): Promise<{ folderId: string; fileId: string }> {
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'Reports', parentId: null } });
    expect(folder.status).toBe(201);
    const folderId = folder.body.id as string;
    return { folderId, fileId: await upload(bytes, filename, 'application/pdf', folderId) };
  }

  /** Every address the page asked for and every worker it started: all must be ours. */
  function recordTraffic(page: Page): { requests: string[]; workers: string[] } {
    const traffic = { requests: [] as string[], workers: [] as string[] };
    page.on('request', (request) => traffic.requests.push(request.url()));
    page.on('worker', (worker) => traffic.workers.push(worker.url()));
    return traffic;
  }

  /** Waits for the first page's canvas and hands back how many of its pixels are ink. */
  async function firstPageInk(page: Page): Promise<number> {
    const canvas = page.locator('.pdf-page').first().locator('canvas');
    await canvas.waitFor({ timeout: 15_000 });
    return canvas.evaluate(DARK_PIXELS);
  }

  /**
   * A slow link (300 kB/s): a large PDF's whole-file read is still arriving when pdf.js wants the table at its end, so
   * a reader that may use ranges does, every time (on loopback the whole file can come first).
   */
  async function slowLink(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 300_000,
      uploadThroughput: 300_000,
    });
  }

  const viewerStarted = (page: Page) => page.frames().some((frame) => frame.url().startsWith('chrome-extension://'));

  it('a PDF share is drawn into the page: first page inked, its text selectable, pdf.js and its worker from /assets/', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT), 'figures.pdf', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    const traffic = recordTraffic(page);
    const worker = page.waitForEvent('worker');
    await page.goto(`${t.url}/s/${id}`);

    expect(await firstPageInk(page)).toBeGreaterThan(500);
    await expect.poll(() => page.locator('.pdf-page .textLayer').first().textContent()).toContain(TEXT);
    expect(await page.getByRole('region', { name: 'figures.pdf, 1 page' }).getAttribute('tabindex')).toBe('0');
    expect(await page.locator('.pdf-count').textContent()).toBe('1 page');
    expect(await page.locator('main iframe, main object, main embed').count()).toBe(0);
    expect(viewerStarted(page)).toBe(false);

    expect(traffic.workers).toHaveLength(1);
    expect(traffic.workers[0]).toMatch(new RegExp(`^${t.url}/assets/pdf\\.worker\\.min-[\\w-]{8}\\.mjs$`));
    expect(traffic.requests.filter((url) => !url.startsWith(`${t.url}/`))).toEqual([]);
    expect(traffic.requests).toContain(`${t.url}/s/${id}/content?preview=1`);
    // Helvetica is not embedded: its stand-in comes from our own assets.
    expect(traffic.requests.some((url) => /\/assets\/LiberationSans-Regular-[\w-]{8}\.ttf$/.test(url))).toBe(true);
    // The worker runs under the assets' policy (default-src 'none'): it reads the PDF only as the page hands it over.
    const running = await worker;
    expect(await running.evaluate(() => fetch('/health').then(() => 'fetched', () => 'refused'))).toBe('refused');
    const wasm = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    // Evaluated in the worker (the test's own types know no WebAssembly value).
    const compile = (bytes: number[]) =>
      (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<unknown> } }).WebAssembly.compile(
        new Uint8Array(bytes),
      ).then(() => 'compiled', (err: Error) => err.message);
    const compiled = await running.evaluate(compile, [...wasm]);
    expect(compiled).toMatch(/Content Security Policy/);
    await page.screenshot({ path: screenshotPath('share-pdf-desktop'), fullPage: true });
    assertClean();
  });

  it('a page with no PDF on it loads nothing of pdf.js', async () => {
    const id = await share('file', await upload('just words', 'notes.txt', 'text/plain'));
    const { page, assertClean } = await watchedPage(browser);
    const traffic = recordTraffic(page);
    await page.goto(`${t.url}/s/${id}`);
    await page.locator('main pre').waitFor();
    expect(traffic.requests.filter((url) => /pdf/i.test(url))).toEqual([]);
    expect(traffic.workers).toEqual([]);
    assertClean();
  });

  it('a PDF inside a shared folder previews through its own route, after the Preview button', async () => {
    const { folderId, fileId } = await folderWith(onePagePdf(TEXT), 'inner.pdf');
    const id = await share('folder', folderId);
    const { page, assertClean } = await watchedPage(browser);
    const traffic = recordTraffic(page);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByRole('button', { name: 'Preview inner.pdf' }).click();
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    expect(traffic.requests).toContain(`${t.url}/s/${id}/files/${fileId}?preview=1`);
    assertClean();
  });

  it('a protected PDF previews once unlocked: pdf.js\'s fetch carries the grant cookie', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT), 'secret.pdf', 'application/pdf'), {
      password: 'correct horse',
    });
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    expect(await page.locator('.pdf-page').count()).toBe(0);
    const field = page.getByLabel('Password');
    await field.fill('correct horse');
    await field.press('Enter');
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    assertClean();
  });

  it('on a share with a download maximum the PDF loads only when asked, and that preview counts one download', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT), 'once.pdf', 'application/pdf'), {
      maxDownloads: 2,
    });
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByRole('button', { name: 'Show preview' }).waitFor();
    expect(await page.locator('.pdf-page').count()).toBe(0);
    expect(await shareCounts(t.request, token, id)).toEqual({ views: 1, downloads: 0 });
    await page.getByRole('button', { name: 'Show preview' }).click();
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    expect(await shareCounts(t.request, token, id)).toEqual({ views: 1, downloads: 1 });
    assertClean();
  });

  it('on a share down to its last download, a large PDF still previews: read in one request, never by ranges', async () => {
    const large = onePagePdf(TEXT, { padding: 200 * 1024 });
    const id = await share('file', await upload(large, 'large.pdf', 'application/pdf'), { maxDownloads: 1 });
    const { page, assertClean } = await watchedPage(browser);
    const ranges: string[] = [];
    page.on('request', (request) => {
      const range = request.headers()['range'];
      if (range) ranges.push(`${request.url()} ${range}`);
    });
    await slowLink(page);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByRole('button', { name: 'Show preview' }).click();
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    expect(ranges).toEqual([]);
    expect(await shareCounts(t.request, token, id)).toEqual({ views: 1, downloads: 1 });
    assertClean();
  });

  it('a large PDF on a share without a download maximum is read by ranges, its table at the end first', async () => {
    const large = onePagePdf(TEXT, { padding: 200 * 1024 });
    const id = await share('file', await upload(large, 'ranged.pdf', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    const ranges: string[] = [];
    page.on('request', (request) => {
      const range = request.headers()['range'];
      if (range) ranges.push(range);
    });
    await slowLink(page);
    await page.goto(`${t.url}/s/${id}`);
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    expect(ranges.length).toBeGreaterThan(0);
    assertClean();
  });

  it('a long PDF: pages are drawn as they come near and let go when far; the region scrolls by keyboard', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `Page number ${i + 1}`);
    const id = await share('file', await upload(pdfWithPages(texts), 'long.pdf', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await firstPageInk(page);
    expect(await page.locator('.pdf-count').textContent()).toBe('12 pages');
    const pages = page.locator('.pdf-page');
    expect(await pages.count()).toBe(12);
    expect(await pages.nth(11).locator('canvas').count()).toBe(0);

    const region = page.getByRole('region', { name: 'long.pdf, 12 pages' });
    const focused = () => region.evaluate((el) => el === el.ownerDocument.activeElement);
    for (let presses = 0; presses < 10 && !(await focused()); presses += 1) await page.keyboard.press('Tab');
    expect(await focused(), 'the pages are reached by Tab').toBe(true);
    await page.keyboard.press('End');
    await expect.poll(() => region.evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
    await pages.nth(11).locator('canvas').waitFor({ timeout: 15_000 });
    expect(await pages.nth(11).locator('canvas').evaluate(DARK_PIXELS)).toBeGreaterThan(200);
    expect(await pages.nth(11).getAttribute('aria-label')).toBe('Page 12 of 12');
    await expect.poll(() => pages.nth(0).locator('canvas').count()).toBe(0);
    await pages.nth(11).evaluate((element) => element.scrollIntoView());
    await region.screenshot({ path: screenshotPath('share-pdf-long-last-page') });
    assertClean();
  });

  it('a PDF pdf.js cannot draw says so in a sentence and offers the download', async () => {
    const cases: [Buffer, string, RegExp][] = [
      [Buffer.from('%PDF-1.4\nthis is not a PDF at all\n'), 'broken.pdf', /damaged or not a PDF/],
      [onePagePdf(TEXT, { passwordProtected: true }), 'locked.pdf', /protected by a password/],
    ];
    for (const [bytes, name, sentence] of cases) {
      const id = await share('file', await upload(bytes, name, 'application/pdf'));
      const { page, assertClean } = await watchedPage(browser);
      await page.goto(`${t.url}/s/${id}`);
      const alert = page.locator('.pdf-failed');
      await alert.waitFor({ timeout: 15_000 });
      expect(await alert.textContent()).toMatch(sentence);
      const link = alert.getByRole('link', { name: `Download ${name}` });
      expect(await link.getAttribute('href')).toBe(`/s/${id}/content`);
      const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(saved.suggestedFilename()).toBe(name);
      if (name === 'broken.pdf') await page.screenshot({ path: screenshotPath('share-pdf-broken') });
      assertClean();
    }
  });

  it('a JPEG 2000 image it cannot decode is left out: the rest of the page is drawn', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT, { jpxImage: true }), 'scan.pdf', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    await expect.poll(() => page.locator('.pdf-page .textLayer').first().textContent()).toContain(TEXT);
    expect(await page.locator('.pdf-page-problem, .pdf-failed').count()).toBe(0);
    assertClean();
  });

  it('HTML named like a PDF shows its source; a PDF with an active name is still only drawn by pdf.js', async () => {
    const html = await share('file', await upload('<h1>hi</h1>', 'report.pdf', 'text/html'));
    const activeName = await share('file', await upload(onePagePdf(TEXT), 'report.html', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${html}`);
    await page.locator('main pre').waitFor();
    expect(await page.locator('.pdf-view, .pdf-status').count()).toBe(0);
    await page.goto(`${t.url}/s/${activeName}`);
    expect(await firstPageInk(page)).toBeGreaterThan(500);
    expect(await page.locator('main iframe, main object, main embed').count()).toBe(0);
    assertClean();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits a 375 px screen (${scheme}) and is saved as a screenshot`, async () => {
      const id = await share('file', await upload(onePagePdf(TEXT), 'phone.pdf', 'application/pdf'));
      const { page, assertClean } = await watchedPage(browser, { viewport: PHONE, colorScheme: scheme });
      await page.goto(`${t.url}/s/${id}`);
      expect(await firstPageInk(page)).toBeGreaterThan(200);
      const box = await page.locator('.pdf-scroller').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      const pageBox = await page.locator('.pdf-page').first().boundingBox();
      expect(pageBox!.x + pageBox!.width).toBeLessThanOrEqual(box!.x + box!.width);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: screenshotPath(`share-pdf-${scheme}-375`), fullPage: true });

      // A long name in the sentence of a PDF that cannot be drawn wraps too.
      const longName = `${'unbroken'.repeat(12)}.pdf`;
      const broken = await share('file', await upload('not a PDF', longName, 'application/pdf'));
      await page.goto(`${t.url}/s/${broken}`);
      await page.locator('.pdf-failed').waitFor({ timeout: 15_000 });
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      assertClean();
    });
  }

  describe('a PDF whose open action calls app.alert and app.response', () => {
    const scripted = onePagePdf(TEXT, { openScript: OPEN_SCRIPT });
    let control: Server;
    let controlUrl: string;

    beforeAll(async () => {
      // The same bytes served inline, as Coffer used to: proof that this Chromium runs the script and these tests see it.
      control = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(scripted));
      await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
      controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}/scripted.pdf`;
    });
    afterAll(() => new Promise<void>((resolve) => control?.close(() => resolve())));

    it('opens its dialogs when a browser shows it inline (the control: the tests below can fail)', async () => {
      const page = await (await browser.newContext()).newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()} ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(controlUrl);
      await expect.poll(() => dialogs, { timeout: 15_000 }).toEqual(['alert x', 'prompt y']);
      await page.context().close();
    });

    /** Opens a raw route as a navigation: it must download (an attachment), start no viewer and open no dialog. */
    async function expectDownloadOnly(page: Page, path: string, name: string) {
      const [saved, navigation] = await Promise.all([
        page.waitForEvent('download'),
        page.goto(`${t.url}${path}`).then(
          () => 'rendered',
          (err: Error) => err.message,
        ),
      ]);
      expect(navigation, path).toMatch(/Download is starting/);
      expect(saved.suggestedFilename(), path).toBe(name);
      // A viewer, had one started, would have run the open action by now.
      await page.waitForTimeout(1000);
      expect(viewerStarted(page), path).toBe(false);
    }

    it('opens no dialog on the share page, which draws it, nor on any of its raw routes', async () => {
      const fileId = await upload(scripted, 'scripted.pdf', 'application/pdf');
      const id = await share('file', fileId);
      const { page, problems, assertClean } = await watchedPage(browser);
      await page.goto(`${t.url}/s/${id}`);
      expect(await firstPageInk(page)).toBeGreaterThan(500);
      await page.waitForTimeout(1500);
      expect(viewerStarted(page)).toBe(false);
      for (const path of [`/s/${id}/content`, `/s/${id}/content?preview=1`, `/api/share/${id}/content`]) {
        await expectDownloadOnly(page, path, 'scripted.pdf');
      }
      expect(problems.filter((problem) => problem.startsWith('dialog'))).toEqual([]);
      assertClean();
    });

    it('opens no dialog through the folder share\'s file route, with and without preview=1', async () => {
      const { folderId, fileId } = await folderWith(scripted, 'scripted-inner.pdf');
      const id = await share('folder', folderId);
      const { page, assertClean } = await watchedPage(browser);
      await page.goto(`${t.url}/s/${id}`);
      await page.getByRole('button', { name: 'Preview scripted-inner.pdf' }).click();
      expect(await firstPageInk(page)).toBeGreaterThan(500);
      await page.waitForTimeout(1500);
      for (const path of [`/s/${id}/files/${fileId}`, `/s/${id}/files/${fileId}?preview=1`]) {
        await expectDownloadOnly(page, path, 'scripted-inner.pdf');
      }
      assertClean();
    });

    it('opens no dialog in the owner\'s viewer, which draws it, nor on the owner\'s download', async () => {
      const fileId = await upload(scripted, 'owned.pdf', 'application/pdf');
      const { page, assertClean } = await watchedPage(browser);
      await signInThroughPage(page, t.url, 'alice', 'alice-password');
      await page.goto(`${t.url}/?view=${fileId}`);
      const viewer = page.getByRole('dialog');
      expect(await firstPageInk(page)).toBeGreaterThan(500);
      expect(await viewer.locator('.pdf-page').count()).toBe(1);
      await page.waitForTimeout(1500);
      await page.screenshot({ path: screenshotPath('dash-pdf-viewer') });
      expect(viewerStarted(page)).toBe(false);
      await expectDownloadOnly(page, `/api/file/${fileId}/content`, 'owned.pdf');
      assertClean();
    });
  });
});
