/**
 * E2E of the accessibility sweep (docs/testing.md "Accessibility sweep"; WCAG 2.2 AA): axe-core
 * (node_modules/axe-core, injected with `page.evaluate` since the app's CSP forbids script tags) runs
 * with the WCAG 2.0/2.1 A and AA and 2.2 AA rules on every screen of the route table
 * (docs/product.md §2):
 * - staff: every entry of the demo administrator's side menu (built from the session as the menu
 *   builds it, tests/e2e/screens.ts), and the screens reached from a record (a subdivision's lots
 *   and maps, a sale's contract);
 * - customer: every entry of the demo customer's menu, a purchase's detail, the customer's map;
 * - public: the landing, both logins (and the registration tab), password recovery and reset, the
 *   public map (a published subdivision and an unknown one), the status pages.
 * Each screen is scanned in the light and the dark theme, and once more with one dialog, drawer or
 * panel open ("Nuevo …" editors, a record's drawer, the notifications panel, the theme
 * configurator, the profile sidebar, "Pagar con Yape o Plin"): that second scan covers the overlay
 * alone (the page under a backdrop cannot be judged for contrast). The public pages have no dark
 * theme of their own (the theme belongs to a session): "dark" is there the visitor's system
 * preference (`prefers-color-scheme: dark`). Every critical or serious violation is collected and
 * reported together (where, theme, rule, target, a short HTML snippet; a summary by rule first);
 * the full list goes to test-results/e2e/accessibility-violations.json. The same walk checks that no
 * public or customer page is wider than a 390 px window (the staff screens at 390 px are
 * tests/e2e/page-width.e2e.test.ts's). One browser, one login per role.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsSettled, customerLogin, e2eEnvironment, newPage, SCREENSHOTS, staffLogin } from './harness';
import { contentShown, menuRoutes, publicContentShown, setDark, widths } from './screens';

const env = e2eEnvironment();

const AXE_SOURCE = readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');
/** WCAG 2.2 AA: the A and AA rules of 2.0 and 2.1, and 2.2's AA additions. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };

/** One axe violation on one scan. */
interface Violation {
  where: string;
  theme: 'light' | 'dark';
  overlay: string | null;
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; html: string }[];
}

/** What a walk collects: axe violations (critical and serious) and pages wider than the window. */
interface Findings {
  violations: Violation[];
  tooWide: string[];
  /** Every scan: where, theme and overlay. */
  scanned: string[];
}

/**
 * Runs axe on the page (injected once per document) and returns its critical and serious
 * violations. `overlay`: only the open overlays (dialogs, drawers, popovers: their portals).
 */
async function axeScan(page: Page, overlay: boolean): Promise<Omit<Violation, 'where' | 'theme' | 'overlay'>[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, overlay }) => {
      type AxeNode = { target: unknown[]; html: string };
      type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: AxeNode[] }[] };
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe;
      // An overlay's root: its portal, or the popover itself when it is drawn in place.
      const roots = [...document.querySelectorAll('.bp6-portal, .bp6-popover')].filter(
        (el) =>
          !el.parentElement?.closest('.bp6-portal, .bp6-popover') &&
          el.querySelector('.bp6-overlay-open, .bp6-popover-content, [role="dialog"]'),
      );
      if (overlay && roots.length === 0) throw new Error('no overlay open');
      const context = overlay ? { include: roots } : document;
      const result = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false });
      return result.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => ({
          rule: v.id,
          impact: v.impact ?? '',
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), html: n.html.replace(/\s+/g, ' ').slice(0, 160) })),
        }));
    },
    { tags: AXE_TAGS, overlay },
  );
}

/**
 * {@link axeScan} of a screen that has settled: a screen may still enable a control when its last
 * answer arrives (Detalle de Compra's pay buttons wait for the payment options), and axe measuring
 * a button in its colour transition reports a contrast the user never reads. So a scan that finds
 * something is repeated once the network is idle and animations have stopped; what is real is
 * found again and kept, what was a transition is not.
 */
async function settledScan(page: Page, overlay: boolean): Promise<Awaited<ReturnType<typeof axeScan>>> {
  const first = await axeScan(page, overlay);
  if (first.length === 0) return first;
  await page.waitForLoadState('networkidle');
  await animationsSettled(page);
  return axeScan(page, overlay);
}

/** Waits until an overlay is open and has stopped moving (a dialog, a drawer, a panel). */
async function overlayShown(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [
      ...document.querySelectorAll(
        '.bp6-portal [role="dialog"], .bp6-portal .bp6-dialog, .bp6-portal .bp6-drawer, .bp6-portal .bp6-popover',
      ),
    ].some((el) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed'),
  );
  await page.waitForFunction(() => !document.querySelector('.bp6-portal .bp6-spinner, .bp6-portal [aria-busy="true"]'));
  await animationsSettled(page);
}

