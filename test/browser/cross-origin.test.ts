import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';

if (!chromiumFound) console.log(ENABLE_HINT);

/**
 * The attacker's page: every way a page of another origin has to read or change data through the visitor's
 * session. Each attempt writes what it got into window.results; the test reads them.
 */
function evilPage(target: string): string {
  return `<!doctype html><html><body><form id="f" method="POST" action="${target}/api/auth/logout" target="sink"></form>
<form id="g" method="POST" action="${target}/api/folder" enctype="text/plain" target="sink">
<input name='{"name":"pwned","x":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
window.results = {};
const attempt = async (name, run) => {
  try { window.results[name] = await run(); } catch (e) { window.results[name] = 'blocked: ' + e.name; }
};
(async () => {
  await attempt('read me', async () => (await fetch('${target}/api/auth/me', { credentials: 'include' })).text());
  await attempt('read usage', async () => (await fetch('${target}/api/usage/stats', { credentials: 'include' })).text());
  await attempt('create folder with header', async () => (await fetch('${target}/api/folder', {
    method: 'POST', credentials: 'include',
    headers: { 'Content-Type': 'application/json', 'X-Coffer-CSRF': '1' },
    body: JSON.stringify({ name: 'pwned' }) })).status);
  await attempt('create folder no-cors', async () => (await fetch('${target}/api/folder', {
    method: 'POST', mode: 'no-cors', credentials: 'include',
    headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ name: 'pwned' }) })).type);
  await attempt('upload no-cors', async () => {
    const form = new FormData();
    form.append('file', new Blob(['planted']), 'planted.txt');
    return (await fetch('${target}/api/file', { method: 'POST', mode: 'no-cors', credentials: 'include', body: form })).type;
  });
  await attempt('sign-in as attacker', async () => (await fetch('${target}/api/auth/session', {
    method: 'POST', mode: 'no-cors', credentials: 'include',
    headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ username: 'mallory', password: 'mallory-password' }) })).type);
  document.getElementById('g').submit();
  await new Promise((r) => setTimeout(r, 300));
  document.getElementById('f').submit();
  await new Promise((r) => setTimeout(r, 300));
  window.done = true;
})();
</script></body></html>`;
}

describe.skipIf(!chromiumFound)('a page on another origin, with the user signed in to the dashboard', () => {
  let t: HttpTest;
  let browser: Browser;
  let evil: Server;
  let evilPort: number;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
    await Promise.all([t.user('alice'), t.user('mallory')]);
    evil = createServer((req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(evilPage(new URL(req.url ?? '/', 'http://x').searchParams.get('target') ?? ''));
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilPort = (evil.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => evil?.close(resolve));
    await t?.close();
  });

  // 127.0.0.1 on another port is the same site (SameSite lets the cookie through: the sibling-subdomain case);
  // localhost is another site altogether.
  it.each([
    ['same-site (another port of 127.0.0.1)', '127.0.0.1'],
    ['cross-site (localhost)', 'localhost'],
  ])('%s can neither read nor change anything, nor sign the user out or in', async (_kind, evilHost) => {
    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'alice', 'alice-password');
    const before = (await t.request('GET', '/api/folder', { token: await t.userToken('alice') })).body.folders.length;

    const attacker = await page.context().newPage();
    await attacker.goto(`http://${evilHost}:${evilPort}/?target=${encodeURIComponent(t.url)}`);
    await attacker.waitForFunction('window.done === true', null, { timeout: 10_000 });
    const results = (await attacker.evaluate('window.results')) as Record<string, unknown>;

    expect(results['read me']).toBe('blocked: TypeError');
    expect(results['read usage']).toBe('blocked: TypeError');
    expect(results['create folder with header']).toBe('blocked: TypeError');
    expect(JSON.stringify(results)).not.toContain('alice');
    const after = await t.request('GET', '/api/folder', { token: await t.userToken('alice') });
    expect(after.body.folders.length).toBe(before);
    expect(after.body.folders.map((f: { name: string }) => f.name)).not.toContain('pwned');
    expect(after.body.files).toEqual([]);

    // Still signed in, and still as alice, not as the attacker's account.
    await page.reload();
    await expect.poll(() => page.locator('.who').textContent()).toContain('alice');
    const me = (await page.evaluate("fetch('/api/auth/me').then((r) => r.json())")) as { username: string };
    expect(me.username).toBe('alice');
    // The cookie is HttpOnly: the dashboard's own scripts cannot read it either.
    expect(await page.evaluate('document.cookie')).toBe('');
    assertClean();
  });
});
