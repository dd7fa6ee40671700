/**
 * E2E of the customer journey's accessibility details (docs/decisions.md "Customer journey details
 * (accessibility)"), in real Chromium at 390 px against the built app and the real server (demo
 * seed): Detalle de Compra's tables scroll in keyboard-reachable regions (axe rule
 * `scrollable-region-focusable`) and its payments show "Recibo" without sideways scrolling; the
 * transfer dialog lists only accounts in the purchase's currency (the demo company also has a dollar
 * account); "Ver en el plano" opens the map on the customer's own lot, highlighted with its panel
 * open; a bad reset link is said on arrival. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { customerLogin, e2eEnvironment, newPage, screenshot } from './harness';

const env = e2eEnvironment();
const AXE = path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

/** The nodes (their HTML's start) axe-core's `rule` flags on the page (axe injected once per page). */
async function axeViolations(page: Page, rule: string): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy refuses an injected <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async (id) => {
    const axe = (
      window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: { nodes: { html: string }[] }[] }> } }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: [id] } });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.html.slice(0, 120)));
  }, rule);
}

describe('customer journey accessibility e2e (390 px)', () => {
  it('Detalle de Compra: focusable scroll regions, Recibo in view, transfer accounts in soles only, "Ver en el plano" on the own lot', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await customerLogin(page, env.server.baseUrl);
    await page.goto('/COMERCIO/MisCompras');
    const card = page.getByRole('list', { name: 'Compras' }).getByRole('listitem').first();
    await card.getByRole('button', { name: /^Ver detalle/ }).click();
    await page.waitForURL(/\/COMERCIO\/DetalleCompra\?venta=\d+$/);
    const schedule = page.getByRole('region', { name: 'Tabla: Cronograma' });
    await schedule.getByRole('row').nth(1).waitFor();
    const payments = page.getByRole('region', { name: 'Tabla: Pagos' });
    await payments.getByRole('row').nth(1).waitFor();

    // The schedule is wider than the phone: it scrolls in its box, which the keyboard reaches and scrolls.
    expect(await schedule.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await axeViolations(page, 'scrollable-region-focusable')).toEqual([]);
    // Tab reaches the schedule's box right after the last action above it: the demo customer's
    // signed contract, "Descargar contrato", follows "Ver en el plano".
    await page.getByRole('button', { name: 'Ver en el plano' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.getByRole('button', { name: 'Descargar contrato' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await schedule.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => schedule.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // "Recibo" and the receipt buttons are inside the phone's width without scrolling the payments.
    const viewportRight = 390;
    const recibo = payments.getByRole('columnheader', { name: 'Recibo' });
    const box = (await recibo.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewportRight);
    expect(await payments.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const receipt = payments.getByRole('button', { name: /^Descargar recibo/ }).first();
    if (await receipt.count()) {
      const r = (await receipt.boundingBox())!;
      expect(r.x + r.width).toBeLessThanOrEqual(viewportRight);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'purchases-detalle-390');

    // Transfer: the purchase is in soles and the company's dollar account is not offered.
    await page.getByRole('button', { name: 'Pagar por transferencia' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pagar por transferencia o depósito' });
    await dialog.getByText(/su compra es en soles/).waitFor();
    const accounts = dialog.getByRole('list', { name: 'Cuentas bancarias' }).getByRole('listitem');
    expect(await accounts.count()).toBeGreaterThan(0);
    expect(await accounts.allTextContents()).toEqual((await accounts.allTextContents()).filter((t) => t.includes('en soles')));
    expect(await dialog.getByText(/en dólares/).count()).toBe(0);
    await screenshot(page, 'purchases-transferencia-390');
    await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
    await dialog.waitFor({ state: 'hidden' });

    // "Ver en el plano": the map opens on the customer's own lot, drawn highlighted, its panel open.
    const lotCode = (await page.getByRole('heading', { level: 1 }).textContent())!.replace(/^Lote /, '');
    await page.getByRole('button', { name: 'Ver en el plano' }).click();
    await page.waitForURL(/\/COMERCIO\/MapSalesCustomer\/[^/]+\/[^/?]+\?lote=/);
    const panel = page.getByRole('region', { name: `Lote ${lotCode}` });
    await panel.getByRole('heading', { name: lotCode }).waitFor();
    await page.locator('.lot-map__selected').waitFor();
    await screenshot(page, 'purchases-plano-390');
    await context.close();
  });

  it('a bad reset link is said on arrival, with a link to request a new one', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await page.goto(`/auth/reset_password/${'0'.repeat(64)}/customer`);
    await page.getByText('El enlace de recuperación no es válido o ha expirado').waitFor();
    expect(await page.getByLabel('Nueva contraseña').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Solicitar un nuevo enlace' }).getAttribute('href')).toBe('/auth/recuperar/customer');
    await screenshot(page, 'reset-enlace-invalido-390');
    await context.close();
  });
});