/** Scans the page, then (when `open` opens something) the overlay; records what axe finds. */
async function sweep(
  page: Page,
  findings: Findings,
  where: string,
  theme: 'light' | 'dark',
  open?: (page: Page) => Promise<string | null>,
): Promise<void> {
  await animationsSettled(page);
  const record = (overlay: string | null) => (found: Awaited<ReturnType<typeof axeScan>>) => {
    findings.scanned.push(`${where} [${theme}${overlay ? ` + ${overlay}` : ''}]`);
    for (const v of found) findings.violations.push({ where, theme, overlay, ...v });
  };
  record(null)(await settledScan(page, false));
  const overlay = open ? await open(page) : null;
  if (overlay) {
    await overlayShown(page);
    record(overlay)(await settledScan(page, true));
  }
}

/** Clicks a button of the screen by its name and names the overlay after it. */
const clickButton =
  (name: RegExp | string, scope = 'main') =>
  async (page: Page): Promise<string | null> => {
    const button = page.locator(scope).getByRole('button', { name }).first();
    if (!(await button.count()) || !(await button.isVisible()) || !(await button.isEnabled())) return null;
    const label = (await button.getAttribute('aria-label')) ?? (await button.textContent()) ?? String(name);
    await button.click();
    return `"${label.trim()}"`;
  };

/** The shell's overlays, each opened on one screen: notifications, theme configurator, profile sidebar. */
const SHELL_OVERLAYS = [
  clickButton('Notificaciones', '.layout-topbar'),
  clickButton('Configuración del tema', '.layout-topbar'),
  clickButton(/^Opciones de usuario/, '.layout-topbar'),
];

/** Opens a row's action (the "Acciones" menu of the first row, or of the first row showing `rowText`). */
const rowAction =
  (item: string, rowText?: string) =>
  async (page: Page): Promise<string | null> => {
    const rows = page.locator('main .resource-table tbody tr');
    const row = rowText ? rows.filter({ hasText: rowText }).first() : rows.first();
    if (!(await row.count())) return null;
    await row.getByRole('button', { name: 'Acciones' }).click();
    await page.getByRole('menuitem', { name: item }).click();
    return `"${item}" of a row`;
  };

/** On a map: finds lot `code` with "Buscar lote", then presses `button` in its panel. */
const lotAction =
  (code: string, button: string) =>
  async (page: Page): Promise<string | null> => {
    const search = page.getByLabel('Buscar lote');
    if (!(await search.count())) return null;
    await search.fill(code);
    await search.press('Enter');
    const panel = page.getByRole('region', { name: `Lote ${code}` });
    await panel.waitFor();
    const action = panel.getByRole('button', { name: button, exact: true });
    if (!(await action.count())) return null;
    await action.click();
    return `"${button}" (lote ${code})`;
  };

/**
 * The overlay opened on a staff screen: the one `specific` names for it (lowercased route), else its
 * "Nuevo …" editor when it has one, else one of the shell's overlays in turn.
 */
function staffOverlay(
  to: string,
  index: number,
  specific: Record<string, (page: Page) => Promise<string | null>>,
): (page: Page) => Promise<string | null> {
  const opener = specific[to.toLowerCase()] ?? clickButton(/^(Nuev[oa]|Agregar|Registrar)\b/);
  return async (page) => (await opener(page)) ?? SHELL_OVERLAYS[index % SHELL_OVERLAYS.length]!(page);
}

/** Formats the findings: a summary by rule, then every violation with its nodes. */
function report(findings: Findings): string {
  const byRule = new Map<string, { impact: string; help: string; nodes: number; screens: Set<string> }>();
  for (const v of findings.violations) {
    const entry = byRule.get(v.rule) ?? { impact: v.impact, help: v.help, nodes: 0, screens: new Set<string>() };
    entry.nodes += v.nodes.length;
    entry.screens.add(v.where);
    byRule.set(v.rule, entry);
  }
  const lines = [`${findings.violations.length} violations (critical/serious) in ${findings.scanned.length} scans; by rule:`];
  for (const [rule, e] of [...byRule].sort((a, b) => b[1].nodes - a[1].nodes))
    lines.push(`  ${rule} (${e.impact}, ${e.help}): ${e.nodes} nodes on ${e.screens.size} screens`);
  for (const v of findings.violations) {
    lines.push(`${v.where} [${v.theme}${v.overlay ? ` + ${v.overlay}` : ''}] ${v.rule} (${v.impact})`);
    for (const n of v.nodes) lines.push(`    ${n.target} — ${n.html}`);
  }
  if (findings.tooWide.length) lines.push('Wider than the window:', ...findings.tooWide.map((w) => `  ${w}`));
  return lines.join('\n');
}

