/**
 * E2E of a commission's life (docs/domain.md "Commissions", "Rescission"), in real Chromium against
 * the built app and the real server (temp database, demo seed, whose subdivisions carry the ASESOR
 * policy 3 %, half at the approved down payment): setup through the API — a new agent, a sale of
 * theirs dated 150 days back with its instalments overdue (the company's back-dating window
 * widened), its down payment registered on the sale's date —; then in the UI: the payment approved
 * in Finanzas → Pagos makes the agent's commission Devengada in Comisiones y Pagos; a settlement for
 * the month and the agent is created, approved and paid (voucher, operation number, date) →
 * Pagada; the sale is resolved from its drawer in Ventas ("Resolver contrato") → the agent gets a
 * negative Revertida line. Screenshots in test-results/e2e/ (and under SHOTS_DIR when set).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { Locator, Page } from 'playwright-core';
import { animationsSettled, e2eEnvironment, newPage, screenshot, setChecked, staffLogin, api, openFromMenu } from './harness';

const env = e2eEnvironment();

/** Saves a screenshot in test-results/e2e/ and, when SHOTS_DIR is set, there too. */
async function shot(page: Page, name: string) {
  await screenshot(page, name);
  if (process.env.SHOTS_DIR) {
    mkdirSync(process.env.SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
  }
}

/** A small PDF: the bank's transfer voucher (its header is what the server sniffs). */
const VOUCHER = Buffer.from('%PDF-1.4\n% Constancia de transferencia\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

const AGENT = { dni: '70000077', name: 'Rosa', surname: 'Vargas Huamán' };
const AGENT_NAME = `${AGENT.name} ${AGENT.surname}`;

interface SaleAnswer {
  id: number;
  number: string;
  down_payment: number;
  lot: { code: string };
}

/** The setup through the API: the agent, their back-dated sale with overdue instalments, its down payment registered (pending). */
async function setUp(page: Page): Promise<SaleAnswer> {
  const today = Temporal.Now.plainDateISO('America/Lima');
  const saleDate = today.subtract({ days: 150 }).toString();
  const company = await api<{ data: { version: number } }>(page, '/api/company');
  const widened = await api(page, '/api/company', {
    method: 'PATCH',
    body: { sale_backdate_days: 366, version: company.body.data.version },
  });
  expect(widened.status).toBe(200);
  const roles = await api<{ data: { id: number; name: string }[] }>(page, '/api/roles?per_page=50');
  const agent = await api<{ data: { id: number } }>(page, '/api/users', {
    method: 'POST',
    body: {
      ...AGENT,
      email: 'rosa.vargas@parcela.test',
      role_ids: [roles.body.data.find((r) => r.name === 'Asesor de ventas')!.id],
    },
  });
  expect(agent.status).toBe(201);
  const subdivisions = await api<{ data: { key: string; name: string }[] }>(page, '/api/subdivisions?per_page=100&sort=name');
  const subdivision = subdivisions.body.data.find((s) => s.name === 'Los Viñedos de Carabayllo')!;
  const map = await api<{ data: { lots: { id: number; status: string }[] } }>(page, `/api/subdivisions/${subdivision.key}/map`);
  const lot = map.body.data.lots.find((l) => l.status === 'DISPONIBLE')!;
  const customers = await api<{ data: { id: number }[] }>(page, '/api/customers?per_page=1&q=42004625');
  const created = await api<{ data: SaleAnswer }>(page, '/api/sales', {
    method: 'POST',
    body: {
      lot_id: lot.id,
      holders: [{ customer_id: customers.body.data[0]!.id, role: 'TITULAR', share_percent: '100' }],
      agent_id: agent.body.data.id,
      sale_date: saleDate,
      down_payment_percent: '20',
      instalments: 6,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: today.subtract({ days: 120 }).toString(),
    },
  });
  expect(created.status).toBe(201);
  const sale = created.body.data;
  // Paid at the office on the sale's date (so the down payment owes no late fee): pending review.
  const payment = await api(page, '/api/payments', {
    method: 'POST',
    body: { sale_id: sale.id, amount: sale.down_payment, method: 'EFECTIVO', operation_date: saleDate },
  });
  expect(payment.status).toBe(201);
  return sale;
}

/** The Comisiones tab's rows of the agent (filter "Asesor"), once the filtered list has arrived. */
async function agentCommissions(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Comisiones', exact: true }).click();
  await page.getByLabel('Asesor', { exact: true }).selectOption({ label: AGENT_NAME });
  const rows = page
    .getByRole('table', { name: 'Comisiones' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect
    .poll(async () => {
      const texts = await rows.allTextContents();
      return texts.length > 0 && texts.every((text) => text.includes(AGENT_NAME));
    })
    .toBe(true);
  return rows;
}

describe('comisiones e2e', () => {
  it('a commission from DEVENGADA to PAGADA and its reversal after a rescission', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const sale = await setUp(page);

    // Comisiones y Pagos → Políticas: the subdivision's policy for the agent.
    await openFromMenu(page, 'Administración', 'Comisiones y Pagos');
    await page.getByRole('heading', { name: 'Comisiones y Pagos' }).waitFor();
    await page.getByRole('tab', { name: 'Políticas' }).click();
    const policy = page
      .getByRole('table', { name: 'Políticas de comisiones' })
      .getByRole('row')
      .filter({ hasText: 'Los Viñedos de Carabayllo' })
      .filter({ hasText: 'Asesor' });
    await policy.waitFor();
    expect(await policy.textContent()).toContain('3 %');
    // Before the down payment is approved the commission is only projected.
    let rows = await agentCommissions(page);
    await expect.poll(() => rows.filter({ hasText: sale.number }).count()).toBe(2);
    expect(await rows.filter({ hasText: 'Devengada' }).count()).toBe(0);

    // Finanzas → Pagos: the down payment approved (the administrator registered it: an exception with its reason).
    await openFromMenu(page, 'Finanzas', 'Pagos');
    const queued = page.getByRole('table', { name: 'Pagos' }).getByRole('row').filter({ hasText: sale.lot.code }).first();
    await queued.getByRole('button', { name: /Acciones/ }).click();
    await page.getByRole('menuitem', { name: 'Aprobar' }).click();
    const approve = page.getByRole('dialog', { name: 'Aprobar pago' });
    await approve.getByRole('table', { name: 'Aplicación del pago' }).waitFor();
    await approve.getByLabel('Motivo de la excepción').fill('Caja única de la oficina de ventas');
    await approve.getByRole('button', { name: 'Aprobar y aplicar' }).click();
    await approve.waitFor({ state: 'hidden' });

    // Comisiones: the first tranche Devengada (the second waits for the sale to be paid off).
    await openFromMenu(page, 'Administración', 'Comisiones y Pagos');
    rows = await agentCommissions(page);
    const earned = rows.filter({ hasText: sale.number }).filter({ hasText: 'Devengada' });
    await earned.waitFor();
    expect(await earned.textContent()).toContain('1/2');
    const amount = /S\/ [\d,]+\.\d{2}/.exec((await earned.textContent()) ?? '')![0];

    // Liquidaciones: a settlement for this month and the agent, approved, then paid.
    await page.getByRole('tab', { name: 'Liquidaciones' }).click();
    await page.getByRole('button', { name: 'Nueva liquidación' }).click();
    let drawer = page.getByRole('dialog', { name: 'Nueva liquidación' });
    await setChecked(drawer.getByRole('checkbox', { name: new RegExp(AGENT_NAME) }));
    await drawer.getByRole('button', { name: 'Crear liquidación' }).click();
    drawer = page.getByRole('dialog', { name: /^LQ-\d{6}$/ });
    await drawer.waitFor();
    const lines = drawer.getByRole('table', { name: 'Líneas' }).getByRole('row');
    await expect.poll(() => lines.filter({ hasText: sale.number }).count()).toBe(1);
    expect(await lines.filter({ hasText: sale.number }).textContent()).toContain(amount);
    await drawer.getByRole('button', { name: 'Aprobar' }).click();
    await drawer.getByText('Aprobada', { exact: true }).first().waitFor();
    await drawer.getByLabel(/Comprobante/).setInputFiles({ name: 'transferencia.pdf', mimeType: 'application/pdf', buffer: VOUCHER });
    await drawer.getByText('Comprobante adjuntado', { exact: true }).waitFor();
    await drawer.getByLabel('N.º de operación').fill('OP-778899');
    await animationsSettled(page);
    await shot(page, 'comisiones-liquidacion-pagar');
    await drawer.getByRole('button', { name: 'Marcar como pagada' }).click();
    await drawer.getByText(/pagada el \d{2}\/\d{2}\/\d{4} \(operación OP-778899\)/).waitFor();
    await expect.poll(() => lines.filter({ hasText: sale.number }).textContent()).toContain('Pagada');
    await animationsSettled(page);
    await shot(page, 'comisiones-liquidacion-pagada');
    await drawer.getByRole('button', { name: 'Cerrar' }).click();
    await drawer.waitFor({ state: 'hidden' });
    rows = await agentCommissions(page);
    await rows.filter({ hasText: sale.number }).filter({ hasText: 'Pagada' }).waitFor();

    // Comercial → Ventas: the sale resolved from its drawer (its instalments are overdue).
    await page.goto(`/COMERCIO/ventas?q=${sale.number}`);
    const saleRow = page.getByRole('table', { name: 'Ventas' }).getByRole('row').filter({ hasText: sale.lot.code });
    await saleRow.getByRole('button', { name: /Acciones/ }).click();
    await page.getByRole('menuitem', { name: 'Ver' }).click();
    await page.getByRole('button', { name: 'Resolver contrato' }).click();
    const rescind = page.getByRole('alertdialog');
    await rescind.getByRole('table', { name: 'Cuotas impagas' }).waitFor();
    await rescind.getByLabel('Motivo de la resolución').fill('Incumplimiento de pago de tres o más cuotas');
    await rescind.getByRole('button', { name: 'Resolver contrato' }).click();
    const saleDrawer = page.getByRole('dialog', { name: `Venta ${sale.number}` });
    await saleDrawer.getByText(/Resuelta: Incumplimiento de pago/).waitFor();
    await saleDrawer.getByRole('button', { name: 'Cerrar' }).click();
    await saleDrawer.waitFor({ state: 'hidden' });

    // Comisiones: the paid tranche gets its negative Revertida line; the projected one is annulled.
    await openFromMenu(page, 'Administración', 'Comisiones y Pagos');
    rows = await agentCommissions(page);
    const reverted = rows.filter({ hasText: sale.number }).filter({ hasText: 'Revertida' });
    await reverted.waitFor();
    expect(await reverted.textContent()).toContain(`-${amount}`);
    await rows.filter({ hasText: sale.number }).filter({ hasText: 'Pagada' }).waitFor();
    await rows.filter({ hasText: sale.number }).filter({ hasText: 'Anulada' }).waitFor();
    await animationsSettled(page);
    await shot(page, 'comisiones-revertida');
    await context.close();
  }, 300_000);
});
