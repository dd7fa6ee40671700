import { beforeAll, describe, expect, it } from 'vitest';
import { paymentsPageSchema } from '../../src/schemas/finanzas/payments';
import { reportResponseSchema, REPORT_MESSAGES, type Report } from '../../src/schemas/reportes/report';
import { MODULE, SCOPE, SUBMODULE } from '../../src/schemas/permissions';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { createCustomer, createSession, createStaff } from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

/**
 * /Reportes' routes and Cobranza (docs/reports.md "Rules shared by every report", "Cobranza"):
 * Cobranza's figures are the Pagos list's (approved, by operation date) whatever the grouping, each
 * row's link opens the payments it sums, the exports carry the same rows with the printed header,
 * and bad input, missing permissions and a narrowed agent are answered as the rules say. The test
 * clock's today in Lima is 2026-03-02.
 */

const PERIOD = { from: '2025-12-01', to: '2026-03-02' };

describe.each(dialects)('Reportes: routes and Cobranza (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';
  let customer = '';
  let noReports = '';
  let narrowed = '';
  let narrowedId = 0;
  const get = (url: string, token = manager) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const ok = async (url: string, token = manager): Promise<unknown> => {
    const res = await get(url, token);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const report = async (query: string, token = manager): Promise<Report> =>
    reportResponseSchema.parse(await ok(`/api/reports/cobranza?${query}`, token)).data;

  /** Σ amount per currency of every payment GET `path` (the Pagos list with filters) answers, all pages. */
  const listSums = async (path: string) => {
    const sums: Record<string, number> = {};
    let count = 0;
    for (let page = 1; ; page++) {
      const body = paymentsPageSchema.parse(await ok(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`));
      for (const p of body.data) {
        sums[p.currency] = (sums[p.currency] ?? 0) + p.amount;
        count += 1;
      }
      if (page * 100 >= body.meta.total) return { sums, count };
    }
  };
  const totalsOf = (r: Report) => Object.fromEntries(r.totals.map((t) => [t.currency, t.cells.amount]));
  const countOf = (r: Report) => r.totals.reduce((n, t) => n + Number(t.cells.count), 0);

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    manager = await createSession(db(), await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock }));
    customer = await createSession(db(), await createCustomer(db()));
    noReports = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
    const agent = await createStaff(db(), { permissions: [MODULE.reportes, MODULE.comercial, SUBMODULE.ventas, SCOPE.soloSusVentas] });
    narrowedId = agent.id;
    narrowed = await createSession(db(), agent);
  }, SEED_TIMEOUT_MS);

  it('Cobranza equals the Pagos list filtered status=APROBADO&from&to, whatever the grouping', async () => {
    const list = await listSums(`/api/payments?status=APROBADO&from=${PERIOD.from}&to=${PERIOD.to}`);
    expect(list.count).toBeGreaterThan(0);
    for (const group of ['day', 'month', 'method', 'account', 'collector']) {
      const r = await report(`from=${PERIOD.from}&to=${PERIOD.to}&group=${group}`);
      expect(totalsOf(r), group).toEqual(list.sums);
      expect(countOf(r), group).toBe(list.count);
      // The rows add up to the totals, per currency.
      for (const t of r.totals) {
        const rows = r.rows.filter((row) => row.currency === t.currency);
        expect(
          rows.reduce((n, row) => n + Number(row.cells.amount), 0),
          `${group} ${t.currency}`,
        ).toBe(t.cells.amount);
      }
      expect(r.row_count).toBe(r.rows.length);
    }
  });

  it("each row's link opens the payments it sums (by day, by month, by method)", async () => {
    for (const group of ['day', 'month', 'method']) {
      const r = await report(`from=${PERIOD.from}&to=${PERIOD.to}&group=${group}`);
      for (const row of r.rows.slice(0, 6)) {
        expect(row.link).toMatch(/^\/FINANZAS\/Pagos\?status=APROBADO&/);
        const query = row.link!.slice(row.link!.indexOf('?'));
        const list = await listSums(`/api/payments${query}`);
        expect(list.sums[row.currency!], `${group} ${row.link}`).toBe(row.cells.amount);
        expect(list.count).toBe(row.cells.count);
      }
    }
  });

  it('the day chart has every day of the period, soles and dollars as separate series', async () => {
    const r = await report('from=2026-02-01&to=2026-02-28&group=day');
    expect(r.chart?.categories).toHaveLength(28);
    expect(r.chart?.categories[0]).toBe('01/02/2026');
    for (const series of r.chart?.series ?? []) {
      expect(series.values.reduce<number>((n, v) => n + (v ?? 0), 0)).toBe(
        r.totals.find((t) => t.currency === series.currency)?.cells.amount,
      );
    }
  });

  it('without dates it covers this month up to today', async () => {
    const r = await report('');
    expect([r.from, r.to]).toEqual(['2026-03-01', '2026-03-02']);
  });

  it('bad input is a Spanish 422: a 20-year range, an unknown subdivision or agent, an unknown key, a day grouping over a year', async () => {
    const cases: Array<[string, string]> = [
      ['from=2006-01-01&to=2026-01-01', REPORT_MESSAGES.tooLong],
      ['subdivision_id=999999', REPORT_MESSAGES.unknownSubdivision],
      ['agent_id=999999', REPORT_MESSAGES.unknownAgent],
      ['from=2024-01-01&to=2026-01-01&group=day', REPORT_MESSAGES.tooManyDays],
      ['from=2026-02-30', ''],
      ['company_id=2', ''],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/reports/cobranza?${query}`);
      expect(res.statusCode, query).toBe(422);
      if (message) expect(res.body, query).toContain(message);
      const file = await get(`/api/reports/cobranza.xlsx?${query}`);
      expect(file.statusCode, `xlsx ${query}`).toBe(422);
    }
    expect((await get('/api/reports/no-existe')).statusCode).toBe(404);
  });

  it('no session is a 401; a customer and staff without the module get a 403', async () => {
    expect((await ctx().app.inject({ method: 'GET', url: '/api/reports/cobranza' })).statusCode).toBe(401);
    expect((await get('/api/reports/cobranza', customer)).statusCode).toBe(403);
    expect((await get('/api/reports/cobranza', noReports)).statusCode).toBe(403);
    expect((await get('/api/reports/cobranza.pdf', noReports)).statusCode).toBe(403);
    expect((await get('/api/reports/options', noReports)).statusCode).toBe(403);
    expect((await get('/api/reports/options', customer)).statusCode).toBe(403);
  });

  it('an agent narrowed to their own sales gets their own figures only, whatever the address names', async () => {
    const own = await report(`from=${PERIOD.from}&to=${PERIOD.to}`, narrowed);
    expect(own.filters).toContainEqual(expect.objectContaining({ label: 'Asesor' }));
    const asked = await report(`from=${PERIOD.from}&to=${PERIOD.to}&agent_id=${narrowedId}`);
    expect(totalsOf(own)).toEqual(totalsOf(asked));
    const all = await report(`from=${PERIOD.from}&to=${PERIOD.to}`);
    expect(countOf(own)).toBeLessThan(countOf(all));
  });

  it('Excel and PDF carry the same rows with the printed header (company, title, period, issuer)', async () => {
    const query = `from=${PERIOD.from}&to=${PERIOD.to}&group=method`;
    const r = await report(query);
    const xlsx = await get(`/api/reports/cobranza.xlsx?${query}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toBe(`attachment; filename="reporte-cobranza_${PERIOD.from}_${PERIOD.to}.xlsx"`);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    // Sparse arrays (1-based, holes for empty rows and cells): read as dense ones.
    const texts = Array.from(sheet.getSheetValues(), (row) => (Array.isArray(row) ? Array.from(row.slice(1), (v) => v ?? null) : []));
    expect(texts[1]?.[0]).toBe('Cobranza');
    expect(texts.flat()).toContain('Período 01/12/2025 – 02/03/2026 · Agrupado: Por medio de pago');
    expect(texts.flat().some((v) => typeof v === 'string' && /^Emitido el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} por /.test(v))).toBe(true);
    const header = texts.findIndex((row) => row[0] === 'Medio de pago');
    expect(texts[header]).toEqual(['Medio de pago', 'Moneda', 'Pagos', 'Cobrado', 'Participación']);
    const body = texts.slice(header + 1, header + 1 + r.rows.length);
    expect(body.map((row) => [row[0], row[1], row[2], Math.round(Number(row[3]) * 100)])).toEqual(
      r.rows.map((row) => [row.cells.key, row.currency, row.cells.count, row.cells.amount]),
    );
    const pdf = await get(`/api/reports/cobranza.pdf?${query}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