/**
 * Opens `to` in a 390 px window (as a phone opens it), waits for its content and checks the document
 * is no wider than the window; leaves the window at the desktop size, on a page still to be reloaded.
 */
async function phoneWidth(page: Page, findings: Findings, where: string, to: string, label: string, shown: (page: Page) => Promise<void>) {
  await page.setViewportSize(PHONE);
  await page.goto(to);
  await shown(page);
  const { scrollWidth, innerWidth } = await widths(page);
  if (scrollWidth > innerWidth) findings.tooWide.push(`${where} at 390 px, ${label}: scrollWidth ${scrollWidth} > ${innerWidth}`);
  await page.setViewportSize(DESKTOP);
}

/** Writes the findings where a reader can open them whole. */
function save(name: string, findings: Findings): void {
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(path.join(SCREENSHOTS, `${name}.json`), JSON.stringify(findings, null, 2));
}

/** GET with the page's stored token. */
async function api<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const res = await fetch(u, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' } });
    return (await res.json()) as T;
  }, url);
}

describe('accessibility sweep e2e', () => {
  it(
    'staff screens: no critical or serious axe violation (WCAG 2.2 AA), light and dark, with an overlay open',
    { timeout: 1_200_000 },
    async () => {
      const { context, page } = await newPage(env.browser, env.server.baseUrl, DESKTOP.width, DESKTOP.height);
      await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
      const routes = (await menuRoutes(page)).map(({ label, to }) => ({ where: `${to} (${label})`, to }));
      expect(routes.length).toBeGreaterThan(15);
      // Screens reached from a record: a subdivision's lots and maps, a sale's contract.
      const subdivisions = await api<{ data: { key: string; name: string; published?: boolean }[] }>(
        page,
        '/api/subdivisions?per_page=100&sort=name',
      );
      const subdivision = subdivisions.data[0]!;
      const map = await api<{ data: { lots: { code: string; status: string; polygon: unknown[] | null }[] } }>(
        page,
        `/api/subdivisions/${subdivision.key}/map`,
      );
      const lot = map.data.lots.find((l) => l.status === 'DISPONIBLE' && l.polygon)!;
      const sales = await api<{ data: { id: number }[] }>(page, '/api/sales?per_page=1');
      const mapRoutes = {
        project: `/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`,
        sales: `/COMERCIO/MapSales/mapa/${subdivision.key}`,
        heat: `/COMERCIO/MapSales/Heat/mapa/${subdivision.key}`,
      };
      const lotsRoute = `/PROYECTOS/Lotes/lotes/${subdivision.key}`;
      for (const to of [
        lotsRoute,
        ...Object.values(mapRoutes),
        '/COMERCIO/MapaVentas/Pagos',
        ...(sales.data[0] ? [`/COMERCIO/Contrato/${sales.data[0].id}`] : []),
      ])
        routes.push({ where: to, to });
      // Screens whose overlay is not a "Nuevo …" editor: a record's drawer or dialog.
      const specific: Record<string, (page: Page) => Promise<string | null>> = {
        '/comercio/ventas': rowAction('Ver'),
        '/finanzas/registrocuotas': rowAction('Condonar mora', 'Vencida'),
        '/historialdecambios': rowAction('Ver cambios'),
        // Lotizaciones' "Nueva lotización" already shows the editors' numeric fields.
        [lotsRoute.toLowerCase()]: rowAction('Historial de estados'),
        [mapRoutes.project.toLowerCase()]: lotAction(lot.code, 'Cambiar estado'),
        [mapRoutes.sales.toLowerCase()]: lotAction(lot.code, 'Cotizar'),
        [mapRoutes.heat.toLowerCase()]: lotAction(lot.code, 'Separar'),
      };

      const findings: Findings = { violations: [], tooWide: [], scanned: [] };
      for (const dark of [false, true]) {
        await page.goto('/');
        await contentShown(page);
        await setDark(page, dark);
        for (const [index, { where, to }] of routes.entries()) {
          await page.goto(to);
          await contentShown(page);
          await sweep(page, findings, where, dark ? 'dark' : 'light', staffOverlay(to, index, specific));
        }
      }
      // The change-password dialog, opened from the profile sidebar.
      await page.goto('/');
      await contentShown(page);
      await page
        .locator('.layout-topbar')
        .getByRole('button', { name: /^Opciones de usuario/ })
        .click();
      await sweep(page, findings, '/ (Cambiar contraseña)', 'dark', clickButton('Cambiar contraseña', '.bp6-portal'));
      await context.close();
      save('accessibility-staff', findings);
      expect(findings.violations.length, report(findings)).toBe(0);
    },
  );

  it(
    'customer screens: no critical or serious axe violation, light and dark, with an overlay open; none wider than 390 px',
    { timeout: 900_000 },
    async () => {
      const { context, page } = await newPage(env.browser, env.server.baseUrl, DESKTOP.width, DESKTOP.height);
      await customerLogin(page, env.server.baseUrl);
      const routes = await menuRoutes(page);
      const findings: Findings = { violations: [], tooWide: [], scanned: [] };
      // A purchase's detail, reached from Mis Compras.
      await page.goto('/COMERCIO/MisCompras');
      await contentShown(page);
      await page
        .getByRole('list', { name: 'Compras' })
        .getByRole('button', { name: /^Ver detalle/ })
        .first()
        .click();
      await page.waitForURL(/\/COMERCIO\/DetalleCompra\?venta=\d+$/);
      const detail = new URL(page.url()).pathname + new URL(page.url()).search;
      // A subdivision's map, reached from Ventas.
      await page.goto('/COMERCIO/ventasClientes');
      await contentShown(page);
      await page
        .locator('main')
        .getByRole('button', { name: /^Ver mapa de / })
        .first()
        .click();
      await page.waitForURL(/\/COMERCIO\/MapSalesCustomer\//);
      const map = new URL(page.url()).pathname;
      const screens = [
        ...routes.map(({ label, to }, index) => ({
          where: `${to} (${label})`,
          to,
          open: SHELL_OVERLAYS[index % SHELL_OVERLAYS.length]!,
        })),
        { where: `${detail} (Detalle de Compra)`, to: detail, open: clickButton('Pagar con Yape o Plin') },
        { where: `${map} (Mapa de Ventas)`, to: map, open: SHELL_OVERLAYS[0]! },
      ];
      for (const dark of [false, true]) {
        await page.goto('/');
        await contentShown(page);
        await setDark(page, dark);
        for (const { where, to, open } of screens) {
          await phoneWidth(page, findings, where, to, dark ? 'dark' : 'light', contentShown);
          await page.goto(to);
          await contentShown(page);
          await sweep(page, findings, where, dark ? 'dark' : 'light', open);
        }
      }
      await context.close();
      save('accessibility-customer', findings);
      expect(findings.violations.length + findings.tooWide.length, report(findings)).toBe(0);
    },
  );

  it(
    'public pages: no critical or serious axe violation, light and dark system preference; none wider than 390 px',
    { timeout: 600_000 },
    async () => {
      const { context, page } = await newPage(env.browser, env.server.baseUrl, DESKTOP.width, DESKTOP.height);
      const login = await fetch(`${env.server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ user: '70000001', password: 'Parcela#2026', user_type: 'COLLABORATOR' }),
      });
      const { token } = ((await login.json()) as { data: { token: string } }).data;
      const list = await fetch(`${env.server.baseUrl}/api/subdivisions?per_page=100&sort=name`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const subdivisions = ((await list.json()) as { data: { key: string; published: boolean }[] }).data;
      const published = subdivisions.find((s) => s.published) ?? subdivisions[0]!;
      const pages: { to: string; open?: (page: Page) => Promise<string | null>; ready?: (page: Page) => Promise<void> }[] = [
        { to: '/landing' },
        { to: '/auth/login' },
        { to: '/auth/loginclientes' },
        {
          to: '/auth/loginclientes#registro',
          ready: async (p) => {
            await p.getByRole('tab', { name: 'Registrarme' }).click();
            await p.getByLabel('Fecha de nacimiento').waitFor();
          },
          open: async (p) => {
            await p.getByLabel('Fecha de nacimiento').click();
            await p.locator('.bp6-datepicker').waitFor();
            return '"Fecha de nacimiento" calendar';
          },
        },
        { to: '/auth/recuperar/collaborator' },
        { to: '/auth/recuperar/customer' },
        { to: `/auth/reset_password/${'0'.repeat(64)}/customer` },
        {
          to: `/mapa/los-vinedos-de-carabayllo/${published.key}`,
          ready: (p) => p.locator('.lot-map__lots > path').first().waitFor(),
        },
        { to: '/mapa/x/NoExiste99' },
        { to: '/auth/access' },
        { to: '/auth/error' },
        { to: '/auth/pago' },
        { to: '/pages/notfound' },
      ];
      const findings: Findings = { violations: [], tooWide: [], scanned: [] };
      for (const dark of [false, true]) {
        await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
        for (const { to, open, ready } of pages) {
          const shown = async (p: Page) => {
            await publicContentShown(p);
            await ready?.(p);
          };
          await phoneWidth(page, findings, to, to, dark ? 'dark' : 'light', shown);
          await page.goto(to);
          await shown(page);
          await sweep(page, findings, to, dark ? 'dark' : 'light', open);
        }
      }
      await context.close();
      save('accessibility-public', findings);
      expect(findings.violations.length + findings.tooWide.length, report(findings)).toBe(0);
    },
  );
});
