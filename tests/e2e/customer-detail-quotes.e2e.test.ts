/**
 * E2E in real Chromium against the built app and the real server (temp database, demo seed):
 * the demo customer's detail in Clientes (balances, their sale linked to Ventas, a quote made for
 * them), the Cotizaciones tab of Ventas (a real PDF, "Marcar como enviada", "Anular") and the heat
 * map's sales metrics (legend in dates and days). Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { animationsSettled, e2eEnvironment, newPage, screenshot, staffLogin } from './harness';

const env = e2eEnvironment();

describe('customer detail, quotes tab and heat map metrics e2e', () => {
  it("shows the customer's sale and quote with their balance, and works a quote from the Cotizaciones tab", async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl);
    const base = env.server.baseUrl;
    await staffLogin(page, base, '70000001', 'Parcela#2026');

    // A quote for the demo customer (45454545) on a free lot of Los Viñedos, made through the API.
    const quote = await page.evaluate(async () => {
      const token = localStorage.getItem('token');
      const h = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const get = async (url: string) => (await fetch(url, { headers: h })).json();
      const customer = (await get('/api/customers?q=45454545')).data[0];
      const subdivision = (await get('/api/subdivisions?per_page=50')).data.find((s: { name: string }) => /Viñedos/.test(s.name));
      const lot = (await get(`/api/subdivisions/${subdivision.key}/lots?status=DISPONIBLE&per_page=1`)).data[0];
      const res = await fetch('/api/quotes', {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ lot_id: lot.id, customer_id: customer.id, instalments: 0 }),
      });
      const body = await res.json();
      return {
        status: res.status,
        number: body.data.number as string,
        subdivision: { name: subdivision.name as string, key: subdivision.key as string },
      };
    });
    expect(quote.status).toBe(201);

    // Clientes → "Ver": the balance of the live sale, the sale and the quote.
    await page.goto(`${base}/CRM/clientes?q=45454545`);
    const row = page.getByRole('row').filter({ hasText: '45454545' });
    await row.getByRole('button', { name: 'Acciones' }).click();
    await page.getByRole('menuitem', { name: 'Ver' }).click();
    const drawer = page.getByRole('dialog', { name: 'Carlos Mendoza' });
    const sales = drawer.getByRole('table', { name: 'Ventas' });
    await sales.waitFor();
    await drawer.getByRole('table', { name: 'Cotizaciones' }).getByText(quote.number).waitFor();
    expect(
      await drawer
        .getByRole('region', { name: 'Saldos' })
        .getByText(/^S\/ [\d,]+\.\d{2}$/)
        .count(),
    ).toBe(1);
    await animationsSettled(page);
    await screenshot(page, 'customer-detail');
    const saleLink = sales.getByRole('link').first();
    const saleNumber = (await saleLink.textContent()) ?? '';
    await saleLink.click();
    await page.waitForURL((u) => u.pathname === '/COMERCIO/ventas' && u.searchParams.get('q') === saleNumber);
    await page.getByRole('table', { name: 'Ventas' }).getByText(saleNumber).waitFor();

    // Cotizaciones: the PDF, then sent, then annulled.
    await page.getByRole('tab', { name: 'Cotizaciones' }).click();
    const quoteRow = page.getByRole('table', { name: 'Cotizaciones' }).getByRole('row').filter({ hasText: quote.number });
    await quoteRow.getByText('Borrador').waitFor();
    await quoteRow.getByRole('button', { name: 'Acciones' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Descargar PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`${quote.number}.pdf`);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    await quoteRow.getByRole('button', { name: 'Acciones' }).click();
    await page.getByRole('menuitem', { name: 'Marcar como enviada' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Marcar como enviada' }).click();
    await quoteRow.getByText('Enviada').waitFor();
    await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
    await quoteRow.getByRole('button', { name: 'Acciones' }).click();
    await page.getByRole('menuitem', { name: 'Anular' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Anular cotización' }).click();
    await quoteRow.getByText('Anulada').waitFor();
    await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
    await animationsSettled(page);
    await screenshot(page, 'quotes-tab');

    // Heat map: sale dates and days late of the sold lots.
    await page.goto(`${base}/COMERCIO/MapSales/Heat/${encodeURIComponent(quote.subdivision.name)}/${quote.subdivision.key}`);
    const metric = page.getByLabel('Métrica');
    await metric.selectOption('SALE_DATE');
    const legend = page.getByLabel('Leyenda');
    await legend.getByText('Fecha de venta').waitFor();
    await expect.poll(() => page.getByTestId('heat-max').textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await metric.selectOption('DAYS_LATE');
    await legend.getByText('Días de atraso').waitFor();
    await expect.poll(() => page.getByTestId('heat-max').textContent()).toMatch(/^\d+ días?$/);
    await legend.getByText('Sin venta').waitFor();
    await screenshot(page, 'heat-map-days-late');
  });
});
