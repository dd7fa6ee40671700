/**
 * E2E harness: starts the real server (server/main.ts, the same entry point as `npm start`) on
 * 127.0.0.1 with a fresh temporary SQLite database and the demo seed, serving the built app from
 * dist/ (or DIST_DIR), and launches Debian's Chromium through playwright-core. The server exits by itself when
 * this process goes away (its stdin closes: EXIT_ON_STDIN_CLOSE).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, onTestFailed } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer as startServerProcess } from '../../scripts/lib/server-process.mjs';

const root = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOTS = path.join(root, 'test-results', 'e2e');

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts server/main.ts (scripts/lib/server-process.mjs, shared with the benches) on a free port of
 * 127.0.0.1 with a temp SQLite database and the demo seed, serving dist/ (or DIST_DIR); resolves
 * once /api/health answers (up to 240 s). Test settings: cheap scrypt, login limits out of the way.
 */
export function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  return startServerProcess({
    distDir: path.resolve(root, process.env.DIST_DIR || 'dist'),
    env: { NODE_ENV: 'test', LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000', ...extraEnv },
    // Boot, migrations and the demo seed: ~40 s on a loaded 2-core machine, 127 s seen with eight
    // busy threads; within the e2e hook timeout (vitest.config.ts).
    timeoutMs: 240_000,
  });
}

/** Launches Debian's Chromium headless with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Every page wait and action (Playwright's default is 30 s): three times a loaded machine's slowest seen. */
export const PAGE_TIMEOUT_MS = 90_000;

/** A fresh context (empty storage, es-PE, America/Lima) and page; desktop unless a width is given. */
export async function newPage(
  browser: Browser,
  baseUrl: string,
  width = 1366,
  height = 860,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width, height }, locale: 'es-PE', timezoneId: 'America/Lima' });
  // Playwright's 30 s default is reached on a loaded 2-core machine (a login after the server's jobs
  // ran): three times it, as docs/testing.md asks of every wait.
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const page = await context.newPage();
  onTestFailed(() => failureSnapshot(page));
  return { context, page };
}

/**
 * When a test fails, what its page showed: the address and the first heading printed to the log
 * (CI keeps only the log) and a full-page screenshot `failed-<time>.png` under test-results/e2e/.
 * Never throws: a page already closed leaves only the log line.
 */
async function failureSnapshot(page: Page): Promise<void> {
  try {
    const heading = await page
      .locator('h1')
      .first()
      .textContent({ timeout: 2_000 })
      .catch(() => null);
    console.log(`e2e failure: the page was at ${page.url()}, first heading ${JSON.stringify(heading)}`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `failed-${Date.now()}.png`), fullPage: true, timeout: 10_000 });
  } catch (error) {
    console.log(`e2e failure: no snapshot of the page (${String(error)})`);
  }
}

/** Saves a full-page screenshot under test-results/e2e/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Sets a Blueprint checkbox or switch by clicking its visible label, the way a user does. Blueprint
 * draws its indicator over the real `<input>` (opacity 0), so clicking the input itself is refused
 * by Playwright's hit-target check, and `force: true` skips the "stable" wait: inside a dialog that
 * is still sliding in, a forced click lands beside the control (docs/testing.md). The label click
 * waits for the control to stop moving; then we wait until the input reports the wanted state.
 * @param input the checkbox's locator (getByRole('checkbox') / getByLabel).
 */
export async function setChecked(input: Locator, checked = true): Promise<void> {
  if ((await input.isChecked()) === checked) return;
  await input.locator('xpath=ancestor::label[1]').click();
  await input
    .page()
    .waitForFunction(([el, want]) => (el as HTMLInputElement).checked === want, [await input.elementHandle(), checked] as const);
}

/**
 * Waits until no CSS animation or transition runs on the page (a drawer sliding in, the dark-mode
 * view transition), so a screenshot shows the settled screen. Polls `document.getAnimations()`
 * instead of awaiting `Animation.finished`, whose promise rejects when an animation is cancelled.
 * Endless animations (the bell ringing while notifications are unread, a loading pulse) never
 * settle, so they are not waited for.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** Reads the newest reset link for an e-mail from the server's dev outbox. */
