import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const SCRIPT = 'self.ran = (self.ran || 0) + 1; if (self.postMessage && !self.document) self.postMessage("ran");';
const STYLE = 'body { background-color: rgb(1, 2, 3) }';

/**
 * What an injection into a page of our origin could do with a stored file: load it as a classic script, a module,
 * a worker or a style sheet (all of which `script-src 'self'` / `style-src 'self'` would allow). Resolves, for each,
 * whether it ran or applied.
 */
const LOAD_AS_CODE = (script: string, style: string) => `(async () => {
  const settle = (el) => new Promise((resolve) => { el.onload = () => resolve('loaded'); el.onerror = () => resolve('refused'); });
  const classic = document.createElement('script');
  classic.src = '${script}';
  const classicLoad = settle(classic);
  document.body.append(classic);
  const module = document.createElement('script');
  module.type = 'module';
  module.src = '${script}?as=module';
  const moduleLoad = settle(module);
  document.body.append(module);
  const worker = await new Promise((resolve) => {
    const w = new Worker('${script}?as=worker');
    w.onmessage = () => resolve('ran');
    w.onerror = () => resolve('refused');
    setTimeout(() => resolve('silent'), 3000);
  });
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = '${style}';
  const sheetLoad = settle(sheet);
  document.head.append(sheet);
  return {
    classic: await classicLoad,
    module: await moduleLoad,
    worker,
    sheet: await sheetLoad,
    ran: self.ran ?? 0,
    background: getComputedStyle(document.body).backgroundColor,
  };
})()`;

describe.skipIf(!chromiumFound)('stored code in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a page of our origin cannot run a shared .js as a script, module or worker, nor apply a shared .css', async () => {
    const token = await t.userToken('alice');
    const shared = async (content: string, type: string, filename: string) => {
      const file = await t.upload(token, content, { type, filename });
      const share = await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.body.id } });
      return `/s/${share.body.id}/content`;
    };
    const script = await shared(SCRIPT, 'text/javascript', 'gadget.js');
    const style = await shared(STYLE, 'text/css', 'gadget.css');
    const page = await (await browser.newContext()).newPage();
    // /health is a page of our origin that sets no policy of its own: only the type decides what loads.
    await page.goto(`${t.url}/health`);
    expect(await page.evaluate(LOAD_AS_CODE(script, style))).toEqual({
      classic: 'refused',
      module: 'refused',
      worker: 'refused',
      sheet: 'refused',
      ran: 0,
      background: 'rgba(0, 0, 0, 0)',
    });
    await page.context().close();
  });
});
