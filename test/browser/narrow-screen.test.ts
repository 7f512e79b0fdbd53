import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { solidPng } from '../support/media.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const PHONE = { width: 375, height: 740 };
const LONG_NAME = `quarterly-report-final-FINAL-${'x'.repeat(80)}-v2 (copy).pdf`;
const LONG_LINE = `const line = "${'a very long line of code without a break '.repeat(8)}";`;

interface Target {
  path: string;
  /** A selector that is there once the page has shown what it should. */
  ready: string;
  /** An API error answer the page meets on purpose (see expectHttpError). */
  expect?: [string, number];
  /** What a visitor does before the screenshot. */
  act?: (page: Page) => Promise<void>;
}

describe.skipIf(!chromiumFound)('the share page on a 375 px screen', () => {
  let t: HttpTest;
  let browser: Browser;
  const pages: Record<string, Target> = {};

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
    const token = await t.userToken('alice');
    const file = await t.upload(token, new Uint8Array(3_456_789), { filename: LONG_NAME, type: 'application/pdf' });
    const paste = await t.request('POST', '/api/paste', {
      token,
      json: { name: 'snippet.ts', type: 'typescript', content: `${LONG_LINE}\n`.repeat(40) },
    });
    const locked = await t.upload(token, 'hidden', { filename: 'locked.txt' });
    const share = async (type: string, id: string, password?: string) =>
      (await t.request('POST', '/api/share', { token, json: { type, id, password } })).body.id as string;
    const lockedId = await share('file', locked.body.id, 'pw');
    pages['file'] = { path: `/s/${await share('file', file.body.id)}`, ready: 'h1#share-title' };
    pages['paste'] = { path: `/s/${await share('paste', paste.body.id)}`, ready: 'pre code' };
    const photo = await t.upload(token, solidPng(1200, 800, [40, 90, 160]), {
      filename: 'wide.png',
      type: 'image/png',
    });
    pages['image'] = { path: `/s/${await share('file', photo.body.id)}`, ready: 'img.preview-image' };
    const root = await t.request('POST', '/api/folder', { token, json: { name: `Folder ${LONG_NAME}` } });
    const sub = await t.request('POST', '/api/folder', { token, json: { name: LONG_NAME, parentId: root.body.id } });
    await t.upload(token, LONG_LINE, { filename: `${LONG_NAME}.ts`, folderId: sub.body.id });
    pages['folder'] = {
      path: `/s/${await share('folder', root.body.id)}`,
      ready: '.folder-list',
      act: async (page) => {
        await page.getByRole('link', { name: LONG_NAME, exact: true }).click();
        await page.getByRole('button', { name: `Preview ${LONG_NAME}.ts` }).click();
        await page.waitForSelector('pre code');
      },
    };
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'Pictures' } });
    await t.request('PUT', `/api/collection/${collection.body.id}/file/${photo.body.id}`, { token });
    pages['collection'] = { path: `/s/${await share('collection', collection.body.id)}`, ready: '.grid img' };
    pages['password'] = { path: `/s/${lockedId}`, ready: '#share-password' };
    pages['wrong-password'] = {
      ...pages['password'],
      expect: [`/s/${lockedId}/unlock`, 401],
      act: async (page) => {
        await page.getByLabel('Password').fill('not it');
        await page.getByRole('button', { name: 'Open' }).click();
        await page.getByText('That password is wrong').waitFor();
      },
    };
    const unknown = '/s/BBBBBBBBBBBBBBBBBBBBBB';
    pages['not-found'] = { path: unknown, ready: 'h1#message-title', expect: [unknown, 404] };
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    for (const name of ['file', 'image', 'paste', 'folder', 'collection', 'password', 'wrong-password', 'not-found']) {
      it(`${name} (${scheme}) fits the width and is saved as a screenshot`, async () => {
        const target = pages[name]!;
        const { page, expectHttpError, assertClean } = await watchedPage(browser, {
          viewport: PHONE,
          colorScheme: scheme,
        });
        if (target.expect) expectHttpError(...target.expect);
        await page.goto(t.url + target.path);
        await page.waitForSelector(target.ready);
        await target.act?.(page);
        // A string, not a function: the root project's types have no DOM.
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        expect(width).toBeLessThanOrEqual(PHONE.width);
        await page.screenshot({ path: screenshotPath(`share-${name}-${scheme}-375`), fullPage: true });
        assertClean();
      });
    }
  }
});
