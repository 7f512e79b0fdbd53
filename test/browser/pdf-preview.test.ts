import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { onePagePdf } from '../support/pdf.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const PHONE = { width: 375, height: 740 };
const TEXT = 'Coffer PDF preview';

describe.skipIf(!chromiumFound)('the PDF preview in Chromium', () => {
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

  /**
   * Chromium's viewer is an extension page inside our frame that loads the PDF in a frame of its own: once both
   * are there, the PDF was handed to the viewer (a blocked one shows an error page with neither).
   */
  async function viewerFrames(page: Page, src: string): Promise<{ viewer: Frame; pdf: Frame }> {
    const url = `${t.url}${src}`;
    await expect
      .poll(() => page.frames().filter((frame) => frame.url() === url).length, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    const viewer = page.frames().find((frame) => frame.url().startsWith('chrome-extension://'));
    const [outer, pdf] = page.frames().filter((frame) => frame.url() === url);
    expect(viewer, 'the PDF viewer started').toBeDefined();
    expect(viewer!.parentFrame()).toBe(outer);
    return { viewer: viewer!, pdf: pdf! };
  }

  it('a PDF share shows the document in the browser\'s viewer, framed from our own origin, with nothing blocked', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT), 'figures.pdf', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);

    const frame = page.getByTitle('Preview of figures.pdf');
    expect(await frame.getAttribute('src')).toBe(`/s/${id}/content?preview=1`);
    await viewerFrames(page, `/s/${id}/content?preview=1`);
    // The viewer draws the page a moment after it starts; the screenshot is for people to look at.
    await page.waitForTimeout(1500);
    await page.screenshot({ path: screenshotPath('share-pdf-desktop'), fullPage: true });
    assertClean();
  });

  it('a PDF inside a shared folder previews through its own route, after the Preview button', async () => {
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'Reports', parentId: null } });
    const fileId = await upload(onePagePdf(TEXT), 'inner.pdf', 'application/pdf', folder.body.id as string);
    const id = await share('folder', folder.body.id as string);
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByRole('button', { name: 'Preview inner.pdf' }).click();
    const src = `/s/${id}/files/${fileId}?preview=1`;
    expect(await page.getByTitle('Preview of inner.pdf').getAttribute('src')).toBe(src);
    await viewerFrames(page, src);
    assertClean();
  });

  it('a protected PDF previews once unlocked: the frame is a plain same-origin link that carries the grant', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT), 'secret.pdf', 'application/pdf'), {
      password: 'correct horse',
    });
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    expect(await page.locator('main iframe').count()).toBe(0);
    const field = page.getByLabel('Password');
    await field.fill('correct horse');
    await field.press('Enter');
    await viewerFrames(page, `/s/${id}/content?preview=1`);
    assertClean();
  });

  it('on a share with a download maximum the PDF loads only when asked, as every preview does', async () => {
    const id = await share('file', await upload(onePagePdf(TEXT), 'once.pdf', 'application/pdf'), {
      maxDownloads: 2,
    });
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByRole('button', { name: 'Show preview' }).waitFor();
    expect(await page.locator('main iframe').count()).toBe(0);
    await page.getByRole('button', { name: 'Show preview' }).click();
    await viewerFrames(page, `/s/${id}/content?preview=1`);
    assertClean();
  });

  it('HTML named like a PDF, or a PDF with an active name, gets no frame', async () => {
    const html = await share('file', await upload('<h1>hi</h1>', 'report.pdf', 'text/html'));
    const activeName = await share('file', await upload(onePagePdf(TEXT), 'report.html', 'application/pdf'));
    const { page, assertClean } = await watchedPage(browser);
    for (const id of [html, activeName]) {
      await page.goto(`${t.url}/s/${id}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('main .note, main pre').first().waitFor();
      expect(await page.locator('main iframe, main object, main embed').count()).toBe(0);
    }
    assertClean();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits a 375 px screen (${scheme}) and is saved as a screenshot`, async () => {
      const id = await share('file', await upload(onePagePdf(TEXT), 'phone.pdf', 'application/pdf'));
      const { page, assertClean } = await watchedPage(browser, { viewport: PHONE, colorScheme: scheme });
      await page.goto(`${t.url}/s/${id}`);
      await viewerFrames(page, `/s/${id}/content?preview=1`);
      await page.waitForTimeout(1000);
      const box = await page.getByTitle('Preview of phone.pdf').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: screenshotPath(`share-pdf-${scheme}-375`), fullPage: true });
      assertClean();
    });
  }
});
