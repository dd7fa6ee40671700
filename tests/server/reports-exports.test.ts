import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

// Caps made small so a handful of rows crosses them (the rule, not the numbers, is under test).
vi.mock('../../src/schemas/reportes/report', async (original) => ({
  ...(await original<typeof import('../../src/schemas/reportes/report')>()),
  REPORT_EXPORT_ROW_CAP: 6,
  REPORT_PDF_ROW_CAP: 3,
}));

/**
 * The reports' exports (docs/reports.md "Rules shared by every report"; docs/security.md
 * 33.88–33.89): rows are counted before any file is made — past the Excel or the PDF cap the server
 * answers 409 in Spanish and makes nothing — and text typed by users (a subdivision's name) cannot
 * run as a formula in the workbook.
 */
describe.each(dialects)('Reportes: export caps and text in files (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';
  const get = (url: string) => ctx().app.inject({ method: 'GET', url, headers: bearer(manager) });

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    manager = await createSession(db(), await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock }));
    const formula = await createSubdivision(db(), { name: '=HYPERLINK("http://x.example","clic")' });
    await createLot(db(), formula.id);
  }, SEED_TIMEOUT_MS);

  it('past the caps the export is a 409 that says so, and the screen still answers', async () => {
    // Inventario: a row per subdivision and status (the demo's two subdivisions and the one above: more than 6).
    const screen = await get('/api/reports/inventario');
    expect(screen.statusCode).toBe(200);
    const rows = (screen.json() as { data: { row_count: number } }).data.row_count;
    expect(rows).toBeGreaterThan(6);
    for (const format of ['xlsx', 'pdf']) {
      const file = await get(`/api/reports/inventario.${format}`);
      expect(file.statusCode, format).toBe(409);
      expect(file.json().message, format).toMatch(/^El reporte tiene \d+ filas y (la exportación|el PDF) admite hasta/);
    }
    // Cobranza by day over two months is past the PDF's cap; one subdivision's inventory is under both.
    const subdivision = await db().selectFrom('subdivisions').select('id').where('name', 'like', '=HYPERLINK%').executeTakeFirstOrThrow();
    const one = `subdivision_id=${subdivision.id}`;
    const days = await get('/api/reports/cobranza?group=day&from=2026-01-01&to=2026-02-28');
    expect(days.json().data.row_count).toBeGreaterThan(3);
    expect((await get('/api/reports/cobranza.pdf?group=day&from=2026-01-01&to=2026-02-28')).statusCode).toBe(409);
    expect((await get(`/api/reports/inventario.xlsx?${one}`)).statusCode).toBe(200);
  });

  it('a name that starts like a formula is written as text in the workbook', async () => {
    const subdivision = await db().selectFrom('subdivisions').select('id').where('name', 'like', '=HYPERLINK%').executeTakeFirstOrThrow();
    const res = await get(`/api/reports/inventario.xlsx?subdivision_id=${subdivision.id}`);
    expect(res.statusCode).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells = book.worksheets[0]!.getSheetValues().flatMap((row) => (Array.isArray(row) ? row : []));
    expect(cells).toContain(`'=HYPERLINK("http://x.example","clic")`);
    expect(cells.some((c) => typeof c === 'object' && c !== null && 'formula' in c)).toBe(false);
  });

  it('the printed header names each filter once, whichever report names it', async () => {
    const subdivision = await db().selectFrom('subdivisions').select('id').where('name', 'like', '=HYPERLINK%').executeTakeFirstOrThrow();
    for (const id of [
      'cobranza',
      'cartera-morosa',
      'inventario',
      'reservas',
      'conversion-leads',
      'comisiones',
      'ingresos-egresos',
      'valor-cartera',
    ]) {
      const res = await get(`/api/reports/${id}?subdivision_id=${subdivision.id}`);
      expect(res.statusCode, id).toBe(200);
      const labels = (res.json() as { data: { filters: { label: string }[] } }).data.filters.map((f) => f.label);
      expect(
        labels.filter((l) => l === 'Lotización'),
        id,
      ).toHaveLength(1);
    }
  });
});
