/**
 * E2E of Mapa de Pagos (issue 16: "the payments map shows the lot in the right bucket") in real
 * Chromium against the built app and the real server (temp database, demo seed with its late payers):
 * opened by its address, the first subdivision is chosen and kept in the address; a late lot is drawn
 * in its bucket's colour, its panel names the sale, the bucket and the days late; the summary table
 * repeats the server's counts; choosing the other subdivision changes the address and the map.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eEnvironment, newPage, screenshot, staffLogin } from './harness';
import { PAYMENT_BUCKET_COLOR } from '../../src/machines/mapas/map-geometry';
import { PAYMENT_BUCKET_LABELS, type PaymentMap } from '../../src/schemas/comercio/payment-map';

const env = e2eEnvironment();

/** GET with the page's stored token. */
async function api<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const res = await fetch(u, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' } });
    return (await res.json()) as T;
  }, url);
}

describe('mapa de pagos e2e', () => {
  it('colours a late lot by its bucket, shows its sale and the summary, and keeps the subdivision in the address', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const options = (await api<{ data: { key: string; name: string }[] }>(page, '/api/subdivision-options')).data;
    expect(options.length).toBeGreaterThan(1);

    // The spec's menu catalogue has no entry for it (src/schemas/menu-catalogue.ts): opened by its address.
    await page.goto('/COMERCIO/MapaVentas/Pagos');
    await page.getByRole('heading', { name: 'Mapa de Pagos' }).waitFor();
    await page.locator('.lot-map__lots > path').first().waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('lotizacion')).toBe(options[0]!.key);

    const payments = (await api<{ data: PaymentMap }>(page, `/api/subdivisions/${options[0]!.key}/payment-map`)).data;
    const late = payments.lots.find((l) => l.bucket === 'MAS_90') ?? payments.lots.find((l) => l.days_late > 0);
    expect(late, 'the demo has late payers').toBeTruthy();
    const shape = page.locator(`.lot-map__lots > path[data-key="${late!.lot_id}"]`);
    expect(await shape.getAttribute('fill')).toBe(PAYMENT_BUCKET_COLOR[late!.bucket]);
    await shape.click();
    const sale = page.getByRole('region', { name: 'Pagos de la venta' });
    await sale.waitFor();
    expect(await sale.textContent()).toContain(late!.sale_number);
    expect(await sale.textContent()).toContain(PAYMENT_BUCKET_LABELS[late!.bucket]);
    expect(await sale.textContent()).toContain(`${late!.days_late} días`);
    expect(await sale.getByRole('link', { name: `Ver venta ${late!.sale_number}` }).getAttribute('href')).toBe(
      `/COMERCIO/Contrato/${late!.sale_id}`,
    );

    const table = page.getByRole('table', { name: 'Resumen por estado de pago' });
    for (const b of payments.summary)
      expect(await table.locator(`tr[data-bucket="${b.bucket}"] td`).first().textContent()).toBe(String(b.lots));
    await screenshot(page, 'mapa-pagos-1366');

    await page.getByLabel('Lotización').selectOption(options[1]!.key);
    await expect.poll(() => new URL(page.url()).searchParams.get('lotizacion')).toBe(options[1]!.key);
    await page.getByRole('img', { name: `Plano de ${options[1]!.name}` }).waitFor();
    await context.close();
  });
});
