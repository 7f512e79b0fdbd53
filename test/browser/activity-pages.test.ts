import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoggedActivityRecorder } from '../../src/boot/activity-recorder.js';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { overflowsHorizontally, signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';

if (!chromiumFound) console.log(ENABLE_HINT);

describe.skipIf(!chromiumFound)('activity and webhooks in the dashboard (Chromium)', () => {
  let t: HttpTest;
  let browser: Browser;
  let shareId: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp({ config: { webhookAllowPrivate: true } }), launchChromium()]);
    const { token } = await t.user('dana');
    const file = (await t.upload(token, 'hello', { filename: 'report.pdf', type: 'application/pdf' })).body;
    shareId = (await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } })).body.id;
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
    for (let day = 0; day < 5; day++) {
      for (let i = 0; i <= day; i++) await t.request('GET', `/api/share/${shareId}`, { headers: { 'User-Agent': firefox } });
      await t.request('GET', `/api/share/${shareId}/content`);
      t.clock.advance(86_400_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.container.get(LoggedActivityRecorder).settled();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows a share\'s activity as a chart and a table, and recent activity on the Shares page', async () => {
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1000, height: 900 } });
    await page.clock.setFixedTime(t.clock.now());
    await signInThroughPage(page, t.url, 'dana', 'dana-password');
    await page.getByRole('link', { name: 'Shares' }).click();
    await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
    await expect.poll(() => page.locator('.activity-table tbody tr').count()).toBe(5);
    await page.getByRole('link', { name: 'Activity', exact: true }).last().click();
    await page.getByRole('heading', { name: 'Activity of a share' }).waitFor();
    await expect.poll(() => page.locator('.activity-table tbody tr').count()).toBe(20);
    expect(await page.locator('.activity-chart rect.bar-views').count()).toBe(14);
    await expect.poll(() => page.getByText('Firefox, Windows').first().isVisible()).toBe(true);
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: screenshotPath('activity-share'), fullPage: true });
    assertClean();
  });

  it('adds a webhook, shows its secret once, sends a test and lists the delivery', async () => {
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1000, height: 900 } });
    await signInThroughPage(page, t.url, 'dana', 'dana-password');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Address').fill('https://hooks.example.com/coffer');
    await page.getByLabel('share.viewed').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook added.').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('A test event is on its way.').waitFor();
    await expect.poll(() => page.getByRole('cell', { name: /^ping/ }).isVisible()).toBe(true);
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: screenshotPath('webhooks'), fullPage: true });
    assertClean();
  });

  it('turns on mail for a share and sets the address in Account', async () => {
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1000, height: 900 } });
    await signInThroughPage(page, t.url, 'dana', 'dana-password');
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Email address').fill('dana@example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Mail notices go to dana@example.com.').waitFor();
    await page.getByRole('link', { name: 'Shares' }).click();
    await page.getByLabel('Email me when it is downloaded').check();
    const token = await t.userToken('dana');
    await expect.poll(async () => (await t.request('GET', '/api/share', { token })).body[0].notify).toEqual({ email: true });
    expect((await t.request('GET', '/api/auth/me', { token })).body.email).toBe('dana@example.com');
    await page.screenshot({ path: screenshotPath('shares-with-activity'), fullPage: true });
    assertClean();
  });
});
