import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Signs in through the dashboard's own form, as a person would; the session ends up in the HttpOnly cookie. */
export async function signInThroughPage(page: Page, base: string, username: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
}

/** Whether the page is wider than the window (a horizontal scroll bar): the check of every screenshot. */
export function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
}

/**
 * Signs in as a user whose password an admin set: the dashboard asks for their own first, and shows its sections
 * once it is saved.
 */
export async function signInChoosingPassword(page: Page, base: string, username: string, given: string, chosen: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(given);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await page.getByLabel('Password you signed in with').fill(given);
  await page.getByLabel('New password (8 to 256 characters)').fill(chosen);
  await page.getByLabel('New password again').fill(chosen);
  await page.getByRole('button', { name: 'Save my password' }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
}
