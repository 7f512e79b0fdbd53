import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { solidPng } from '../support/media.js';
import { tempDir } from '../support/temp.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const COMMAND = fileURLToPath(new URL('../../bin/coffer-e2e.mjs', import.meta.url));
const BIG = 200 * 1024 * 1024;

/** Uploads a file with the coffer-e2e command (the same codec as the pages): the link with its key. */
function cliUpload(server: string, token: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [COMMAND, 'upload', path, '--server', server, '--token', token], (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout.trim()),
    );
  });
}

const sha256 = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path).on('data', (chunk) => hash.update(chunk)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
  });

/** `size` random bytes written to `path` a MiB at a time; their SHA-256. */
async function randomFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path).on('error', reject).on('finish', resolve);
    let left = size;
    const more = () => {
      while (left > 0) {
        const piece = randomBytes(Math.min(left, 1024 * 1024));
        left -= piece.length;
        hash.update(piece);
        if (!out.write(piece)) return void out.once('drain', more);
      }
      out.end();
    };
    more();
  });
  return hash.digest('hex');
}

// Run in the page (as text: this file is compiled without the DOM's types).
const NATURAL_WIDTH = `(width) => document.querySelector('img.preview-image')?.naturalWidth === width`;
const PIXEL = `(() => {
  const img = document.querySelector('img.preview-image');
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  return [...context.getImageData(10, 10, 1, 1).data];
})()`;

