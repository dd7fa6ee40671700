/**
 * The JS budgets of README "Performance", checked on the production build as the real server
 * serves it (docs/performance.md "What loads up front" defines both sets):
 * - /auth/login: the JS the browser fetches before the login form is usable — the scripts and
 *   module preloads of the HTML the server answers, with their static imports — ≤ 120 KB gzip (the
 *   README's budget is 130; 120 is the goal reached, guarded so it is not lost again);
 * - after a staff login: that, plus the code the login's submit and Inicio drawn inside the shell
 *   need (the modules below, with their static imports) — ≤ 200 KB gzip.
 * Sizes are each file's gzip -9, summed (README's measure); the Brotli bytes the server sends and
 * the CSS are printed beside them. Nothing here depends on timing: the sets come from the HTML and
 * the build manifest.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenModuleFiles } from '../../src/config/screens';
import { HOME_FIRST_MODULES, SHELL_MODULES } from '../../server/preload-hints';
import { startServer, type RunningServer } from './harness';
import { filesInHtml, readManifest, report, sizesOf, totalKb, union, withStaticImports, type Files } from './bundle-budget';

/** README "Performance": gzip KB of JS up front. */
const LOGIN_BUDGET_KB = 120;
const AFTER_LOGIN_BUDGET_KB = 200;

/**
 * What a staff login loads beyond the login page until Inicio is drawn inside the shell
 * (docs/performance.md "What loads up front"): the submit's validation (src/machines/auth/
 * login-form.machine.ts), the shell as the server announces it for an authenticated screen (its
 * view and machines, the icon table, the session and notification calls, ofetch), Inicio's view
 * and machines from the screen table, what the session's first calls bring (the menu catalogue),
 * and the chunk of the shell's icons (vite.config.ts `shell-icons`).
 */
const AFTER_LOGIN_MODULES = [
  'src/machines/auth/login-validation.ts',
  ...SHELL_MODULES,
  ...screenModuleFiles('home'),
  ...HOME_FIRST_MODULES,
  'shell-icons',
];

const distDir = path.resolve(import.meta.dirname, '../..', process.env.DIST_DIR || 'dist');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The files the server's HTML of `route` loads up front, with their static imports. */
async function upFront(route: string): Promise<Files> {
  const res = await fetch(`${server.baseUrl}${route}`, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  return withStaticImports(readManifest(distDir), filesInHtml(await res.text()));
}

/** Prints the JS and CSS tables of `files`; @returns the JS total in gzip KB. */
async function measure(title: string, files: Files): Promise<number> {
  const js = await sizesOf(distDir, server.baseUrl, files.js);
  const css = await sizesOf(distDir, server.baseUrl, files.css);
  console.log(`${report(`${title}: JS`, js)}\n${report(`${title}: CSS`, css)}`);
  return totalKb(js, 'gzip');
}

describe('JS budgets (README "Performance")', () => {
  it(`/auth/login loads at most ${LOGIN_BUDGET_KB} KB gzip of JS up front`, async () => {
    const files = await upFront('/auth/login');
    expect(files.js.length).toBeGreaterThan(0);
    const kb = await measure('/auth/login up front', files);
    expect(kb, `/auth/login loads ${kb.toFixed(1)} KB gzip of JS up front`).toBeLessThanOrEqual(LOGIN_BUDGET_KB);
  });

  it(`after a staff login, Inicio inside the shell needs at most ${AFTER_LOGIN_BUDGET_KB} KB gzip of JS`, async () => {
    const login = await upFront('/auth/login');
    const files = union(login, withStaticImports(readManifest(distDir), { js: [], css: [] }, AFTER_LOGIN_MODULES));
    const kb = await measure('after a staff login', files);
    expect(kb, `after a staff login: ${kb.toFixed(1)} KB gzip of JS`).toBeLessThanOrEqual(AFTER_LOGIN_BUDGET_KB);
  });
});
