/**
 * E2E of Inicio (docs/dashboard.md), in real Chromium against the built app and the real server
 * (temp database, demo seed). The manager's Inicio: "31–60 días" opens Registro de Cuotas filtered
 * by that bucket with as many instalments as the card says; a payment approved in another browser
 * moves "Cobrado hoy" without a reload (the DashboardChanged push). The customer's Inicio: the next
 * instalment and what is past due are Mis Compras' own figures, "Pagar" opens that purchase's
 * Detalle de Compra and "Ver en el plano" the map on the lot. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { customerLogin, e2eEnvironment, newPage, screenshot, api, animationsSettled, realtimeSubscribed, staffLogin } from './harness';

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

/** Today in Lima as yyyy-mm-dd (the date a payment is registered with). */
const limaToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima' }).format(new Date());

describe('Inicio e2e', () => {
  it('the manager opens Registro de Cuotas from "31–60 días", and a payment approved in another browser moves "Cobrado hoy" without a reload', async () => {
    const manager = await newPage(env.browser, env.server.baseUrl);
    const subscribed = realtimeSubscribed(manager.page);
    await staffLogin(manager.page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const page = manager.page;

    // The overdue card: the 31–60 bucket's count, then its link.
    const overdue = page.getByRole('region', { name: 'Cartera por días de atraso' });
    const bucket = overdue.getByRole('row').filter({ has: page.getByRole('link', { name: '31–60 días' }) });
    await bucket.waitFor();
    const count = Number((await bucket.getByRole('cell').first().textContent())?.trim());
    expect(count).toBeGreaterThan(0);
    await animationsSettled(page);
    await screenshot(page, 'inicio-gerente');
    await bucket.getByRole('link', { name: '31–60 días' }).click();
    await page.waitForURL(`${env.server.baseUrl}/FINANZAS/RegistroCuotas?days_late=31_60`);
    await page.getByRole('heading', { name: 'Registro de Cuotas' }).waitFor();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Paginación' }).textContent())
      .toContain(`${count} ${count === 1 ? 'registro' : 'registros'}`);

    // Back on Inicio: "Cobrado hoy" before the payment.
    await page.goBack();
    await page.waitForURL(`${env.server.baseUrl}/`);
    const today = page
      .getByRole('region', { name: 'Cobranza del mes' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Cobrado hoy' }) });
    await today.waitFor();
    const before = (await today.textContent()) ?? '';
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await subscribed;

    // Another browser: a cashier's payment of S/ 123.45 registered and approved for a sale in instalments.
    const other = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(other.page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const sales = await api<{ data: { id: number; currency: string }[] }>(other.page, '/api/sales?status=EN_CUOTAS&per_page=20');
    const sale = sales.body.data.find((s) => s.currency === 'PEN')!;
    const created = await api<{ data: { id: number; version: number } }>(other.page, '/api/payments', {
      method: 'POST',
      body: { sale_id: sale.id, amount: 12_345, method: 'EFECTIVO', operation_date: limaToday() },
    });
    expect(created.status).toBe(201);
    const approved = await api(other.page, `/api/payments/${created.body.data.id}/approve`, {
      method: 'POST',
      body: { version: created.body.data.version, override_reason: 'Caja única de la oficina de ventas' },
    });
    expect(approved.status).toBe(200);

    // The manager's card moves by itself (no reload: the same document keeps its marker).
    await expect.poll(() => today.textContent(), { timeout: 30_000 }).not.toBe(before);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await other.context.close();
    await manager.context.close();
  });

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
