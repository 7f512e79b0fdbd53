import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Signs in through the dashboard's own form, as a person would; the session ends up in the HttpOnly cookie. */
export async function signInThroughPage(page: Page, base: string, username: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
}

/** Whether the page is wider than the window (a horizontal scroll bar): the check of every screenshot. */
export function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
}
