import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { overflowsHorizontally, signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { recordWebm, solidPng } from '../support/media.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const MiB = 1024 * 1024;

/** One second of a 440 Hz tone as a 16-bit mono WAV: audio Chromium plays without any codec of its own. */
function toneWav(seconds = 1, rate = 8000): Buffer {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

const viewer = (page: Page) => page.getByRole('dialog');
const viewerTitle = (page: Page) => viewer(page).getByRole('heading').first().textContent();
/** The viewer has taken the focus (its heading): from then on its keys are listened to. */
const focusedIn = (page: Page) =>
  expect.poll(() => page.evaluate<boolean>(`!!document.activeElement?.closest('[role=dialog]')`)).toBe(true);
const viewParam = (page: Page) => new URL(page.url()).searchParams.get('view');
const mediaReady = (page: Page, selector: string) =>
  page.locator(`.viewer ${selector}`).evaluate((m: { readyState: number }) => m.readyState);

describe.skipIf(!chromiumFound)("the owner's viewer in Chromium", () => {
  let t: HttpTest;
  let browser: Browser;
  let token: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp({ limits: { storage: 100 * MiB }, maxUploadBytes: 32 * MiB }), launchChromium()]);
    ({ token } = await t.user('vera'));
    const files: [string, string | Buffer, string][] = [
      ['a-photo.png', solidPng(320, 200, [30, 140, 90]), 'image/png'],
      ['b-clip.webm', await recordWebm(browser, 2), 'video/webm'],
      ['c-tone.wav', toneWav(), 'audio/wav'],
      ['d-code.ts', 'const answer: number = 42; // the answer\n', 'text/plain'],
      ['e-page.html', '<!doctype html><h1>hi</h1><script>alert("xss")</script>\n', 'text/html'],
      ['f-data.bin', Buffer.from([0, 1, 2, 3]), 'application/octet-stream'],
    ];
    for (const [name, content, type] of files) {
      const reply = await t.upload(token, content, { filename: name, type });
      expect(reply.status).toBe(201);
      ids.set(name, reply.body.id);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('opens each kind of file, steps with ← and →, closes with Esc and Back, and reopens on reload', async () => {
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
    await signInThroughPage(page, t.url, 'vera', 'vera-password');
    await page.getByRole('link', { name: 'a-photo.png' }).click();

    await expect.poll(() => viewerTitle(page)).toBe('a-photo.png');
    await focusedIn(page);
    expect(viewParam(page)).toBe(ids.get('a-photo.png'));
    const image = viewer(page).getByRole('img', { name: 'Preview of a-photo.png' });
    await expect.poll(() => image.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(320);
    await page.screenshot({ path: screenshotPath('viewer-image-1280') });

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewerTitle(page)).toBe('b-clip.webm');
    expect(viewParam(page)).toBe(ids.get('b-clip.webm'));
    await expect.poll(() => mediaReady(page, 'video'), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const seeked = await page.evaluate<number>(`new Promise((resolve) => {
      const v = document.querySelector('.viewer video');
      v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
      v.currentTime = v.duration * 0.5;
    })`);
    expect(seeked).toBeGreaterThan(0.5);

    // Arrow keys belong to a focused player (it seeks with them); the viewer steps only from elsewhere.
    await viewer(page).getByRole('heading').first().focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewerTitle(page)).toBe('c-tone.wav');
    await expect.poll(() => mediaReady(page, 'audio'), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.viewer audio').evaluate((a: { duration: number }) => a.duration)).toBeCloseTo(1, 1);

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewerTitle(page)).toBe('d-code.ts');
    await expect.poll(() => page.locator('.viewer .code .tk-keyword').first().textContent()).toBe('const');

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewerTitle(page)).toBe('e-page.html');
    // Active content is only ever its source text: the script is characters on the screen, and it never ran.
    await expect.poll(() => page.locator('.viewer .code').textContent()).toContain('<script>alert("xss")</script>');

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewerTitle(page)).toBe('f-data.bin');
    await expect.poll(() => viewer(page).getByText('No preview for this kind of file').isVisible()).toBe(true);
    expect(await viewer(page).getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('f-data.bin');
    await page.keyboard.press('ArrowRight'); // the last file: nothing after it
    expect(await viewerTitle(page)).toBe('f-data.bin');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => viewerTitle(page)).toBe('e-page.html');

    await page.keyboard.press('Escape');
    await expect.poll(() => viewer(page).count()).toBe(0);
    expect(viewParam(page)).toBeNull();

    // Keyboard alone: focus the name, Enter opens; Back closes (stepping through files added no history).
    await page.getByRole('link', { name: 'd-code.ts' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => viewerTitle(page)).toBe('d-code.ts');
    await focusedIn(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewerTitle(page)).toBe('e-page.html');
    await page.goBack();
    await expect.poll(() => viewer(page).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goForward();
    await expect.poll(() => viewerTitle(page)).toBe('e-page.html');
    await focusedIn(page);

    await page.reload();
    await expect.poll(() => viewerTitle(page)).toBe('e-page.html');
    await focusedIn(page);
    // Opened by its address, the viewer still steps through the listing, and Esc leaves the page's own address.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => viewerTitle(page)).toBe('d-code.ts');
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer(page).count()).toBe(0);
    expect(page.url()).toBe(`${t.url}/`);
    assertClean();
  });

  it('Download, Open in a new tab and Share act on the open file', async () => {
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
    await signInThroughPage(page, t.url, 'vera', 'vera-password');
    await page.goto(`${t.url}/?view=${ids.get('d-code.ts')}`);
    await expect.poll(() => viewerTitle(page)).toBe('d-code.ts');

    const [download] = await Promise.all([page.waitForEvent('download'), viewer(page).getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('d-code.ts');
    // Code is served as an attachment: a new tab would only download it again, so the viewer does not offer one.
    expect(await viewer(page).getByRole('link', { name: 'Open in a new tab' }).count()).toBe(0);

    await viewer(page).getByRole('button', { name: 'Share' }).click();
    await viewer(page).getByRole('button', { name: 'Create link' }).click();
    const shares = async () => (await t.request('GET', '/api/share', { token })).body as { file: { id: string } | null }[];
    await expect.poll(async () => (await shares()).some((s) => s.file?.id === ids.get('d-code.ts'))).toBe(true);
    await page.goto(`${t.url}/?view=${ids.get('a-photo.png')}`);
    const tab = viewer(page).getByRole('link', { name: 'Open in a new tab' });
    expect(await tab.getAttribute('target')).toBe('_blank');
    expect(await tab.getAttribute('href')).toBe(`/api/file/${ids.get('a-photo.png')}/content`);
    assertClean();
  });

  it('pastes open in the same viewer; at 375 px it fits the screen', async () => {
    for (const [name, content] of [['first', 'echo one'], ['second', 'function two() { return 2; }']]) {
      const reply = await t.request('POST', '/api/paste', { token, json: { name, type: name === 'first' ? 'shell' : 'javascript', content } });
      expect(reply.status).toBe(201);
    }
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 375, height: 740 } });
    await signInThroughPage(page, t.url, 'vera', 'vera-password');
    await page.getByRole('link', { name: 'Pastes' }).click();
    await page.getByRole('link', { name: 'second' }).click();
    await expect.poll(() => viewerTitle(page)).toBe('second');
    await expect.poll(() => page.locator('.viewer .code .tk-keyword').first().textContent()).toBe('function');
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: screenshotPath('viewer-paste-375') });
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer(page).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/pastes');

    await page.goto(`${t.url}/?view=${ids.get('a-photo.png')}`);
    await expect.poll(() => viewerTitle(page)).toBe('a-photo.png');
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: screenshotPath('viewer-image-375') });
    assertClean();
  });
});
