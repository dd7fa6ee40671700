/**
 * E2E of the issue "CRM and sales" end to end, in real Chromium against the built app and the real
 * server (temp database, demo seed): a lead arrives for the agent → the agent gets the notification
 * in real time → converts it into a customer → quotes a lot from the map (the PDF downloads) →
 * reserves it (the lot turns Separado on the map) → sells it through the contract stepper in 24
 * FRANCES instalments → the lot is Vendido on the map and the sale is in /COMERCIO/ventas; then a
 * reservation left to expire (the server's clock moved, POST /dev/clock) frees its lot.
 * Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { customerLogin, e2eEnvironment, newPage, SCREENSHOTS, screenshot, setChecked, staffLogin, api } from './harness';

const env = e2eEnvironment();
/** The map's fills (src/views/proyectos/lot-status.ts). */
const FILL = { SEPARADO: '#e0a21b', VENDIDO: '#c23b3b' };
const DAY_MS = 86_400_000;

describe('sales flow e2e', () => {
  it('a signed-in customer browses the subdivisions on sale, simulates a lot and asks to reserve it: a lead for an agent', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await customerLogin(page, env.server.baseUrl);
    await page.goto('/COMERCIO/ventasClientes');
    await page.getByRole('heading', { name: 'Ventas', exact: true }).waitFor();
    const cards = page.getByRole('list', { name: 'Lotizaciones en venta' });
    await cards.getByText('Los Viñedos de Carabayllo').waitFor();
    await screenshot(page, 'sales-flow-customer-subdivisions');
    await cards.getByRole('button', { name: 'Ver mapa de Los Viñedos de Carabayllo' }).click();
    await page.waitForURL(/\/COMERCIO\/MapSalesCustomer\//);
    const key = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    const map = await page.evaluate(async (k) => {
      const res = await fetch(`/public/subdivisions/${encodeURIComponent(k)}/map`, { headers: { Accept: 'application/json' } });
      return (await res.json()) as { data: { lots: { code: string; status: string; polygon: unknown }[] } };
    }, key);
    const lot = map.data.lots.filter((l) => l.status === 'DISPONIBLE' && l.polygon)[12]!;
    await page.getByLabel('Buscar lote').fill(lot.code);
    await page.getByLabel('Buscar lote').press('Enter');
    const panel = page.getByRole('region', { name: `Lote ${lot.code}` });
    await panel.getByRole('button', { name: 'Solicitar separación' }).click();
    const dialog = page.getByRole('dialog', { name: `Solicitar separación del lote ${lot.code}` });
    await dialog.getByLabel('Cuotas mensuales').fill('36');
    await dialog.getByText(/^36 cuotas desde el /).waitFor();
    await dialog.getByLabel('Mensaje (opcional)').fill('Prefiero que me llamen por la tarde');
    await screenshot(page, 'sales-flow-customer-request');
    await dialog.getByRole('button', { name: 'Enviar solicitud' }).click();
    await dialog.getByText('Solicitud enviada: un asesor se comunicará con usted para separar el lote').waitFor();
    // The footer's "Cerrar" (the title bar's close button has the same name).
    await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
    // Asked again: the customer is told it is on its way.
    await panel.getByRole('button', { name: 'Solicitar separación' }).click();
    await dialog.getByRole('button', { name: 'Enviar solicitud' }).click();
    await dialog.getByText('Ya solicitó este lote: un asesor se comunicará con usted').waitFor();

    // Staff see the lead, the customer's, from the portal, with the lot and the plan in its notes.
    const admin = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(admin.page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const leads = await api<{ data: { notes: string | null; campaign: string | null; agent: { id: number } | null; customer: unknown }[] }>(
      admin.page,
      `/api/leads?q=${encodeURIComponent('Carlos')}&per_page=50`,
    );
    const lead = leads.body.data.find((l) => l.campaign === 'Portal de clientes' && (l.notes ?? '').includes(lot.code));
    expect(lead).toBeDefined();
    expect(lead!.notes).toContain('36 cuotas');
    expect(lead!.agent).not.toBeNull();
    await admin.context.close();
    await context.close();
  });

  it('a lead becomes a customer, gets a quote, reserves and buys a lot in 24 FRANCES instalments; an expired reservation frees its lot', async () => {
    // The agent is subscribed to their notifications channel before the lead arrives.
    const agent = await newPage(env.browser, env.server.baseUrl);
    const page = agent.page;
    const subscribed = new Promise<void>((resolve) => {
      page.on('websocket', (ws) =>
        ws.on('framereceived', ({ payload }) => {
          if (String(payload).includes('pusher_internal:subscription_succeeded')) resolve();
        }),
      );
    });
    await staffLogin(page, env.server.baseUrl, '70000002', 'Parcela#2026');
    await subscribed;
    const badge = page.getByTestId('notifications-badge');
    await expect.poll(() => badge.textContent()).toMatch(/^\d+$/);
    const unseenBefore = Number(await badge.textContent());

    // A lead from the website, assigned to the agent by the supervisor.
    const admin = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(admin.page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const staff = await api<{ data: { id: number; name: string }[] }>(admin.page, '/api/staff-options?per_page=100&q=Lucía');
    const agentId = staff.body.data.find((s) => s.name === 'Lucía')!.id;
    const lead = await api<{ data: { id: number } }>(admin.page, '/api/leads', {
      method: 'POST',
      body: { name: 'Martín Salas Vega', phone: '956700800', channel: 'WEB', agent_id: agentId },
    });
    expect(lead.status).toBe(201);

    // The bell rings; the notification opens the lead; the agent converts it into a customer.
    await expect.poll(async () => Number(await badge.textContent()), { timeout: 30_000 }).toBe(unseenBefore + 1);
    await page.getByRole('button', { name: 'Notificaciones' }).click();
    await page
      .getByRole('dialog', { name: 'Notificaciones' })
      .getByRole('button', { name: /Nuevo lead asignado/ })
      .first()
      .click();
    await page.waitForURL(/\/CRM\/LEADS\?lead=\d+$/);
    const panel = page.getByRole('dialog', { name: 'Martín Salas Vega' });
    await panel.getByRole('button', { name: 'Convertir en cliente' }).click();
    const convert = page.getByRole('dialog', { name: 'Convertir en cliente' });
    await convert.getByLabel('Número de documento').fill('47888999');
    await convert.getByRole('button', { name: 'Guardar' }).click();
    await convert.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await panel.textContent()) ?? '').not.toContain('Aún no es cliente');

    // A lot of Los Viñedos, from the map: quote it (PDF), then reserve it.
    const list = await api<{ data: { key: string; name: string }[] }>(page, '/api/subdivisions?per_page=100&sort=name');
    const subdivision = list.body.data.find((s) => s.name === 'Los Viñedos de Carabayllo')!;
    const map = await api<{ data: { lots: { id: number; code: string; status: string; polygon: unknown }[] } }>(
      page,
      `/api/subdivisions/${subdivision.key}/map`,
    );
    const [lot, spare] = map.body.data.lots.filter((l) => l.status === 'DISPONIBLE' && l.polygon).slice(7, 9);
    await page.goto(`/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`);
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    const findLot = async (code: string) => {
      await page.getByLabel('Buscar lote').fill(code);
      await page.getByLabel('Buscar lote').press('Enter');
      return page.getByRole('region', { name: `Lote ${code}` });
    };
    let lotPanel = await findLot(lot!.code);
    await lotPanel.getByRole('button', { name: 'Cotizar' }).click();
    const quote = page.getByRole('dialog', { name: `Cotizar lote ${lot!.code}` });
    await quote.getByLabel('Cliente', { exact: true }).click();
    await page.keyboard.type('47888999');
    await page.getByRole('option', { name: /Martín Salas Vega/ }).click();
    await quote.getByLabel('Método').selectOption({ label: 'Francés (cuota fija)' });
    await quote.getByLabel('Tasa mensual (%)').fill('1.5');
    await quote.getByRole('button', { name: 'Guardar cotización' }).click();
    await quote.getByText(/^Cotización COT-\d{6}$/).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), quote.getByRole('button', { name: 'Descargar PDF' }).click()]);
    const pdfPath = path.join(SCREENSHOTS, 'sales-flow-quote.pdf');
    await download.saveAs(pdfPath);
    expect(readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The footer's "Cerrar" (the title bar's close button has the same name).
    await quote.getByRole('button', { name: 'Cerrar' }).last().click();
    await quote.waitFor({ state: 'detached' });

    await lotPanel.getByRole('button', { name: 'Separar' }).click();
    const reserve = page.getByRole('dialog', { name: `Separar lote ${lot!.code}` });
    await reserve.getByLabel('Cliente', { exact: true }).click();
    await page.keyboard.type('47888999');
    await page.getByRole('option', { name: /Martín Salas Vega/ }).click();
    await reserve.getByLabel('Monto de la separación').fill('500.00');
    await setChecked(reserve.getByLabel('El cliente leyó y acepta las condiciones'));
    await reserve.getByRole('button', { name: 'Separar' }).click();
    await reserve.waitFor({ state: 'detached' });
    const shape = page.locator(`.lot-map__lots > path[data-key="${lot!.id}"]`);
    await expect.poll(() => shape.getAttribute('fill')).toBe(FILL.SEPARADO);
    const mapUrl = page.url();

    // Only approved money is credited (docs/domain.md "Sales"): the stepper says the reservation's payment awaits approval.
    await lotPanel.getByRole('button', { name: 'Vender' }).click();
    await page.waitForURL(new RegExp(`/COMERCIO/Contrato/nuevo\\?lote=${lot!.id}$`));
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText(/su pago de S\/ 500\.00 aún no está aprobado/).waitFor();

    // The customer pays the S/ 500.00 at the office: Finanzas (the administrator) registers it and approves it.
    const finance = admin.page;
    await finance.goto(`${env.server.baseUrl}/FINANZAS/Pagos`);
    await finance.getByRole('button', { name: 'Registrar pago' }).first().click();
    const register = finance.getByRole('dialog', { name: 'Registrar pago' });
    await register.getByText('Una separación').click();
    await register.getByRole('combobox', { name: 'Separación' }).click();
    await finance.getByRole('option', { name: 'Escriba para buscar' }).waitFor();
    await finance.keyboard.type(lot!.code);
    await finance.getByRole('option', { name: new RegExp(lot!.code) }).click();
    await expect.poll(() => register.getByLabel('Monto').inputValue()).toBe('500.00');
    await register.getByLabel('Medio de pago').selectOption({ label: 'Efectivo' });
    await register.getByRole('button', { name: 'Registrar' }).click();
    await register.waitFor({ state: 'hidden' });
    const queued = finance.getByRole('table', { name: 'Pagos' }).getByRole('row').filter({ hasText: lot!.code }).first();
    await queued.getByRole('button', { name: /Acciones/ }).click();
    await finance.getByRole('menuitem', { name: 'Aprobar' }).click();
    const approve = finance.getByRole('dialog', { name: 'Aprobar pago' });
    await approve.getByText(/quedará pagada/).waitFor();
    // The administrator registered it: approving their own registration is an exception with its
    // reason (docs/domain.md "Payments: segregation of duties").
    await approve.getByLabel('Motivo de la excepción').fill('Caja única de la oficina de ventas');
    await approve.getByRole('button', { name: 'Aprobar y aplicar' }).click();
    await approve.waitFor({ state: 'hidden' });

    // "Vender" again: the stepper with the customer as titular and the approved reservation credited.
    await page.goto(mapUrl);
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    lotPanel = await findLot(lot!.code);
    await lotPanel.getByRole('button', { name: 'Vender' }).click();
    await page.waitForURL(new RegExp(`/COMERCIO/Contrato/nuevo\\?lote=${lot!.id}$`));
    await page.getByRole('heading', { name: `Nueva venta · lote ${lot!.code}` }).waitFor();
    await page.getByRole('table', { name: 'Compradores' }).getByText('Martín Salas Vega').waitFor();
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText(/Separación SEP-\d{6} de Martín Salas Vega: S\/ 500\.00 \(pago aprobado\) se abonan a la cuota inicial/).waitFor();
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByLabel('Método').selectOption({ label: 'Francés (cuota fija)' });
    await page.getByLabel('Tasa mensual (%)').fill('1.5');
    const schedule = page.getByRole('table', { name: 'Cronograma editable' });
    await expect.poll(() => schedule.locator('tbody tr').count()).toBe(25);
    await screenshot(page, 'sales-flow-plan');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    const review = page.getByRole('group', { name: 'Revisión' });
    await review.getByText('24 cuotas · Francés (cuota fija) · 1.5 % mensual').waitFor();
    await screenshot(page, 'sales-flow-review');
    await page.getByRole('button', { name: 'Confirmar venta' }).click();
    await page.getByRole('heading', { name: /^Venta V-\d{6}$/ }).waitFor();
    await page.waitForURL(/\/COMERCIO\/Contrato\/\d+$/);
    const saleSchedule = page.getByRole('table', { name: 'Cronograma de la venta' });
    await expect.poll(() => saleSchedule.locator('tbody tr').count()).toBe(25);
    await screenshot(page, 'sales-flow-sale');

    // Vendido on the map; the sale in Ventas.
    await page.goto(`/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`);
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    lotPanel = await findLot(lot!.code);
    await lotPanel.waitFor();
    await expect.poll(() => page.locator(`.lot-map__lots > path[data-key="${lot!.id}"]`).getAttribute('fill')).toBe(FILL.VENDIDO);
    await page.goto('/COMERCIO/ventas?q=47888999');
    const row = page.getByRole('table', { name: 'Ventas' }).getByRole('row').filter({ hasText: lot!.code });
    await row.waitFor();
    expect(await row.textContent()).toContain('Financiado');
    expect(await row.textContent()).toContain('Martín Salas Vega');
    const sales = await api<{ data: { method: string; instalments: number; reservation_credit: number; status: string }[] }>(
      page,
      `/api/sales?lot_id=${lot!.id}`,
    );
    // The approved reservation payment is on the down payment: the sale starts INICIAL_PENDIENTE.
    expect(sales.body.data).toEqual([
      expect.objectContaining({
        method: 'FRANCES',
        instalments: 24,
        reservation_credit: 50_000,
        paid: 50_000,
        status: 'INICIAL_PENDIENTE',
      }),
    ]);

    // A reservation nobody converts: eight days later (the server's clock moved) its lot is free again.
    const customers = await api<{ data: { id: number }[] }>(page, '/api/customers?q=47888999');
    const held = await api<{ data: { id: number } }>(page, '/api/reservations', {
      method: 'POST',
      body: { customer_id: customers.body.data[0]!.id, lot_id: spare!.id, amount: 30_000, conditions_accepted: true },
    });
    expect(held.status).toBe(201);
    expect((await api<{ data: { status: string } }>(page, `/api/lots/${spare!.id}`)).body.data.status).toBe('SEPARADO');
    const moved = await api<{ now: string }>(page, '/dev/clock', { method: 'POST', body: { advance_ms: 8 * DAY_MS } });
    expect(moved.status).toBe(200);
    // Eight days idle end the agent's session: they sign in again and find the lot free.
    const later = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(later.page, env.server.baseUrl, '70000002', 'Parcela#2026');
    expect((await api<{ data: { status: string } }>(later.page, `/api/lots/${spare!.id}`)).body.data.status).toBe('DISPONIBLE');
    const expired = await api<{ data: { status: string }[] }>(later.page, `/api/reservations?lot_id=${spare!.id}`);
    expect(expired.body.data.map((r) => r.status)).toEqual(['VENCIDA']);

    await later.context.close();
    await agent.context.close();
    await admin.context.close();
  });
});
