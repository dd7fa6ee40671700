import { beforeAll, describe, expect, it } from 'vitest';
import { paymentsPageSchema } from '../../src/schemas/finanzas/payments';
import { expenseResponseSchema, expensesPageSchema } from '../../src/schemas/reportes/expenses';
import { REPORT_MESSAGES, reportSchema, type ReportQuery, type ReportRow } from '../../src/schemas/reportes/report';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { incomeExpensesReport } from '../../server/modules/reportes/ingresos-egresos.report';
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
 * Ingresos vs egresos (server/modules/reportes/ingresos-egresos.report.ts; docs/reports.md): each
 * row's income equals the total of the approved payments list (GET /api/payments?status=APROBADO
 * with the period) of that subdivision and currency, its expenses the expenses list's total (GET
 * /api/expenses with the period and subdivision), currencies never added together; on the demo
 * data and after a USD sale, its payments (a sale's, a reservation's, a pending one) and expenses.
 * The test clock's today in Lima is 2026-03-02.
 */

const PERIOD = { from: '2025-12-01', to: '2026-03-02' };

describe.each(dialects)('Ingresos vs egresos (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let token = '';

  const ok = async (url: string): Promise<unknown> => {
    const res = await ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const report = async (query: ReportQuery) =>
    reportSchema.parse(
      await incomeExpensesReport.build({
        deps: { db: db(), clock: ctx().clock },
        query,
        scope: { agentId: null },
        today: reportToday({ db: db(), clock: ctx().clock }),
      }),
    );
  /** Σ approved payments of the period per "subdivision name|currency", through the payments list (all pages). */
  const approvedPayments = async (from: string, to: string) => {
    const sums = new Map<string, number>();
    for (let page = 1; ; page++) {
      const body = paymentsPageSchema.parse(await ok(`/api/payments?status=APROBADO&from=${from}&to=${to}&per_page=100&page=${page}`));
      for (const p of body.data) {
        const key = `${p.sale?.subdivision_name ?? p.reservation?.subdivision_name ?? '?'}|${p.currency}`;
        sums.set(key, (sums.get(key) ?? 0) + p.amount);
      }
      if (page * 100 >= body.meta.total) return sums;
    }
  };
  /** Σ expenses of the period per currency of one subdivision, through the expenses list (all pages). */
  const listedExpenses = async (subdivisionId: number, from: string, to: string) => {
    const sums = new Map<string, number>();
    for (let page = 1; ; page++) {
      const body = expensesPageSchema.parse(
        await ok(`/api/expenses?subdivision_id=${subdivisionId}&from=${from}&to=${to}&per_page=100&page=${page}`),
      );
      for (const e of body.data) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
      if (page * 100 >= body.meta.total) return sums;
    }
  };
  const cell = (row: ReportRow | undefined, key: string) => row?.cells[key];

  /** Every row's income and expenses against the lists; totals per currency are the rows' sums. */
  const expectRowsEqualLists = async (query: ReportQuery & { from: string; to: string }) => {
    const r = await report(query);
    const payments = await approvedPayments(query.from, query.to);
    const subdivisions = await db().selectFrom('subdivisions').select(['id', 'name']).execute();
    const idOf = new Map(subdivisions.map((s) => [s.name, s.id]));
    for (const row of r.rows) {
      const name = String(cell(row, 'subdivision'));
      expect(cell(row, 'income'), name).toBe(payments.get(`${name}|${row.currency}`) ?? 0);
      const expenses = await listedExpenses(idOf.get(name)!, query.from, query.to);
      expect(cell(row, 'expenses'), name).toBe(expenses.get(row.currency!) ?? 0);
      expect(cell(row, 'margin')).toBe(Number(cell(row, 'income')) - Number(cell(row, 'expenses')));
    }
    if (query.subdivision_id === undefined) {
      // Every approved payment of the period is in some row.
      for (const [key, amount] of payments) {
        const [name, currency] = key.split('|');
        const row = r.rows.find((x) => cell(x, 'subdivision') === name && x.currency === currency);
        expect(cell(row, 'income'), key).toBe(amount);
      }
    }
    for (const total of r.totals) {
      const mine = r.rows.filter((x) => x.currency === total.currency);
      for (const key of ['income', 'expenses', 'margin'])
        expect(cell(total, key), `${total.currency} ${key}`).toBe(mine.reduce((s, x) => s + Number(cell(x, key)), 0));
    }
    expect(new Set(r.totals.map((t) => t.currency)).size).toBe(r.totals.length);
    return r;
  };

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    token = await createSession(db(), await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock }));
  }, SEED_TIMEOUT_MS);

  it('on the demo data: income is the approved payments list, expenses the expenses list, per subdivision', async () => {
    const r = await expectRowsEqualLists(PERIOD);
    expect(r.report).toBe('ingresos-egresos');
    expect([r.from, r.to]).toEqual([PERIOD.from, PERIOD.to]);
    expect(r.rows.length).toBeGreaterThan(0);
    expect(r.rows.some((row) => Number(cell(row, 'income')) > 0)).toBe(true);
    expect(r.rows.some((row) => Number(cell(row, 'expenses')) > 0)).toBe(true);
    expect(r.rows.every((row) => row.link === `/FINANZAS/Pagos?status=APROBADO&from=${PERIOD.from}&to=${PERIOD.to}`)).toBe(true);
    expect(r.chart?.kind).toBe('bar');
    expect(r.chart?.unit).toBe('money');
    expect(r.chart?.categories).toEqual([...new Set(r.rows.map((row) => String(cell(row, 'subdivision'))))]);
    expect(r.chart?.series.map((s) => s.name)).toEqual(['Ingresos', 'Egresos', 'Margen']);
    // Without a period: this month up to today.
    const month = await report({});
    expect([month.from, month.to]).toEqual(['2026-03-01', '2026-03-02']);
    await expectRowsEqualLists({ from: '2026-03-01', to: '2026-03-02' });
  });

  it('keeps currencies apart: a USD subdivision’s sale, reservation and expenses; pending payments left out', async () => {
    const usd = (await createSubdivision(db(), { name: 'AAA Dólares', currency: 'USD' })).id;
    const soldLot = await createLot(db(), usd, { block: 'U', number: '1', area_m2: 250 });
    const saleId = await insertCashSale(db(), {
      lotId: soldLot,
      subdivisionId: usd,
      saleDate: '2026-02-20',
      titularId: await createCrmCustomer(db()),
    });
    await db()
      .updateTable('sales')
      .set({ currency: 'USD', list_price: 5_000_000, final_price: 5_000_000, down_payment: 5_000_000 })
      .where('id', '=', saleId)
      .execute();
    const before = await report(PERIOD);
    await createPayment(db(), { saleId, amount: 7_700, approved: true, clock: ctx().clock });
    await createPayment(db(), { saleId, amount: 1_100, clock: ctx().clock }); // PENDIENTE: not income
    // A reservation's approved payment in the same subdivision.
    const reservedLot = await createLot(db(), usd, { block: 'U', number: '2', area_m2: 300 });
    const customerId = await createCrmCustomer(db());
    const stamp = ctx().clock.now().toISOString();
    const { id: reservationId } = await db()
      .insertInto('reservations')
      .values({
        customer_id: customerId,
        lot_id: reservedLot,
        agent_id: null,
        amount: 50_000,
        currency: 'USD',
        hold_days: 7,
        expires_at: stamp,
        conditions_accepted_at: stamp,
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const receipt = await db()
      .updateTable('receipt_counters')
      .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
      .where('series', '=', 'R001')
      .returning('last_number')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('payments')
      .values({
        sale_id: null,
        reservation_id: reservationId,
        customer_id: customerId,
        currency: 'USD',
        amount: 50_000,
        method: 'EFECTIVO',
        bank_account_id: null,
        wallet_id: null,
        operation_number: null,
        operation_date: '2026-02-21',
        note: null,
        source: 'OFICINA',
        registered_by_user_id: null,
        status: 'APROBADO',
        reviewed_at: stamp,
        receipt_series: 'R001',
        receipt_number: Number(receipt.last_number),
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    const expense = await ctx().app.inject({
      method: 'POST',
      url: '/api/expenses',
      headers: bearer(token),
      payload: { subdivision_id: usd, expense_date: '2026-02-22', concept: 'Topografía', amount: 20_000, currency: 'USD' },
    });
    expect(expense.statusCode, expense.body).toBe(201);
    expenseResponseSchema.parse(expense.json());

    const after = await expectRowsEqualLists(PERIOD);
    const row = after.rows.find((x) => cell(x, 'subdivision') === 'AAA Dólares');
    expect(row?.currency).toBe('USD');
    expect(row?.cells).toEqual({
      subdivision: 'AAA Dólares',
      currency: 'USD',
      income: 57_700,
      expenses: 20_000,
      margin: 37_700,
      area_m2: 250,
      margin_per_m2: Math.round(37_700 / 250),
    });
    // PEN totals did not move; USD has its own total row.
    const total = (r: typeof after, currency: string) => r.totals.find((t) => t.currency === currency);
    expect(total(after, 'PEN')).toEqual(total(before, 'PEN'));
    expect(cell(total(after, 'USD'), 'income')).toBe(Number(cell(total(before, 'USD'), 'income') ?? 0) + 57_700);
    const usdSeries = after.chart?.series.filter((s) => s.currency === 'USD') ?? [];
    expect(usdSeries.map((s) => s.name)).toEqual(['Ingresos', 'Egresos', 'Margen']);
    const at = after.chart!.categories.indexOf('AAA Dólares');
    expect(usdSeries.map((s) => s.values[at])).toEqual([57_700, 20_000, 37_700]);
    expect(after.chart?.series.find((s) => s.currency === 'PEN')?.values[at] ?? null).toBeNull();

    // Filtered by the subdivision: that row alone.
    const only = await expectRowsEqualLists({ ...PERIOD, subdivision_id: usd });
    expect(only.rows.map((x) => x.cells)).toEqual([row?.cells]);
    expect(only.filters).toContainEqual({ label: 'Lotización', value: 'AAA Dólares' });
    // A period without movement: a row of zeros in its currency, no area, no margin per m².
    const quiet = await report({ from: '2025-01-01', to: '2025-01-31', subdivision_id: usd });
    expect(quiet.rows.map((x) => [x.currency, x.cells])).toEqual([
      ['USD', { subdivision: 'AAA Dólares', currency: 'USD', income: 0, expenses: 0, margin: 0, area_m2: 0, margin_per_m2: null }],
    ]);
  });

  it('an unknown subdivision is a Spanish 422', async () => {
    await expect(report({ ...PERIOD, subdivision_id: 999_999 })).rejects.toMatchObject({
      statusCode: 422,
      errors: { subdivision_id: [REPORT_MESSAGES.unknownSubdivision] },
    });
  });
});
