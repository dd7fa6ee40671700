/**
 * E2E of CRM → Clientes in real Chromium against the built app and the real server (temp
 * database, demo seed): the administrator opens Clientes from the menu, creates a customer with the
 * ubigeo cascade and an agent, finds them by search, edits the address, and sends them the portal
 * link; the customer creates a password through that link and signs in to the portal (the CRM
 * customer and the portal account are one record); a second customer, without portal login, is
 * deleted. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { api, e2eEnvironment, latestResetLink, newPage, SCREENSHOTS, screenshot, setChecked, staffLogin, openFromMenu } from './harness';

const env = e2eEnvironment();
/** The map's fill of a Separado lot (src/views/proyectos/lot-status.ts). */
const SEPARADO_FILL = '#e0a21b';

async function rowAction(page: Page, rowText: string, action: string) {
  const row = page.getByRole('row').filter({ hasText: rowText });
  await row.getByRole('button', { name: 'Acciones' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('crm e2e', () => {
  it('a customer entered by staff gets the portal link, signs in; another one is deleted', async () => {
    const admin = await newPage(env.browser, env.server.baseUrl);
    const page = admin.page;
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');

    await openFromMenu(page, 'CRM', 'Clientes');
    await page.getByRole('heading', { name: 'Clientes' }).waitFor();
    await page.getByRole('row').filter({ hasText: '45454545' }).waitFor();

    // New customer: DNI, names, married (no spouse yet), Lima / Lima / Carabayllo, an agent.
    await page.getByRole('button', { name: 'Nuevo cliente' }).first().click();
    const form = page.getByRole('dialog', { name: 'Nuevo cliente' });
    await form.getByLabel('Número de documento').fill('41230001');
    await form.getByLabel('Nombres').fill('Flor');
    await form.getByLabel('Apellidos').fill('Huamaní Rojas');
    await form.getByLabel('Celular', { exact: true }).fill('912300001');
    await form.getByLabel('Correo electrónico').fill('flor.huamani@parcela.test');
    await form.getByLabel('Departamento').selectOption({ label: 'Lima' });
    await form.getByLabel('Provincia').selectOption({ label: 'Lima' });
    // Saving with the cascade half chosen asks for the district and keeps what was typed.
    await form.getByRole('button', { name: 'Guardar' }).click();
    await form.getByText('Seleccione un distrito de la lista').waitFor();
    expect(await form.getByLabel('Nombres').inputValue()).toBe('Flor');
    await form.getByLabel('Distrito').selectOption({ label: 'Carabayllo' });
    await form.getByLabel('Asesor', { exact: true }).selectOption({ label: 'Lucía Quispe' });
    await screenshot(page, 'crm-customer-form');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await form.waitFor({ state: 'hidden' });

    // Found by search, with the agent and no portal user.
    await page.getByLabel('Buscar', { exact: true }).fill('huamaní');
    const row = page.getByRole('row').filter({ hasText: 'Flor Huamaní Rojas' });
    await row.waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await row.textContent()).toContain('Sin usuario');
    expect(await row.textContent()).toContain('Lucía Quispe');

    // Edit the address.
    await rowAction(page, 'Flor Huamaní Rojas', 'Editar');
    const edit = page.getByRole('dialog', { name: 'Editar cliente' });
    await expect.poll(() => edit.getByLabel('Distrito').inputValue()).toBe('150106');
    await edit.getByLabel('Dirección').fill('Av. Universitaria 9000');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });

    // Portal link → the customer creates a password and signs in to the portal.
    await rowAction(page, 'Flor Huamaní Rojas', 'Enviar acceso al portal');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Enlace de acceso enviado').first().waitFor();
    const link = await latestResetLink(env.server.baseUrl, 'flor.huamani@parcela.test');
    expect(link).toMatch(/\/customer$/);
    const customer = await newPage(env.browser, env.server.baseUrl);
    await customer.page.goto(link);
    await customer.page.getByLabel('Nueva contraseña', { exact: true }).fill('MiPortal#2026');
    await customer.page.getByLabel('Confirme la nueva contraseña').fill('MiPortal#2026');
    await customer.page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await customer.page
      .getByText(/Contraseña actualizada/)
      .first()
      .waitFor();
    await customer.page.goto('/auth/loginclientes');
    await customer.page.getByLabel('Número de documento').fill('41230001');
    await customer.page.getByLabel('Contraseña', { exact: true }).fill('MiPortal#2026');
    await customer.page.getByRole('button', { name: 'Ingresar' }).click();
    await customer.page.waitForURL(`${env.server.baseUrl}/`);
    await customer.page.getByText('Flor').first().waitFor();
    await customer.context.close();

    // Now a portal user in the list.
    await page.reload();
    await expect
      .poll(async () => (await page.getByRole('row').filter({ hasText: 'Flor Huamaní Rojas' }).textContent()) ?? '')
      .toContain('Con usuario');

    // A customer without portal login can be deleted.
    await page.getByRole('button', { name: 'Nuevo cliente' }).first().click();
    const second = page.getByRole('dialog', { name: 'Nuevo cliente' });
    await second.getByLabel('Número de documento').fill('41230002');
    await second.getByLabel('Nombres').fill('Temporal');
    await second.getByLabel('Apellidos').fill('Por Borrar');
    await second.getByLabel('Celular', { exact: true }).fill('912300002');
    await second.getByRole('button', { name: 'Guardar' }).click();
    await second.waitFor({ state: 'hidden' });
    await page.getByLabel('Buscar', { exact: true }).fill('por borrar');
    await page.getByRole('row').filter({ hasText: 'Temporal Por Borrar' }).waitFor();
    await rowAction(page, 'Temporal Por Borrar', 'Editar');
    const third = page.getByRole('dialog', { name: 'Editar cliente' });
    await third.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('No hay registros').first().waitFor();
    await screenshot(page, 'crm-customers-list');
    await admin.context.close();
  });

  it('a lot reserved from the map for a customer turns Separado; a second reservation of it is refused', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const call = <T>(url: string, init?: { method: string; body: unknown }) => api<T>(page, url, init);
    const list = await call<{ data: { key: string; name: string }[] }>('/api/subdivisions?per_page=100&sort=name');
    const subdivision = list.body.data.find((s) => s.name === 'Los Viñedos de Carabayllo') ?? list.body.data[0]!;
    const map = await call<{ data: { lots: { id: number; code: string; status: string; polygon: unknown }[] } }>(
      `/api/subdivisions/${subdivision.key}/map`,
    );
    const lot = map.body.data.lots.find((l) => l.status === 'DISPONIBLE' && l.polygon)!;

    await page.goto(`/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`);
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    await page.getByLabel('Buscar lote').fill(lot.code);
    await page.getByLabel('Buscar lote').press('Enter');
    const panel = page.getByRole('region', { name: `Lote ${lot.code}` });
    await panel.getByRole('button', { name: 'Separar' }).click();
    const dialog = page.getByRole('dialog', { name: `Separar lote ${lot.code}` });
    await dialog.getByLabel('Cliente', { exact: true }).click();
    await page.keyboard.type('45454545');
    await page.getByRole('option', { name: /Carlos Mendoza/ }).click();
    await dialog.getByLabel('Monto de la separación').fill('500.00');
    await setChecked(dialog.getByLabel('El cliente leyó y acepta las condiciones'));
    await screenshot(page, 'crm-reservation-dialog');
    await dialog.getByRole('button', { name: 'Separar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const shape = page.locator(`.lot-map__lots > path[data-key="${lot.id}"]`);
    await expect.poll(() => shape.getAttribute('fill')).toBe(SEPARADO_FILL);
    await screenshot(page, 'crm-reserved-on-map');

    const reservations = await call<{ data: { status: string; amount: number; customer: { document_number: string } }[] }>(
      `/api/reservations?lot_id=${lot.id}`,
    );
    expect(reservations.body.data).toEqual([
      expect.objectContaining({
        status: 'PENDIENTE_PAGO',
        amount: 50_000,
        customer: expect.objectContaining({ document_number: '45454545' }),
      }),
    ]);
    const again = await call<{ message: string }>('/api/reservations', {
      method: 'POST',
      body: { customer_id: 1, lot_id: lot.id, amount: 100, conditions_accepted: true },
    });
    expect(again).toEqual({ status: 409, body: expect.objectContaining({ message: 'El lote ya no está disponible' }) });
    await context.close();
  });

  it('a lot is quoted from the map: the FRANCES schedule is simulated as typed, saved and marked as sent', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const call = <T>(url: string) =>
      page.evaluate(async (u) => {
        const res = await fetch(u, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' } });
        return (await res.json()) as T;
      }, url) as Promise<T>;
    const list = await call<{ data: { key: string; name: string }[] }>('/api/subdivisions?per_page=100&sort=name');
    const subdivision = list.data.find((s) => s.name === 'Los Viñedos de Carabayllo') ?? list.data[0]!;
    const map = await call<{ data: { lots: { id: number; code: string; status: string; polygon: unknown }[] } }>(
      `/api/subdivisions/${subdivision.key}/map`,
    );
    const lot = map.data.lots.filter((l) => l.status === 'DISPONIBLE' && l.polygon)[3]!;

    await page.goto(`/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`);
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    await page.getByLabel('Buscar lote').fill(lot.code);
    await page.getByLabel('Buscar lote').press('Enter');
    const panel = page.getByRole('region', { name: `Lote ${lot.code}` });
    await panel.getByRole('button', { name: 'Cotizar' }).click();
    const dialog = page.getByRole('dialog', { name: `Cotizar lote ${lot.code}` });
    await dialog.getByLabel('Cliente', { exact: true }).click();
    await page.keyboard.type('45454545');
    await page.getByRole('option', { name: /Carlos Mendoza/ }).click();
    await dialog.getByLabel('Método').selectOption({ label: 'Francés (cuota fija)' });
    await dialog.getByLabel('Tasa mensual (%)').fill('1.5');
    const schedule = dialog.getByRole('table', { name: 'Cronograma simulado' });
    await expect.poll(() => schedule.locator('tbody tr').count()).toBe(24);
    await screenshot(page, 'crm-quote-dialog');
    await dialog.getByRole('button', { name: 'Guardar cotización' }).click();
    await dialog.getByText(/^Cotización COT-\d{6}$/).waitFor();
    await dialog.getByRole('button', { name: 'Marcar como enviada' }).click();
    await dialog.getByText('Enviada', { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Descargar PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^COT-\d{6}\.pdf$/);
    const pdfPath = path.join(SCREENSHOTS, 'crm-quote.pdf');
    await download.saveAs(pdfPath);
    expect(readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const quotes = await call<{
      data: { status: string; instalments: number; method: string; schedule: { capital: number }[]; financed: number }[];
    }>(`/api/quotes?lot_id=${lot.id}`);
    expect(quotes.data).toHaveLength(1);
    expect(quotes.data[0]).toMatchObject({ status: 'ENVIADA', instalments: 24, method: 'FRANCES' });
    expect(quotes.data[0]!.schedule.reduce((sum, r) => sum + r.capital, 0)).toBe(quotes.data[0]!.financed);
    await context.close();
  });

  it('Ventas lists the demo sales; the demo customer’s sale opens with its schedule; an annulled sale frees its lot', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await openFromMenu(page, 'Comercial', 'Ventas');
    await page.getByRole('heading', { name: 'Ventas' }).waitFor();
    await page.getByRole('table', { name: 'Ventas' }).getByRole('row').nth(5).waitFor();
    await page.getByLabel('Buscar', { exact: true }).fill('45454545');
    // The search answers one sale (header + one row).
    await expect.poll(() => page.getByRole('table', { name: 'Ventas' }).getByRole('row').count()).toBe(2);
    const row = page.getByRole('table', { name: 'Ventas' }).getByRole('row').filter({ hasText: 'Los Viñedos de Carabayllo' });
    expect(await row.textContent()).toContain('Financiado');
    await row.getByRole('button', { name: 'Acciones' }).click();
    await page.getByRole('menuitem', { name: 'Ver' }).click();
    const drawer = page.getByRole('dialog', { name: /^Venta V-\d{6}$/ });
    const schedule = drawer.getByRole('table', { name: 'Cronograma de la venta' });
    await expect.poll(() => schedule.locator('tbody tr').count()).toBeGreaterThan(12);
    await screenshot(page, 'comercio-sale-drawer');
    const lotCode = (await row.getByRole('cell').nth(3).textContent())!.trim();
    await drawer.getByRole('button', { name: 'Anular venta' }).click();
    const alert = page.getByRole('alertdialog');
    await alert.getByLabel('Motivo de la anulación').fill('Resolución de contrato por desistimiento');
    await alert.getByRole('button', { name: 'Anular venta' }).click();
    await drawer.getByText('Anulada: Resolución de contrato por desistimiento').waitFor();
    const lots = await page.evaluate(async (code) => {
      const res = await fetch(`/api/sales?q=${encodeURIComponent(code)}&status=ANULADA`, {
        headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' },
      });
      return (await res.json()) as { data: { lot: { code: string } }[] };
    }, lotCode);
    expect(lots.data.map((x) => x.lot.code)).toContain(lotCode);
    await context.close();
  });
});