describe.skipIf(!chromiumFound)('end-to-end encrypted shares in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;
  let token: string;
  const dir = tempDir('e2e-browser');

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      makeHttp({ blobs: 'fs', maxUploadBytes: 300 * 1024 * 1024, limits: { storage: 1024 ** 3 } }),
      launchChromium(),
    ]);
    token = await t.userToken('alice');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a fresh context opens the link: the real name, the image decrypted; without its key, a sentence', async () => {
    writeFileSync(join(dir, 'holiday-photo.png'), solidPng(64, 48, [200, 30, 40]));
    const link = await cliUpload(t.url, token, join(dir, 'holiday-photo.png'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(link);
    await page.getByRole('heading', { name: 'holiday-photo.png' }).waitFor();
    const image = page.getByRole('img', { name: 'Preview of holiday-photo.png' });
    await image.waitFor();
    await page.waitForFunction(NATURAL_WIDTH, 64);
    // The decrypted picture's own pixel, read back: red, as encoded.
    const pixel = await page.evaluate(PIXEL);
    expect(pixel).toEqual([200, 30, 40, 255]);
    await page.screenshot({ path: screenshotPath('e2e-share-image'), fullPage: true });
    assertClean();

    const bare = await watchedPage(browser);
    await bare.page.goto(link.split('#')[0]!);
    await bare.page.getByRole('alert').filter({ hasText: 'this link has no key' }).waitFor();
    expect(await bare.page.getByRole('heading').first().textContent()).toBe('Encrypted file');
    await bare.page.screenshot({ path: screenshotPath('e2e-share-no-key'), fullPage: true });
    bare.assertClean();

    const wrong = await watchedPage(browser);
    await wrong.page.goto(`${link.split('#')[0]!}#k=${'A'.repeat(22)}`);
    await wrong.page.getByRole('alert').filter({ hasText: 'does not open this file' }).waitFor();
    wrong.assertClean();
  });

  it('the dashboard encrypts while it uploads, gives the link with its key, and keeps the key in this browser', async () => {
    await t.user('bob');
    const path = join(dir, 'team-picture.png');
    writeFileSync(path, solidPng(40, 30, [20, 160, 60]));
    const owner = await watchedPage(browser);
    await signInThroughPage(owner.page, t.url, 'bob', 'bob-password');
    await owner.page.getByLabel('Encrypt end to end').check();
    await owner.page.getByLabel('Upload files').setInputFiles(path);
    const linkBox = owner.page.getByLabel('Link with key of team-picture.png');
    await linkBox.waitFor({ timeout: 15_000 });
    const link = await linkBox.inputValue();
    expect(link).toMatch(new RegExp(`^${t.url}/s/[A-Za-z0-9_-]{22}#k=[A-Za-z0-9_-]{22}$`));
    await owner.page.screenshot({ path: screenshotPath('e2e-dashboard-upload'), fullPage: true });

    // The server holds ciphertext under a placeholder name; the real name is nowhere in its records.
    const shareId = new URL(link).pathname.split('/').pop()!;
    const stored = (await t.ports.files.findById((await t.ports.shares.findById(shareId))!.itemId))!;
    expect(stored).toMatchObject({ name: `encrypted-${stored.id}`, mime: 'application/octet-stream' });
    expect(JSON.stringify(stored)).not.toContain('team-picture');

    // The owner's browser kept the key: the file's actions offer the same link again.
    await owner.page.reload();
    await owner.page.getByRole('button', { name: `Actions for encrypted-${stored.id}` }).click();
    const again = owner.page.getByLabel(`Link with key of encrypted-${stored.id}`);
    await again.waitFor({ timeout: 10_000 });
    expect(await again.inputValue()).toBe(link);
    owner.assertClean();

    // Another browser context opens the link and sees the picture decrypted.
    const visitor = await watchedPage(browser);
    await visitor.page.goto(link);
    await visitor.page.getByRole('heading', { name: 'team-picture.png' }).waitFor();
    await visitor.page.waitForFunction(NATURAL_WIDTH, 40);
    visitor.assertClean();
  });

  it('an encrypted paste from the dashboard reads on the share page, and only there', async () => {
    await t.user('carol');
    const owner = await watchedPage(browser);
    await signInThroughPage(owner.page, t.url, 'carol', 'carol-password');
    await owner.page.getByRole('link', { name: 'Pastes' }).click();
    await owner.page.getByLabel('Name').fill('deploy notes');
    await owner.page.getByLabel('Content').fill('rotate the keys on Tuesday');
    await owner.page.getByLabel(/Encrypt end to end/).check();
    await owner.page.getByRole('button', { name: 'Save paste' }).click();
    const linkBox = owner.page.getByLabel(/^Link with key of encrypted-/);
    await linkBox.waitFor({ timeout: 10_000 });
    const link = await linkBox.inputValue();
    expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{22}#k=[A-Za-z0-9_-]{22}$/);
    expect(await owner.page.content()).not.toContain('rotate the keys');
    owner.assertClean();

    const visitor = await watchedPage(browser);
    await visitor.page.goto(link);
    await visitor.page.getByRole('heading', { name: 'deploy notes' }).waitFor();
    await visitor.page.getByText('rotate the keys on Tuesday').waitFor();
    await visitor.page.screenshot({ path: screenshotPath('e2e-share-paste'), fullPage: true });
    visitor.assertClean();
  });

  it('200 MB downloads through the service worker byte-exact while the page holds none of it', { timeout: 300_000 }, async () => {
    const source = join(dir, 'big-archive.bin');
    const expected = await randomFile(source, BIG);
    const link = await cliUpload(t.url, token, source);
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(link);
    await page.getByRole('heading', { name: 'big-archive.bin' }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value;
    };
    const before = await heap();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('big-archive.bin');
    const saved = join(dir, 'saved.bin');
    // Sampled while the bytes stream, and after.
    let peak = before;
    const sampling = setInterval(() => void heap().then((h) => (peak = Math.max(peak, h)), () => {}), 200);
    await download.saveAs(saved);
    clearInterval(sampling);
    peak = Math.max(peak, await heap());
    expect(await download.failure()).toBeNull();
    expect(await sha256(saved)).toBe(expected);
    expect(peak - before).toBeLessThan(32 * 1024 * 1024);
    assertClean();
  });
});
