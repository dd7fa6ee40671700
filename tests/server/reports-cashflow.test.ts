import { salesMonthLabel } from '../../src/schemas/comercio/sales-report';
import { beforeAll, describe, expect, it } from 'vitest';
import { instalmentTotalsResponseSchema } from '../../src/schemas/finanzas/instalments';
import { paymentsPageSchema } from '../../src/schemas/finanzas/payments';
import { reportSchema, type Report, type ReportQuery, type ReportRow } from '../../src/schemas/reportes/report';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { adjustByRate, cashFlowReport, cashFlowWindows, collectionRates } from '../../server/modules/reportes/flujo-caja.report';
import { reportToday } from '../../server/modules/reportes/report-definition';
import {
  createCrmCustomer,
  createLot,
  createPayment,
  createSession,
  createStaff,
  createSubdivision,
  insertCashSale,
} from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

/**
 * Flujo de caja proyectado (docs/reports.md "Flujo de caja proyectado";
 * server/modules/reportes/flujo-caja.report.ts), built directly: each month's expected money equals
 * Registro de Cuotas' totals of that month's due dates (the balance from this month on, the amount
 * in closed months), the arrears row its totals before this month, each month's collected money the
 * Pagos list's APROBADO total of that month; the historical rates on a hand-built schedule (a
 * payment 45 days late counts within 60 and 90 days, not 30; only approved money counts; ANULADA
 * sales left out); soles and dollars never added. The test clock's today in Lima is 2026-03-02.
 */

const TODAY = '2026-03-02';

