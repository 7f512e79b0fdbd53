import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium (`apt-get install chromium`); playwright-core never downloads a browser of its own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const chromiumFound = existsSync(CHROMIUM_PATH);
export const ENABLE_HINT =
  `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (enable them with: apt-get install chromium)`;

/** Where the tests leave their screenshots (git-ignored), for people to look at. */
export const SCREENSHOTS = join(import.meta.dirname, '..', 'browser', 'screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Reported through the console, so one listener hears CSP and Trusted Types violations along with everything else. */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => {
  const where = e.sourceFile + ':' + e.lineNumber;
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' in ' + where);
}, true);`;

/** Chromium's line for an HTTP error answer: `Failed to load resource: the server responded with a status of 404`. */
const HTTP_ERROR = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

export interface WatchedPage {
  page: Page;
  /** Everything that went wrong so far: console errors, CSP violations, uncaught exceptions, dialogs. */
  problems: string[];
  /**
   * An API answer this test causes on purpose (a 404 for an unknown share, a 401 for a wrong password): Chromium
   * logs it as a console error, which is not a fault of the page. Only the named path and status are let through.
   */
  expectHttpError(path: string | RegExp, status: number): void;
  /** Fails the test on any problem; call it at the end of every test. */
  assertClean(): void;
}

/** A page in a fresh context (no shared cookies or cache) that records every problem the page runs into. */
export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  await context.addInitScript(REPORT_VIOLATIONS);
  const page = await context.newPage();
  const problems: string[] = [];
  const expected: { path: string | RegExp; status: number }[] = [];

  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = HTTP_ERROR.exec(message.text())?.[1];
    const path = new URL(message.location().url || 'about:blank').pathname;
    const named = (e: { path: string | RegExp }) => (typeof e.path === 'string' ? e.path === path : e.path.test(path));
    if (status && expected.some((e) => named(e) && e.status === Number(status))) return;
    problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog opened: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });

  return {
    page,
    problems,
    expectHttpError: (path, status) => expected.push({ path, status }),
    assertClean: () => expect(problems).toEqual([]),
  };
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}
