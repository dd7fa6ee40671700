/**
 * E2E of "no page scrolls sideways" (docs/decisions.md "No page scrolls sideways"; docs/testing.md):
 * the demo administrator opens every entry of their side menu — built from the session exactly as
 * the side menu builds it (src/views/shell/menu-model.ts) — at 1 366 × 768 and 390 × 844, in the
 * light and the dark theme, waits for the screen's content (a heading, nothing busy: no skeleton,
 * spinner or aria-busy region), and checks that the document is no wider than the window. A wide
 * list must scroll inside its own box (src/views/shared/ResourceTable.tsx). All failures are
 * collected and reported together. One browser, one login; the theme is switched with the top
 * bar's "Modo oscuro" toggle. Screenshots of some screens at 390 px go to test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildMenuModel, type MenuNode } from '../../src/views/shell/menu-model';
import type { MenuGroup } from '../../src/schemas/session';
import { e2eEnvironment, newPage, screenshot, staffLogin } from './harness';

const env = e2eEnvironment();

const WIDTHS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

/** Screens photographed at 390 px (lists the issue named, and the shell around them). */
const PHOTOGRAPHED = new Set(['/Comercio/Ventas', '/Crm/Leads', '/Finanzas/Pagos', '/Finanzas/BilleteraDigital']);

/** The routes of every link of the signed-in user's side menu, in menu order. */
async function menuRoutes(page: Page): Promise<{ label: string; to: string }[]> {
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
 * Waits for what a user waits for: the real shell (not the server-drawn skeleton, which has a
 * heading too), the screen's heading, a list's rows or its empty state, and nothing in <main> still
 * loading (skeleton, spinner, aria-busy region).
 */
async function contentShown(page: Page): Promise<void> {
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

/** Document width against the window's, after the screen's content is in. */
const widths = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

async function setDark(page: Page, dark: boolean): Promise<void> {
  const isDark = () => page.evaluate(() => document.documentElement.classList.contains('app-dark'));
  if ((await isDark()) !== dark) await page.getByRole('button', { name: 'Modo oscuro' }).click();
  await expect.poll(isDark).toBe(dark);
}

describe('page width e2e', () => {
  it('no menu entry scrolls sideways at 1366 and 390 px, light and dark', { timeout: 900_000 }, async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl, WIDTHS[0].width, WIDTHS[0].height);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const routes = await menuRoutes(page);
    // The admin's menu: Dashboard plus every group of the catalogue the admin holds.
    expect(routes.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const dark of [false, true]) {
      await setDark(page, dark);
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        for (const { label, to } of routes) {
          await page.goto(to);
          await contentShown(page);
          const { scrollWidth, innerWidth } = await widths(page);
          if (scrollWidth > innerWidth) {
            failures.push(`${to} (${label}) at ${size.width} px, ${dark ? 'dark' : 'light'}: scrollWidth ${scrollWidth} > ${innerWidth}`);
          }
          if (size.width === 390 && (PHOTOGRAPHED.has(to) || !dark)) {
            await screenshot(page, `page-width-${to.replace(/\W+/g, '-').replace(/^-/, '')}-390-${dark ? 'dark' : 'light'}`);
          }
        }
      }
    }
    await setDark(page, false);
    await context.close();
    expect(failures).toEqual([]);
  });
});
