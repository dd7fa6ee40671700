/**
 * E2E of /Reportes and /ReportesEconomicos in real Chromium against the built app and the real
 * server (temp database, demo seed; docs/reports.md): the administrator opens Reportes Económicos
 * from the menu, reads the cash-flow report's totals per currency, and downloads the Excel and the
 * PDF, whose totals are the screen's (the same figures, with the printed header). On /Reportes a
 * Cobranza row opens the Pagos list it sums, and the filters live in the address. Screenshots in
 * test-results/e2e/.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { e2eEnvironment, mainMenu, newPage, screenshot, staffLogin } from './harness';

const env = e2eEnvironment();

/** Céntimos of a money text as the screen writes it ("S/ 1,234.50", "-US$ 3.00"). */
const cents = (text: string) => {
  const negative = text.trim().startsWith('-');
  const digits = text.replace(/[^\d.]/g, '');
  return (negative ? -1 : 1) * Math.round(Number(digits) * 100);
};

describe('reportes e2e', () => {
  it('the cash-flow report exports Excel and PDF whose totals are the screen’s', async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await mainMenu(page).getByRole('link', { name: 'Reportes Económicos' }).click();
    await page.waitForURL(/\/ReportesEconomicos/);
    await page.getByRole('heading', { name: 'Reportes Económicos', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Flujo de caja proyectado', selected: true }).waitFor();

    const table = page.getByRole('table', { name: /Flujo de caja proyectado/ });
    const totals = table.locator('tfoot tr');
    await expect.poll(() => totals.count()).toBeGreaterThan(0);
    const headers = (await table.locator('thead th').allTextContents()).map((t) => t.trim());
    const expectedAt = headers.indexOf('Esperado');
    expect(expectedAt).toBeGreaterThan(0);
    // The screen's totals: Esperado per currency (the symbol tells the currency).
    const screen: Record<string, number> = {};
    for (const row of await totals.all()) {
      const text = (await row.locator('th, td').nth(expectedAt).textContent()) ?? '';
      screen[text.includes('US$') ? 'USD' : 'PEN'] = cents(text);
    }
    expect(Object.keys(screen)).toContain('PEN');
    await page
      .getByRole('img', { name: /Gráfico de Flujo de caja proyectado/ })
      .locator('canvas')
      .waitFor();
    await screenshot(page, 'reportes-flujo-caja');

    const dir = await mkdtemp(path.join(tmpdir(), 'parcela-reportes-'));
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar Excel' }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^reporte-flujo-caja_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const xlsxPath = path.join(dir, xlsx.suggestedFilename());
    await xlsx.saveAs(xlsxPath);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsxPath);
    const sheet = workbook.worksheets[0]!;
    const rows = Array.from(sheet.getSheetValues(), (r) => (Array.isArray(r) ? Array.from(r.slice(1), (v) => v ?? null) : []));
    expect(rows[1]?.[0]).toBe('Flujo de caja proyectado');
    expect(rows.flat().some((v) => typeof v === 'string' && v.startsWith('Emitido el '))).toBe(true);
    const header = rows.findIndex((r) => r[0] === 'Tramo');
    // Excel puts the currency in its own column after the first: Esperado moves one to the right.
    expect(rows[header]?.[expectedAt + 1]).toBe('Esperado');
    const excelTotals = Object.fromEntries(
      rows.filter((r) => r[0] === 'Total').map((r) => [r[1], Math.round(Number(r[expectedAt + 1]) * 100)]),
    );
    expect(excelTotals).toEqual(screen);

    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar PDF' }).click()]);
    const pdfPath = path.join(dir, pdf.suggestedFilename());
    await pdf.saveAs(pdfPath);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(readFileSync(pdfPath))), { mergePages: true });
    expect(text).toContain('Flujo de caja proyectado');
    for (const row of await totals.all()) {
      const shown = ((await row.locator('th, td').nth(expectedAt).textContent()) ?? '').trim();
      expect(text).toContain(shown);
    }
  });

  it('a Cobranza row opens the approved payments it sums; the filters are in the address', async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await page.goto('/Reportes?reporte=cobranza&from=2026-01-01&to=2026-06-30&group=month');
    const table = page.getByRole('table', { name: /^Cobranza/ });
    const first = table.locator('tbody tr').first();
    await first.getByRole('link').waitFor();
    const count = Number(((await first.locator('td').first().textContent()) ?? '').replace(/\D/g, ''));
    expect(count).toBeGreaterThan(0);
    // Changing a filter writes it to the address.
    await page.getByLabel('Moneda', { exact: true }).selectOption({ label: 'Soles (S/)' });
    await page.waitForURL(/currency=PEN/);
    await first.getByRole('link').click();
    await page.waitForURL(/\/FINANZAS\/Pagos\?status=APROBADO&from=2026-01-01&to=2026-01-31/);
    await page.getByRole('heading', { name: 'Pagos', level: 1 }).waitFor();
  });
});