export async function latestResetLink(baseUrl: string, recipient: string): Promise<string> {
  const res = await fetch(`${baseUrl}/dev/outbox`);
  const body = (await res.json()) as { data: { recipient: string; link: string | null }[] };
  const row = body.data.find((m) => m.recipient === recipient && m.link);
  if (!row?.link) throw new Error(`no reset link for ${recipient}`);
  return row.link;
}

/** Signs a staff user in through the login page and waits for Inicio. */
export async function staffLogin(page: Page, baseUrl: string, user: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('DNI o correo electrónico').fill(user);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/**
 * Signs a customer in on the customer portal's "Ingresar" tab (default: the demo customer, README
 * "Demo accounts") and waits for Inicio.
 */
export async function customerLogin(page: Page, baseUrl: string, document = '45454545', password = 'Cliente#2026'): Promise<void> {
  await page.goto('/auth/loginclientes');
  await page.getByRole('tab', { name: 'Ingresar' }).click();
  await page.getByLabel('Número de documento').fill(document);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/**
 * Resolves once `page`'s realtime socket has a subscription confirmed (its private channel): call it
 * before the page signs in, await it before the change whose push the test expects (the app
 * connects a few seconds after the top bar appears, docs/product.md §4).
 */
export function realtimeSubscribed(page: Page): Promise<void> {
  return new Promise<void>((resolve) => {
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes('pusher_internal:subscription_succeeded')) resolve();
      }),
    );
  });
}

/** The server and browser an e2e file shares; filled by {@link e2eEnvironment}'s beforeAll. */
export interface E2eEnvironment {
  server: RunningServer;
  browser: Browser;
}

/**
 * Registers the file's lifecycle: one real server (temp database, demo seed) and one Chromium,
 * started before its tests and stopped after them. @returns the environment, usable inside tests.
 */
export function e2eEnvironment(): E2eEnvironment {
  const env = {} as E2eEnvironment;
  beforeAll(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** The side menu's navigation landmark (issue "Shell"). */
export const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Menú principal' });

/**
 * Opens a screen from the side menu as a user does: its section unfolded first when it is closed
 * (and its slide-in finished), then the link; resolves once the address is the link's
 * (docs/testing.md "E2E tests that pass on any machine").
 * @param section the group's label ("Administración"); @param link the entry's label ("Comisiones y Pagos").
 */
export async function openFromMenu(page: Page, section: string, link: string): Promise<void> {
  const menu = mainMenu(page);
  const group = menu.getByRole('button', { name: section, exact: true });
  if ((await group.getAttribute('aria-expanded')) !== 'true') {
    await group.click();
    // Blueprint's Collapse slides the entries in: a click while they move can land beside the link
    // (seen on a loaded machine: the page stayed where it was), so wait for the slide to end.
    await expect.poll(() => group.getAttribute('aria-expanded')).toBe('true');
    await animationsSettled(page);
  }
  const entry = menu.getByRole('link', { name: link, exact: true });
  const href = await entry.getAttribute('href');
  await entry.click();
  if (href) await page.waitForURL((url) => url.pathname.toLowerCase() === href.toLowerCase());
}

/**
 * Gives a lot hold its end date (docs/domain.md "Lot holds"): a month from today in Lima, typed
 * dd/mm/yyyy into the dialog's Spanish date field "Hasta (obligatorio)"; its calendar is closed.
 */
export async function fillHoldUntil(dialog: Locator): Promise<void> {
  const until = Temporal.Now.plainDateISO('America/Lima').add({ days: 30 });
  const field = dialog.getByLabel('Hasta (obligatorio)');
  await field.fill(`${String(until.day).padStart(2, '0')}/${String(until.month).padStart(2, '0')}/${until.year}`);
  // A click on the dialog's title closes the calendar as a user would (Tab would move into it).
  await dialog.getByRole('heading').first().click();
  await dialog.page().locator('.bp6-datepicker').waitFor({ state: 'detached' });
}

/** A JSON call of the app's API with the page's session. */
export function api<T>(page: Page, url: string, init?: { method: string; body: unknown }) {
  return page.evaluate(
    async ({ u, i }) => {
      const res = await fetch(u, {
        method: i?.method ?? 'GET',
        headers: {
          Authorization: `Bearer ${localStorage.getItem('token')}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: i ? JSON.stringify(i.body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as T };
    },
    { u: url, i: init },
  );
}
