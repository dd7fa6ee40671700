/**
 * E2E of Inicio (docs/dashboard.md), in real Chromium against the built app and the real server
 * (temp database, demo seed). The customer's Inicio: the next instalment and what is past due are
 * Mis Compras' own figures, "Pagar" opens that purchase's Detalle de Compra and "Ver en el plano"
 * the map on the lot. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { customerLogin, e2eEnvironment, newPage, screenshot, api, animationsSettled } from './harness';

const env = e2eEnvironment();

interface PurchaseRow {
  id: number;
  lot_code: string;
  currency: 'PEN' | 'USD';
  overdue_amount: number;
  next_instalment: { due_date: string; amount_due: number } | null;
}

/** "S/ 3,351.15" of céntimos in soles (the app's formatter, docs/decisions.md "Money"). */
const soles = (cents: number) => `S/ ${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('Inicio e2e', () => {
  it("the customer's Inicio: the next instalment with Pagar and what is past due, as Mis Compras says; Pagar and Ver en el plano lead to the purchase", async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await customerLogin(page, env.server.baseUrl);
    const list = await api<{ data: PurchaseRow[] }>(page, '/api/customer/purchases?page=1&per_page=20');
    expect(list.status).toBe(200);
    const purchase = list.body.data.find((p) => p.next_instalment !== null && p.currency === 'PEN')!;
    expect(purchase).toBeTruthy();

    const next = page.locator('.customer-home-card').filter({ has: page.getByRole('heading', { name: 'Próxima cuota' }) });
    await expect.poll(() => next.textContent()).toContain(soles(purchase.next_instalment!.amount_due));
    const overdue = page.locator('.customer-home-card').filter({ has: page.getByRole('heading', { name: 'Monto vencido' }) });
    const owed = list.body.data.filter((p) => p.currency === 'PEN').reduce((sum, p) => sum + p.overdue_amount, 0);
    if (owed > 0) expect(await overdue.textContent()).toContain(soles(owed));
    else expect(await overdue.textContent()).toContain('Está al día en sus pagos.');
    await animationsSettled(page);
    await screenshot(page, 'inicio-cliente-390');

    await next.getByRole('link', { name: 'Pagar' }).click();
    await page.waitForURL(`${env.server.baseUrl}/COMERCIO/DetalleCompra?venta=${purchase.id}`);
    await page.getByRole('button', { name: 'Pagar con Yape o Plin' }).waitFor();

    await page.goBack();
    await page.waitForURL(`${env.server.baseUrl}/`);
    await page.getByRole('link', { name: `Ver en el plano: ${purchase.lot_code}` }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/COMERCIO/MapSalesCustomer/') && url.searchParams.get('lote') === purchase.lot_code,
    );
    await context.close();
  });
});
