/**
 * E2E of Comercial → Reporte de Ventas in real Chromium against the built app and the real server
 * (temp database, demo seed with its sales): the administrator opens the report from the menu,
 * sees the totals and the monthly chart drawn on a canvas, filters by subdivision, and downloads
 * the Excel (a real workbook with the same count) and the PDF. ECharts is fetched with this screen
 * only: never by the entry chunks, not before the report opens. Screenshots in test-results/e2e/.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { e2eEnvironment, newPage, screenshot, staffLogin, openFromMenu } from './harness';

const env = e2eEnvironment();
const dist = path.resolve(import.meta.dirname, '../../', process.env.DIST_DIR || 'dist');
/** A string only ECharts' core carries (the attribute it puts on its container). */
const ECHARTS_MARK = '_echarts_instance_';

/** Vite's manifest: each chunk's file by its source module. */
function readManifest() {
  return JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[] }
  >;
}

/** The chart's chunk, e.g. `assets/Xy12ab.js` (lazy chunks are named by hash: vite.config.ts). */
function chartFile(): string {
  const entry = Object.entries(readManifest()).find(([key]) => key.endsWith('SalesReportChart.tsx'));
  if (!entry) throw new Error('SalesReportChart is not in the build manifest');
  return entry[1].file;
}

/** The files the entries load statically (Vite's manifest: `imports`, recursively). */
function entryFiles(): string[] {
  const manifest = readManifest();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...seen];
}

describe('sales report e2e', () => {
  it('keeps ECharts out of the entry chunks', () => {
    const files = entryFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(path.join(dist, file), 'utf8').includes(ECHARTS_MARK), file).toBe(false);
  });

  it('the administrator opens the report, filters it, sees the chart and downloads a real Excel and the PDF', async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl);
    const scripts: string[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('.js')) scripts.push(res.url());
    });
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const chart = `/${chartFile()}`;
    const chartChunk = () => scripts.filter((url) => url.endsWith(chart));
    expect(chartChunk()).toEqual([]);

    await openFromMenu(page, 'Comercial', 'Reporte de Ventas');
    await page.getByRole('heading', { name: 'Reporte de Ventas', level: 1 }).waitFor();
    const count = page.getByTestId('sales-report-count');
    await expect.poll(async () => Number(await count.textContent())).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('sales-report-total-PEN').textContent()).toMatch(/^S\/ [\d,]+\.\d{2}$/);
    await expect.poll(() => page.getByTestId('sales-report-m2-PEN').textContent()).toMatch(/^S\/ [\d,]+\.\d{2} \/ m²$/);
    // The chart: ECharts' chunk arrived with the screen and drew on a canvas of the box's size.
    const canvas = page.getByRole('img', { name: /Gráfico por mes/ }).locator('canvas');
    await canvas.waitFor();
    await expect.poll(async () => (await canvas.boundingBox())?.height ?? 0).toBeGreaterThan(200);
    expect(chartChunk()).toHaveLength(1);
    await screenshot(page, 'sales-report');

    // Filter: one subdivision; the figures follow.
    const everything = Number(await count.textContent());
    await page.getByLabel('Lotización', { exact: true }).selectOption({ label: 'Los Viñedos de Carabayllo' });
    const bySubdivision = page.getByRole('table', { name: 'Por lotización' });
    await expect.poll(() => bySubdivision.locator('tbody tr').count()).toBe(1);
    const row = bySubdivision.locator('tbody tr').first();
    await expect.poll(() => row.locator('td').first().textContent()).toBe('Los Viñedos de Carabayllo');
    const filtered = Number(await count.textContent());
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(everything);
    expect(Number(await row.locator('td').nth(1).textContent())).toBe(filtered);

    // Exportar Excel: the server's workbook of the same filters.
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar Excel' }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^reporte-ventas_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const dir = await mkdtemp(path.join(tmpdir(), 'parcela-report-'));
    const xlsxPath = path.join(dir, xlsx.suggestedFilename());
    await xlsx.saveAs(xlsxPath);
    expect(readFileSync(xlsxPath).subarray(0, 2).toString('latin1')).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsxPath);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Resumen', 'Por mes', 'Por lotización', 'Por asesor', 'Por canal']);
    const summary = workbook.getWorksheet('Resumen')!;
    const cells = summary.getSheetValues().flatMap((r) => (Array.isArray(r) ? r : []));
    expect(cells).toContain('Lotización: Los Viñedos de Carabayllo');
    const totals = summary.getRows(1, summary.rowCount)!.find((r) => r.getCell(2).value === 'PEN');
    expect(totals?.getCell(3).value).toBe(filtered);

    // Exportar PDF.
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar PDF' }).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^reporte-ventas_.+\.pdf$/);
    const pdfPath = path.join(dir, pdf.suggestedFilename());
    await pdf.saveAs(pdfPath);
    expect(readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('reads on a phone: filters in two columns, the chart as wide as the screen', async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await page.goto('/COMERCIO/reporteVentas');
    const canvas = page.getByRole('img', { name: /Gráfico por mes/ }).locator('canvas');
    await canvas.waitFor();
    const box = await canvas.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(250);
    expect(box?.width ?? 999).toBeLessThanOrEqual(390);
    // Nothing wider than the screen but the tables' own scroll boxes.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'sales-report-phone');
  });
});
