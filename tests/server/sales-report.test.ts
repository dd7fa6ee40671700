import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SALES_REPORT_MESSAGES,
  salesReportOptionsResponseSchema,
  salesReportResponseSchema,
  type SalesReport,
} from '../../src/schemas/comercio/sales-report';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import {
  createCrmCustomer,
  createLot,
  createRole,
  createSession,
  createStaff,
  createSubdivision,
  setSaleBackdateDays,
} from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';

/**
 * Reporte de Ventas: GET /api/sales/report, its options and its .xlsx and .pdf (issue "CRM and
 * sales"; docs/decisions.md "Sales report"). The test clock's today in Lima is 2026-03-02; the
 * sales are made through POST /api/sales with past sale dates.
 */

describe.each(dialects)('sales report (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let reporter = '';
  let seller = '';
  let sellerId = 0;
  let otherSellerId = 0;
  let pen = 0;
  let usd = 0;
  const get = (url: string, token = reporter) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const report = async (query: string): Promise<SalesReport> => {
    const res = await get(`/api/sales/report?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return salesReportResponseSchema.parse(res.json()).data;
  };

  beforeAll(async () => {
    await createRole(db(), `Reporta ${dialect}`, [MODULE.comercial, SUBMODULE.reporteVentas]);
    await createRole(db(), `Vende ${dialect}`, [MODULE.comercial, SUBMODULE.ventas]);
    const boss = await createStaff(db(), { roleNames: [`Reporta ${dialect}`], clock: ctx().clock });
    reporter = await createSession(db(), boss);
    const agent = await createStaff(db(), { roleNames: [`Vende ${dialect}`], clock: ctx().clock });
    sellerId = agent.id;
    seller = await createSession(db(), agent);
    const other = await createStaff(db(), { roleNames: [`Vende ${dialect}`], clock: ctx().clock });
    otherSellerId = other.id;
    const otherToken = await createSession(db(), other);
    // The report reaches back to December: the company lets its staff date sales up to 120 days back.
    await setSaleBackdateDays(db(), 120);
    pen = (await createSubdivision(db(), { name: 'Los Viñedos', currency: 'PEN' })).id;
    usd = (await createSubdivision(db(), { name: 'Bosques del Norte', currency: 'USD' })).id;

    // A buyer whose open lead came from Facebook: the sale concludes it (CONCRETADO), so the sale's channel is FACEBOOK.
    const fromFacebook = await createCrmCustomer(db());
    const stamp = '2026-01-02T15:00:00Z';
    await db()
      .insertInto('leads')
      .values({
        name: 'Lead de Facebook',
        phone: '987000111',
        email: null,
        id_document_type: null,
        document_number: null,
        channel: 'FACEBOOK',
        campaign: null,
        notes: null,
        agent_id: agent.id,
        status: 'EN_ATENCION',
        lost_reason: null,
        next_follow_up_at: null,
        customer_id: fromFacebook,
        last_activity_at: null,
        received_at: stamp,
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();

    /** A cash sale of a fresh lot (area m² × S/ 250.00 per m², less `discount` céntimos) on `date`. */
    async function sell(token: string, subdivisionId: number, date: string, area: number, customer?: number, discount = 0) {
      const lotId = await createLot(db(), subdivisionId, { area_m2: area });
      const buyer = customer ?? (await createCrmCustomer(db()));
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/sales',
        headers: bearer(token),
        payload: {
          lot_id: lotId,
          holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
          instalments: 0,
          sale_date: date,
          ...(discount > 0 ? { discount_cents: discount } : {}),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { data: { id: number } }).data.id;
    }
    // January: 120 m² at S/ 30 000.00 (Facebook); February: 200 m² at S/ 50 000.00 less S/ 2 000.00 by another agent.
    await sell(seller, pen, '2026-01-15', 120, fromFacebook);
    await sell(otherToken, pen, '2026-02-10', 200, undefined, 200_000);
    // Dollars: 100 m² at US$ 25 000.00 (the price per m² is the fixture's 25 000 céntimos in the subdivision's currency).
    await sell(seller, usd, '2026-02-20', 100);
    // Left out: an annulled sale in the period, and a sale before it.
    const annulled = await sell(seller, pen, '2026-02-11', 150);
    const annul = await ctx().app.inject({
      method: 'POST',
      url: `/api/sales/${annulled}/annul`,
      headers: bearer(seller),
      payload: { reason: 'Desistió' },
    });
    expect(annul.statusCode, annul.body).toBe(200);
    await sell(seller, pen, '2025-12-31', 100);
  });

  it('totals per currency (never soles plus dollars), count and price per m² = Σ final price ÷ Σ area; ANULADA and out-of-period sales left out', async () => {
    const data = await report('from=2026-01-01&to=2026-03-02');
    expect(data.months).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(data.totals).toEqual([
      // (3 000 000 + 5 000 000 − 200 000) ÷ (120 + 200) = 24 375 céntimos per m².
      { currency: 'PEN', count: 2, total: 7_800_000, area_m2: 320, price_per_m2: 24_375 },
      { currency: 'USD', count: 1, total: 2_500_000, area_m2: 100, price_per_m2: 25_000 },
    ]);
    expect(data.by_month).toEqual([
      { month: '2026-01', currency: 'PEN', count: 1, total: 3_000_000, area_m2: 120, price_per_m2: 25_000 },
      { month: '2026-02', currency: 'PEN', count: 1, total: 4_800_000, area_m2: 200, price_per_m2: 24_000 },
      { month: '2026-02', currency: 'USD', count: 1, total: 2_500_000, area_m2: 100, price_per_m2: 25_000 },
    ]);
    expect(data.by_subdivision.map((s) => [s.id, s.name, s.currency, s.count, s.total])).toEqual([
      [pen, 'Los Viñedos', 'PEN', 2, 7_800_000],
      [usd, 'Bosques del Norte', 'USD', 1, 2_500_000],
    ]);
    // An agent who sold in both currencies has a row per currency.
    expect(data.by_agent.map((a) => [a.id, a.currency, a.count, a.total])).toEqual([
      [otherSellerId, 'PEN', 1, 4_800_000],
      [sellerId, 'PEN', 1, 3_000_000],
      [sellerId, 'USD', 1, 2_500_000],
    ]);
    expect(data.by_channel.map((c) => [c.channel, c.currency, c.count, c.total])).toEqual([
      ['DIRECTO', 'PEN', 1, 4_800_000],
      ['FACEBOOK', 'PEN', 1, 3_000_000],
      ['DIRECTO', 'USD', 1, 2_500_000],
    ]);
  });

  it('filters by subdivision, agent and channel, alone and together; a period without sales answers empty figures', async () => {
    expect((await report(`from=2026-01-01&to=2026-03-02&subdivision_id=${usd}`)).totals).toEqual([
      { currency: 'USD', count: 1, total: 2_500_000, area_m2: 100, price_per_m2: 25_000 },
    ]);
    const mine = await report(`from=2026-01-01&to=2026-03-02&agent_id=${sellerId}`);
    expect(mine.totals.map((t) => [t.currency, t.count])).toEqual([
      ['PEN', 1],
      ['USD', 1],
    ]);
    const facebook = await report('from=2026-01-01&to=2026-03-02&channel=FACEBOOK');
    expect(facebook.totals).toEqual([{ currency: 'PEN', count: 1, total: 3_000_000, area_m2: 120, price_per_m2: 25_000 }]);
    expect(facebook.by_channel.map((c) => c.channel)).toEqual(['FACEBOOK']);
    const direct = await report(`from=2026-01-01&to=2026-03-02&channel=DIRECTO&subdivision_id=${pen}`);
    expect(direct.totals.map((t) => [t.currency, t.count, t.total])).toEqual([['PEN', 1, 4_800_000]]);
    // The sale of 31 Dec 2025 is December's (Lima calendar date of the sale), alone in its period.
    expect((await report('from=2025-12-01&to=2025-12-31')).by_month.map((m) => [m.month, m.count])).toEqual([['2025-12', 1]]);
    const empty = await report('from=2024-01-01&to=2024-02-29');
    expect(empty).toMatchObject({
      months: ['2024-01', '2024-02'],
      totals: [],
      by_month: [],
      by_subdivision: [],
      by_agent: [],
      by_channel: [],
    });
  });

  it('answers a Spanish 422 for bad input, never a 500', async () => {
    const cases: [string, string, string][] = [
      ['to=2026-03-01', 'from', SALES_REPORT_MESSAGES.from],
      ['from=2026-03-01', 'to', SALES_REPORT_MESSAGES.to],
      ['from=2026-02-30&to=2026-03-01', 'from', SALES_REPORT_MESSAGES.from],
      ['from=ayer&to=2026-03-01', 'from', SALES_REPORT_MESSAGES.from],
      ['from=2026-03-02&to=2026-03-01', 'to', SALES_REPORT_MESSAGES.order],
      ['from=2021-03-02&to=2026-03-02', 'to', SALES_REPORT_MESSAGES.tooLong],
      ['from=2026-01-01&to=2026-03-01&channel=TELEPATIA', 'channel', SALES_REPORT_MESSAGES.channel],
    ];
    for (const [query, field, message] of cases) {
      for (const path of ['/api/sales/report', '/api/sales/report.xlsx', '/api/sales/report.pdf']) {
        const res = await get(`${path}?${query}`);
        expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(422);
        expect((res.json() as { errors: Record<string, string[]> }).errors[field], query).toContain(message);
      }
    }
    // Five years less a day is allowed.
    expect((await get('/api/sales/report?from=2021-03-03&to=2026-03-02')).statusCode).toBe(200);
    for (const query of [
      'from=2026-01-01&to=2026-03-01&subdivision_id=abc',
      'from=2026-01-01&to=2026-03-01&agent_id=-1',
      'from=2026-01-01&to=2026-03-01&agent_id=99999999999999999999',
      'from=2026-01-01&to=2026-03-01&extra=1',
      'from=2026-01-01&from=2026-01-02&to=2026-03-01',
    ]) {
      const res = await get(`/api/sales/report?${query}`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(422);
    }
  });

  it('exports the same figures as a real .xlsx workbook and a PDF, named after the period', async () => {
    const xlsx = await get(`/api/sales/report.xlsx?from=2026-01-01&to=2026-03-02&subdivision_id=${pen}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.headers['content-disposition']).toBe('attachment; filename="reporte-ventas_2026-01-01_2026-03-02.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.rawPayload).buffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Resumen', 'Por mes', 'Por lotización', 'Por asesor', 'Por canal']);
    const summary = workbook.getWorksheet('Resumen')!;
    const texts = summary.getSheetValues().flatMap((row) => (Array.isArray(row) ? row.filter((v) => v !== undefined) : []));
    expect(texts).toContain('Reporte de ventas');
    expect(texts).toContain('Lotización: Los Viñedos');
    // The totals row: period, currency, count, total in soles (a number), area, price per m².
    expect(texts).toEqual(expect.arrayContaining(['PEN', 2, 78_000, 320, 243.75]));
    const byMonth = workbook.getWorksheet('Por mes')!;
    expect(byMonth.getRow(1).values).toEqual([
      undefined,
      'Mes',
      'Moneda',
      'Ventas',
      'Total vendido',
      'Área vendida (m²)',
      'Precio promedio por m²',
    ]);
    expect(byMonth.getRow(2).values).toEqual([undefined, 'ene 2026', 'PEN', 1, 30_000, 120, 250]);
    expect(byMonth.getRow(4).values).toEqual([undefined, 'mar 2026', 'PEN', 0, 0, 0]);

    const pdf = await get('/api/sales/report.pdf?from=2026-01-01&to=2026-03-02&channel=FACEBOOK');
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="reporte-ventas_2026-01-01_2026-03-02.pdf"');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('lists the filters choices: every subdivision with its currency and the staff who sold', async () => {
    const res = await get('/api/sales/report/options');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = salesReportOptionsResponseSchema.parse(res.json());
    expect(data.subdivisions).toEqual(
      expect.arrayContaining([
        { id: pen, name: 'Los Viñedos', currency: 'PEN' },
        { id: usd, name: 'Bosques del Norte', currency: 'USD' },
      ]),
    );
    expect(data.agents.map((a) => a.id).sort()).toEqual([sellerId, otherSellerId].sort());
  });

  it('needs the report permission: a seller without it gets 403, no session 401', async () => {
    for (const path of [
      '/api/sales/report?from=2026-01-01&to=2026-03-02',
      '/api/sales/report/options',
      '/api/sales/report.xlsx?from=2026-01-01&to=2026-03-02',
    ]) {
      expect((await get(path, seller)).statusCode, path).toBe(403);
    }
    expect((await ctx().app.inject({ method: 'GET', url: '/api/sales/report/options' })).statusCode).toBe(401);
  });
});