describe.each(dialects)('Flujo de caja proyectado (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';
  const deps = () => ({ db: db(), clock: ctx().clock });
  /** The report as the wire reads it (reportSchema: every row must survive the parse). */
  const build = async (query: ReportQuery = {}, agentId: number | null = null): Promise<Report> => {
    const output = await cashFlowReport.build({ deps: deps(), query, scope: { agentId }, today: reportToday(deps()) });
    const report = reportSchema.parse(output);
    expect(report.rows.length).toBe(output.rows.length);
    return report;
  };
  const ok = async (url: string): Promise<unknown> => {
    const res = await ctx().app.inject({ method: 'GET', url, headers: bearer(manager) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  /** Registro de Cuotas' totals per currency for due dates `from`…`to` (either open), optionally one subdivision. */
  const registro = async (range: { from?: string; to: string }, subdivision?: number) => {
    const params = new URLSearchParams({ due_to: range.to });
    if (range.from) params.set('due_from', range.from);
    if (subdivision !== undefined) params.set('subdivision_id', String(subdivision));
    return instalmentTotalsResponseSchema.parse(await ok(`/api/instalments/totals?${params.toString()}`)).data;
  };
  /** Σ amount per currency of every APROBADO payment the Pagos list shows for `from`…`to` (all pages). */
  const approvedPayments = async (from: string, to: string) => {
    const sums: Record<string, number> = {};
    for (let page = 1; ; page++) {
      const body = paymentsPageSchema.parse(await ok(`/api/payments?status=APROBADO&from=${from}&to=${to}&per_page=100&page=${page}`));
      for (const p of body.data) sums[p.currency] = (sums[p.currency] ?? 0) + p.amount;
      if (page * 100 >= body.meta.total) return sums;
    }
  };
  /** Σ of a money column over rows of `currency` (null cells as none). */
  const sum = (rows: readonly ReportRow[], key: string, currency: string) =>
    rows.filter((r) => r.currency === currency).reduce((n, r) => n + Number(r.cells[key] ?? 0), 0);
  const monthRange = (month: string) => {
    const [y, m] = month.split('-').map(Number);
    const last = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
    return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
  };
  /** The report's rows and Registro de Cuotas / Pagos agree month by month, per currency. */
  const expectListsAgree = async (report: Report, subdivision?: number) => {
    const w = cashFlowWindows(TODAY);
    for (const month of w.months) {
      const rows = report.rows.filter((r) => r.cells.month === month);
      const totals = await registro(monthRange(month), subdivision);
      for (const currency of ['PEN', 'USD'] as const) {
        const t = totals.find((x) => x.currency === currency);
        const want = month < w.currentMonth ? (t?.amount ?? 0) : (t?.balance ?? 0);
        expect(sum(rows, 'expected', currency), `${month} ${currency} esperado`).toBe(want);
      }
    }
    const before = await registro({ to: '2026-02-28' }, subdivision);
    const overdue = report.rows.filter((r) => r.cells.month === null);
    for (const currency of ['PEN', 'USD'] as const)
      expect(sum(overdue, 'expected', currency), `vencido ${currency}`).toBe(before.find((x) => x.currency === currency)?.balance ?? 0);
    if (subdivision !== undefined) return;
    for (const month of w.months.filter((m) => m <= w.currentMonth)) {
      const paid = await approvedPayments(monthRange(month).from, monthRange(month).to);
      const rows = report.rows.filter((r) => r.cells.month === month);
      for (const currency of ['PEN', 'USD'] as const)
        expect(sum(rows, 'collected', currency), `${month} ${currency} cobrado`).toBe(paid[currency] ?? 0);
    }
  };

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    manager = await createSession(db(), await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock }));
  }, SEED_TIMEOUT_MS);

  it('demo: each month = Registro de Cuotas of its due dates, arrears = before this month, collected = Pagos APROBADO of the month', async () => {
    expect(reportToday(deps())).toBe(TODAY);
    const report = await build();
    expect(report.report).toBe('flujo-caja');
    expect(report.row_count).toBe(report.rows.length);
    const segments = new Set(report.rows.map((r) => r.cells.segment));
    expect(segments.has('Histórico')).toBe(true);
    expect(segments.has('Proyección')).toBe(true);
    await expectListsAgree(report);
    // Months after the current one carry no collection nor difference; closed months a difference.
    for (const r of report.rows) {
      expect(r.currency === 'PEN' || r.currency === 'USD').toBe(true);
      const month = r.cells.month as string | null;
      if (month !== null && month > '2026-03') expect([r.cells.collected, r.cells.difference]).toEqual([null, null]);
      if (month === '2026-03') expect(r.cells.difference).toBeNull();
      if (month !== null && month < '2026-03' && r.cells.projected !== null)
        expect(r.cells.difference).toBe(Number(r.cells.collected) - Number(r.cells.projected));
    }
    // Totals: one row per currency, each column's sum over that currency's rows (never PEN + USD).
    const currencies = [...new Set(report.rows.map((r) => r.currency))];
    expect(report.totals.map((t) => t.currency).sort()).toEqual(currencies.sort());
    for (const t of report.totals)
      for (const key of ['expected', 'collected'])
        expect(t.cells[key] ?? 0, `${t.currency} ${key}`).toBe(sum(report.rows, key, t.currency!));
    // The chart: 36 months, three series per currency, the collected line empty after this month.
    expect(report.chart?.categories).toEqual(cashFlowWindows(TODAY).months.map(salesMonthLabel));
    expect(report.chart?.series.length).toBe(currencies.length * 3);
    for (const s of report.chart!.series) {
      expect(s.currency).toBeDefined();
      if (s.line) expect(s.values.slice(13).every((v) => v === null)).toBe(true);
    }
    expect(report.notes.some((n) => n.startsWith('Tasa histórica de cobro (S/): 30 días'))).toBe(true);
  });

  it('one subdivision: its months equal Registro de Cuotas filtered by it; an unknown one is a 422', async () => {
    const all = await build();
    const counts = new Map<string, number>();
    for (const r of all.rows) counts.set(String(r.cells.subdivision), (counts.get(String(r.cells.subdivision)) ?? 0) + 1);
    const name = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const id = (await db().selectFrom('subdivisions').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const report = await build({ subdivision_id: id });
    expect(report.filters).toContainEqual({ label: 'Lotización', value: name });
    expect(report.rows.every((r) => r.cells.subdivision === name)).toBe(true);
    expect(report.rows.map((r) => [r.cells.month, r.currency, r.cells.expected, r.cells.collected])).toEqual(
      all.rows.filter((r) => r.cells.subdivision === name).map((r) => [r.cells.month, r.currency, r.cells.expected, r.cells.collected]),
    );
    await expectListsAgree(report, id);
    await expect(build({ subdivision_id: 999_999 })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('rates on a hand-built schedule: 45 days late counts in 60 and 90, not 30; only approved money; currencies apart', async () => {
    const subdivisionId = (await createSubdivision(db(), { name: 'ZZ Flujo de caja', currency: 'USD' })).id;
    const agentId = (await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock })).id;
    const sale = async (currency: 'PEN' | 'USD', status: 'EN_CUOTAS' | 'ANULADA' = 'EN_CUOTAS') => {
      const lotId = await createLot(db(), subdivisionId, { block: 'F', number: String(Math.floor(Math.random() * 1e6)) });
      const id = await insertCashSale(db(), {
        lotId,
        subdivisionId,
        agentId,
        titularId: await createCrmCustomer(db()),
        saleDate: '2025-01-10',
        type: 'FINANCIADO',
        status,
      });
      await db().updateTable('sales').set({ currency }).where('id', '=', id).execute();
      return id;
    };
    const usd = await sale('USD');
    const pen = await sale('PEN');
    const annulled = await sale('USD', 'ANULADA');
    const instalment = async (saleId: number, number: number, due: string, amount: number, paid: number, status: string) =>
      (
        await db()
          .insertInto('sale_instalments')
          .values({ sale_id: saleId, kind: 'CUOTA', number, due_date: due, amount, capital: amount, interest: 0, paid, status })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const pay = async (saleId: number, instalmentId: number, amount: number, date: string, status: 'APROBADO' | 'ANULADO' = 'APROBADO') => {
      const id = await createPayment(db(), { saleId, amount, approved: true, clock: ctx().clock });
      await db()
        .updateTable('payments')
        .set({ operation_date: date, status, annul_reason: status === 'ANULADO' ? 'Prueba' : null })
        .where('id', '=', id)
        .execute();
      await db()
        .insertInto('payment_allocations')
        .values({ payment_id: id, instalment_id: instalmentId, to_capital: amount, to_late_fee: 0 })
        .execute();
    };
    // Due in the rates' window (2024-12-03 … 2025-12-02): 200 000 in all.
    const a = await instalment(usd, 1, '2025-06-10', 100_000, 100_000, 'PAGADA');
    await pay(usd, a, 100_000, '2025-07-25'); // 45 days late: within 60 and 90, not 30
    const b = await instalment(usd, 2, '2025-07-10', 50_000, 50_000, 'PAGADA');
    await pay(usd, b, 50_000, '2025-07-05'); // early
    const c = await instalment(usd, 3, '2025-08-10', 30_000, 20_000, 'VENCIDA');
    await pay(usd, c, 20_000, '2025-11-20'); // 102 days late: none
    const d = await instalment(usd, 4, '2025-09-10', 20_000, 0, 'VENCIDA');
    await pay(usd, d, 20_000, '2025-09-10', 'ANULADO'); // not approved money
    // This month and the next.
    const e = await instalment(usd, 5, '2026-03-20', 40_000, 10_000, 'PARCIAL');
    await pay(usd, e, 10_000, '2026-03-01');
    await instalment(usd, 6, '2026-04-15', 80_002, 0, 'PENDIENTE');
    await instalment(pen, 1, '2026-04-15', 70_000, 0, 'PENDIENTE');
    // An ANULADA sale's instalment is left out everywhere.
    await instalment(annulled, 1, '2025-06-10', 999_999, 0, 'VENCIDA');
    await instalment(annulled, 2, '2026-04-15', 999_999, 0, 'PENDIENTE');

    const w = cashFlowWindows(TODAY);
    expect([w.rateFrom, w.rateTo]).toEqual(['2024-12-03', '2025-12-02']);
    const rates = await collectionRates(db(), { subdivisionId, currency: undefined, agentId: null }, w.rateFrom, w.rateTo);
    expect(rates.get('USD')).toEqual({
      currency: 'USD',
      from: '2024-12-03',
      to: '2025-12-02',
      due: 200_000,
      collected: { 30: 50_000, 60: 150_000, 90: 150_000 },
    });
    expect(rates.has('PEN')).toBe(false);

    const report = await build({ subdivision_id: subdivisionId });
    const row = (month: string | null, currency: string) => {
      const found = report.rows.filter((r) => r.cells.month === month && r.currency === currency);
      expect(found.length, `${month} ${currency}`).toBe(1);
      const cells = found[0]!.cells;
      return [cells.expected, cells.projected, cells.collected, cells.difference];
    };
    expect(row('2025-06', 'USD')).toEqual([100_000, 75_000, 0, -75_000]);
    expect(row('2025-07', 'USD')).toEqual([50_000, 37_500, 150_000, 112_500]);
    expect(row('2025-11', 'USD')).toEqual([0, 0, 20_000, 20_000]);
    expect(row('2026-03', 'USD')).toEqual([30_000, 22_500, 10_000, null]);
    expect(row('2026-04', 'USD')).toEqual([80_002, 60_002, null, null]); // 60 001.5 rounded half-up
    expect(row('2026-04', 'PEN')).toEqual([70_000, null, null, null]); // no PEN history: not adjusted
    expect(row(null, 'USD')).toEqual([30_000, null, null, null]); // 10 000 of C and 20 000 of D
    expect(report.rows.find((r) => r.cells.month === null)?.link).toBe(
      `/FINANZAS/RegistroCuotas?due_to=2026-02-28&subdivision_id=${subdivisionId}`,
    );
    expect(report.notes).toContain(
      'Tasa histórica de cobro (US$): 30 días 25.0 % · 60 días 75.0 % · 90 días 75.0 % (cuotas vencidas del 2024-12-03 al 2025-12-02)',
    );
    expect(report.notes.some((n) => n.startsWith('Tasa histórica de cobro (S/): sin cuotas vencidas'))).toBe(true);
    // Soles and dollars apart: totals per currency, chart series per currency.
    expect(report.totals.map((t) => [t.currency, t.cells.expected])).toEqual([
      ['PEN', 70_000],
      ['USD', 100_000 + 50_000 + 30_000 + 20_000 + 30_000 + 80_002 + 30_000],
    ]);
    const april = report.chart!.categories.indexOf('abr 2026');
    expect(report.chart!.series.filter((s) => s.name.startsWith('Esperado')).map((s) => [s.currency, s.values[april]])).toEqual([
      ['PEN', 70_000],
      ['USD', 80_002],
    ]);
    await expectListsAgree(report, subdivisionId);
    // The currency filter keeps one currency; the agent scope only the agent's sales (here: all of the subdivision's).
    expect(new Set((await build({ subdivision_id: subdivisionId, currency: 'PEN' })).rows.map((r) => r.currency))).toEqual(
      new Set(['PEN']),
    );
    const scoped = await build({}, agentId);
    expect(scoped.rows.map((r) => r.cells)).toEqual(report.rows.map((r) => r.cells));
    const nobody = (await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock })).id;
    expect((await build({}, nobody)).rows).toEqual([]);
  });

  it('adjustByRate rounds half-up in integers and leaves a currency without history unadjusted', () => {
    const rate = { currency: 'PEN' as const, from: '', to: '', due: 3, collected: { 30: 1, 60: 2, 90: 2 } };
    expect(adjustByRate(100, rate)).toBe(67); // 66.67
    expect(adjustByRate(3, { ...rate, collected: { 30: 1, 60: 1, 90: 1 } })).toBe(1);
    expect(adjustByRate(999_999_999_999, { ...rate, due: 1_000_000_000_000, collected: { 30: 0, 60: 0, 90: 999_999_999_999 } })).toBe(
      999_999_999_998,
    );
    expect(adjustByRate(100, { ...rate, due: 0 })).toBeNull();
    expect(adjustByRate(100, undefined)).toBeNull();
  });
});
