/**
 * Helpers shared by the e2e files that walk every screen (docs/testing.md "No page scrolls sideways",
 * "Accessibility sweep"): the signed-in user's menu routes, built from the session exactly as the
 * side menu builds them (src/views/shell/menu-model.ts); the waits for a screen's content; the
 * document's width against the window's; the top bar's dark toggle.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { buildMenuModel, type MenuNode } from '../../src/views/shell/menu-model';
import type { MenuGroup } from '../../src/schemas/session';

/** The routes of every link of the signed-in user's side menu, in menu order. */
export async function menuRoutes(page: Page): Promise<{ label: string; to: string }[]> {
  const { groups, accesos } = await page.evaluate(() => ({
    groups: (JSON.parse(localStorage.getItem('user_details') ?? '{}') as { permissions_names?: unknown }).permissions_names ?? [],
    accesos: JSON.parse(localStorage.getItem('accesos') ?? 'null') as string[] | null,
  }));
  const out: { label: string; to: string }[] = [];
  const walk = (nodes: readonly MenuNode[]) => {
    for (const node of nodes) {
      if (node.kind === 'link' && !node.hidden && !node.disabled) out.push({ label: node.label, to: node.to });
      if (node.kind === 'group' && !node.hidden) walk(node.children);
    }
  };
  for (const section of buildMenuModel(groups as MenuGroup[], accesos)) walk(section.children);
  return out;
}

/**
 * Waits for what a user waits for on a screen of the authenticated area: the real shell (not the
 * server-drawn skeleton, which has a heading too), the screen's heading, a list's rows or its empty
 * state, and nothing in <main> still loading (skeleton, spinner, aria-busy region).
 */
export async function contentShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    if (document.querySelector('.shell-skeleton') || !document.querySelector('.layout-topbar .notifications-bell')) return false;
    const main = document.querySelector('main.layout-main');
    if (!main) return false;
    const heading = main.querySelector('h1, h2, h3, .page-state');
    const busy = main.querySelector('[aria-busy="true"], .bp6-skeleton, .bp6-spinner, .page-loading');
    const listsReady = [...main.querySelectorAll('.resource-table')].every(
      (list) => list.querySelector('tbody tr') !== null || list.parentElement?.querySelector('.bp6-non-ideal-state') != null,
    );
    return heading !== null && busy === null && listsReady;
  });
}

/**
 * Waits for a public page (outside the authenticated layout): a heading or the status page's state,
 * and nothing still loading (the route's loading animation, a spinner, a skeleton, aria-busy).
 */
export async function publicContentShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector('#root h1, #root h2, #root .page-state, #root .bp6-non-ideal-state');
    const busy = document.querySelector('[aria-busy="true"], .bp6-skeleton, .bp6-spinner, .page-loading, .loading-overlay');
    return heading !== null && busy === null;
  });
}

/** Document width against the window's, after the screen's content is in. */
export const widths = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

/** Switches the signed-in user's theme with the top bar's "Modo oscuro" toggle (a no-op when already so). */
export async function setDark(page: Page, dark: boolean): Promise<void> {
  const isDark = () => page.evaluate(() => document.documentElement.classList.contains('app-dark'));
  if ((await isDark()) !== dark) await page.getByRole('button', { name: 'Modo oscuro' }).click();
  await expect.poll(isDark).toBe(dark);
}
