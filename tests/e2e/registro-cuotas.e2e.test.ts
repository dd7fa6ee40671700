/**
 * E2E of Registro de Cuotas (issue 16 "/FINANZAS/RegistroCuotas") in real Chromium against the built
 * app and the real server (temp database, demo seed with its late payers and late fees figured): the
 * collector reaches it from the menu, filters the overdue instalments (the filter goes to the
 * address), types a due-date range the Spanish way, waives part of a late fee with a reason (the
 * row's fee owed and the totals follow at once) and downloads the filtered set as CSV.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { e2eEnvironment, newPage, screenshot, staffLogin, openFromMenu } from './harness';

const env = e2eEnvironment();

/** "S/ 1,234.50" → 123450 céntimos. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);

describe('registro de cuotas e2e', () => {
  it('filters the overdue instalments, waives part of a late fee with its reason, and exports the set', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await openFromMenu(page, 'Finanzas', 'Registro de Cuotas');
    await page.getByRole('heading', { name: 'Registro de Cuotas' }).waitFor();

    await page.getByLabel('Estado').selectOption({ label: 'Vencida' });
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('VENCIDA');
    const table = page.getByRole('table', { name: 'Cuotas' });
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.first().textContent()).toContain('Vencida');
    const totals = page.locator('.instalments-totals-table tbody tr').first();
    await expect.poll(() => totals.textContent()).toMatch(/Soles/);
    const dueBefore = cents((await totals.locator('td').last().textContent()) ?? '');
    expect(dueBefore).toBeGreaterThan(0);

    // A due-date range typed dd/mm/yyyy reaches the address as ISO dates.
    await page.getByLabel('Vence desde').fill('01/01/2020');
    await page.getByLabel('Vence desde').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('due_from')).toBe('2020-01-01');
    await screenshot(page, 'registro-cuotas-vencidas');

    // Waive S/ 1.00 of the first row's late fee, with its reason.
    const first = rows.first();
    await first.getByRole('button', { name: /Acciones/ }).click();
    await page.getByRole('menuitem', { name: 'Condonar mora' }).click();
    const dialog = page.getByRole('dialog', { name: 'Condonar mora' });
    await dialog.getByLabel(/^Monto a condonar/).fill('1.00');
    await dialog.getByLabel('Motivo').fill('Acuerdo de pago con el cliente');
    await dialog.getByRole('button', { name: 'Condonar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => cents((await totals.locator('td').last().textContent()) ?? '')).toBe(dueBefore - 100);

    // The filtered set as a CSV file, with a header and the waived row's sale.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /Exportar/ }).click();
    await page.getByRole('menuitem', { name: 'Exportar a CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = await readFile((await file.path())!, 'utf8');
    expect(text.split('\n')[0]).toContain('Venta');
    expect(text).toContain('Vencida');
    await context.close();
  });
});
