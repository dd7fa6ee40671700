import { beforeAll, describe, expect, it } from 'vitest';
import { DAYS_LATE_BUCKETS, instalmentTotalsResponseSchema, type InstalmentTotals } from '../../src/schemas/finanzas/instalments';
import { reportSchema, type ReportOutput, type ReportQuery, type ReportRow } from '../../src/schemas/reportes/report';
import type { SaleStatus } from '../../src/schemas/comercio/sales';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { overduePortfolioReport } from '../../server/modules/reportes/cartera-morosa.report';
import { portfolioValueReport } from '../../server/modules/reportes/valor-cartera.report';
import type { ReportDefinition } from '../../server/modules/reportes/report-definition';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision, insertCashSale } from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

/**
 * Cartera morosa and Valor de cartera (docs/reports.md; server/modules/reportes/): each figure
 * equals the sum over the list it summarises — Registro de Cuotas' own totals endpoint with the
 * filters of the row's link, or of the bucket — on the demo data and after rows added here, on both
 * dialects; currencies never added; the filters narrow; ended sales and settled customers left out.
 * The test clock's today in Lima is 2026-03-02 (the demo is seeded on that clock).
 */

const TODAY = '2026-03-02';
/** Due dates by days late on TODAY. */
const DUE = { future: '2026-04-01', late10: '2026-02-20', late45: '2026-01-16', late75: '2025-12-17', late120: '2025-11-02' };
const LATE = ['1_30', '31_60', '61_90', 'MAS_90'] as const;
const CURRENCIES = ['PEN', 'USD'] as const;

/** A report's answer with its rows typed (the input shape's `rows` read as unknown). */
type Out = Omit<ReportOutput, 'rows'> & { rows: ReportRow[] };

type Row = {
  due: string;
  amount: number;
  interest?: number;
  paid?: number;
  status: 'PENDIENTE' | 'PARCIAL' | 'PAGADA' | 'VENCIDA';
  fee?: number;
};

describe.each(dialects)('Cartera morosa and Valor de cartera (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';
  let lotNumber = 0;

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    manager = await createSession(db(), await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock }));
  }, SEED_TIMEOUT_MS);

  const build = async (report: ReportDefinition, query: ReportQuery = {}): Promise<Out> => {
    const out = await report.build({ deps: { db: db(), clock: ctx().clock }, query, scope: { agentId: null }, today: TODAY });
    // The answer reads as the wire's shape, every row kept.
    expect(reportSchema.parse(out).rows).toHaveLength(out.rows.length);
    expect(out.row_count).toBe(out.rows.length);
    return out as Out;
  };

  /** Registro de Cuotas' totals (GET /api/instalments/totals) for `query`, by currency. */
  const register = async (query: string): Promise<Partial<Record<'PEN' | 'USD', InstalmentTotals>>> => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/instalments/totals?${query}`, headers: bearer(manager) });
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    return Object.fromEntries(instalmentTotalsResponseSchema.parse(res.json()).data.map((t) => [t.currency, t]));
  };

  const money = (row: { cells: Record<string, unknown> } | undefined, key: string) => Number(row?.cells[key] ?? 0);
  const totalOf = (out: Out, currency: string) => out.totals?.find((t) => t.currency === currency);

  /** A sale of `holders` (the first TITULAR) in `subdivisionId` with its schedule `rows` (CUOTA 1…n). */
  const addSale = async (input: {
    subdivisionId: number;
    holders: number[];
    rows: Row[];
    usd?: boolean;
    agentId?: number | null;
    status?: SaleStatus;
  }): Promise<number> => {
    lotNumber += 1;
    const lotId = await createLot(db(), input.subdivisionId, { block: 'R', number: String(lotNumber) });
    const saleId = await insertCashSale(db(), {
      lotId,
      subdivisionId: input.subdivisionId,
      agentId: input.agentId ?? null,
      saleDate: '2025-10-01',
      titularId: input.holders[0],
      ...(input.status ? { status: input.status } : {}),
    });
    if (input.usd) await db().updateTable('sales').set({ currency: 'USD' }).where('id', '=', saleId).execute();
    for (const [i, customerId] of input.holders.slice(1).entries())
      await db()
        .insertInto('sale_holders')
        .values({ sale_id: saleId, customer_id: customerId, role: 'CONYUGE', share_percent: '50.00', position: i + 1 })
        .execute();
    for (const [i, r] of input.rows.entries())
      await db()
        .insertInto('sale_instalments')
        .values({
          sale_id: saleId,
          kind: 'CUOTA',
          number: i + 1,
          due_date: r.due,
          amount: r.amount,
          capital: r.amount - (r.interest ?? 0),
          interest: r.interest ?? 0,
          paid: r.paid ?? 0,
          status: r.status,
          late_fee_accrued: r.fee ?? 0,
        })
        .execute();
    return saleId;
  };

  /** Cartera morosa's totals = the register's: per bucket `days_late=<bucket>`, total and late fee `status=VENCIDA` (with `extra` filters). */
  const expectOverdueTotalsEqualRegister = async (out: Out, extra = '') => {
    const vencida = await register(`status=VENCIDA${extra}`);
    for (const currency of CURRENCIES) {
      const total = totalOf(out, currency);
      expect(money(total, 'overdue'), currency).toBe(vencida[currency]?.balance ?? 0);
      expect(money(total, 'late_fee'), currency).toBe(vencida[currency]?.late_fee_due ?? 0);
      for (const bucket of LATE) {
        const list = await register(`days_late=${bucket}${extra}`);
        expect(money(total, `b_${bucket}`), `${currency} ${bucket}`).toBe(list[currency]?.balance ?? 0);
      }
    }
    // The chart: the buckets' labels, one series per currency with the totals' figures.
    expect(out.chart?.kind).toBe('stacked');
    expect(out.chart?.unit).toBe('money');
    expect(out.chart?.categories).toEqual(['1–30 días', '31–60 días', '61–90 días', 'Más de 90 días']);
    expect(out.chart?.series.map((s) => s.currency)).toEqual(out.totals?.map((t) => t.currency));
    for (const s of out.chart?.series ?? [])
      expect(s.values).toEqual(LATE.map((bucket) => money(totalOf(out, s.currency ?? ''), `b_${bucket}`)));
  };

  /** A Cartera morosa row = the register filtered by its link (per bucket with `days_late` too). */
  const expectRowEqualsItsList = async (row: ReportRow) => {
    expect(row.link).toMatch(/^\/FINANZAS\/RegistroCuotas\?customer_id=\d+&status=VENCIDA(&subdivision_id=\d+)?$/);
    const query = row.link!.split('?')[1]!;
    const currency = row.currency!;
    const list = await register(query);
    expect(money(row, 'overdue')).toBe(list[currency]?.balance);
    expect(money(row, 'late_fee')).toBe(list[currency]?.late_fee_due);
    for (const bucket of LATE)
      expect(money(row, `b_${bucket}`), bucket).toBe((await register(`${query}&days_late=${bucket}`))[currency]?.balance ?? 0);
  };

  /** Valor de cartera's totals = the register's: per bucket `days_late=<bucket>` (Al día too), total pending = unfiltered balance. */
  const expectValueTotalsEqualRegister = async (out: Out, extra = '') => {
    const all = await register(extra.replace(/^&/, ''));
    for (const currency of CURRENCIES) {
      const total = totalOf(out, currency);
      expect(money(total, 'total'), currency).toBe(all[currency]?.balance ?? 0);
      expect(money(total, 'capital') + money(total, 'interest'), currency).toBe(money(total, 'total'));
      for (const bucket of DAYS_LATE_BUCKETS) {
        const list = await register(`days_late=${bucket}${extra}`);
        expect(money(total, `b_${bucket}`), `${currency} ${bucket}`).toBe(list[currency]?.balance ?? 0);
      }
    }
  };

  describe('Cartera morosa', () => {
    it('on the demo data: totals per bucket and currency = Registro de Cuotas; each row = the register filtered by its link', async () => {
      const out = await build(overduePortfolioReport);
      expect(out.report).toBe('cartera-morosa');
      expect(out.title).toBe('Cartera morosa');
      expect(out.to).toBe(TODAY);
      expect(out.columns.map((c) => c.key)).toEqual([
        'customer',
        'document',
        'phone',
        'b_1_30',
        'b_31_60',
        'b_61_90',
        'b_MAS_90',
        'overdue',
        'late_fee',
        'max_days_late',
      ]);
      expect(out.rows.length).toBeGreaterThan(0);
      expect(out.notes?.some((n) => n.includes('anuladas y resueltas'))).toBe(true);
      await expectOverdueTotalsEqualRegister(out);
      // Sorted by the money overdue, most first; every row owes something; its buckets add up to it.
      const overdue = out.rows.map((r) => money(r, 'overdue'));
      expect(overdue).toEqual([...overdue].sort((a, b) => b - a));
      for (const r of out.rows) {
        expect(money(r, 'overdue')).toBeGreaterThan(0);
        expect(LATE.reduce((sum, bucket) => sum + money(r, `b_${bucket}`), 0)).toBe(money(r, 'overdue'));
        expect(r.cells.customer).not.toBe('');
      }
      for (const r of [...out.rows.slice(0, 3), out.rows.at(-1)!]) await expectRowEqualsItsList(r);
    });

    it('a new late customer: name, document, phone, buckets, late fee, most days late, the link; settled and ended sales left out', async () => {
      const subdivision = (await createSubdivision(db(), { name: 'Morosa PEN', currency: 'PEN' })).id;
      const late = await createCrmCustomer(db(), {
        name: 'Zoila',
        surname: 'Morosa Quispe',
        document_number: '41234567',
        phone: '987000111',
      });
      const settled = await createCrmCustomer(db(), { name: 'Pagador', surname: 'Puntual' });
      const annulled = await createCrmCustomer(db(), { name: 'Anulado', surname: 'Sin Deuda' });
      const resolved = await createCrmCustomer(db(), { name: 'Resuelto', surname: 'Sin Deuda' });
      await addSale({
        subdivisionId: subdivision,
        holders: [late],
        rows: [
          { due: DUE.late120, amount: 50_000, status: 'VENCIDA', fee: 7_000 },
          { due: DUE.late75, amount: 50_000, paid: 20_000, status: 'VENCIDA', fee: 3_000 },
          { due: DUE.late45, amount: 50_000, status: 'VENCIDA' },
          { due: DUE.late10, amount: 50_000, status: 'VENCIDA' },
          { due: DUE.future, amount: 50_000, status: 'PENDIENTE' },
        ],
      });
      await addSale({
        subdivisionId: subdivision,
        holders: [settled],
        rows: [
          { due: DUE.late45, amount: 50_000, paid: 50_000, status: 'PAGADA' },
          { due: DUE.future, amount: 50_000, status: 'PENDIENTE' },
        ],
      });
      for (const [customer, status] of [
        [annulled, 'ANULADA'],
        [resolved, 'RESUELTA'],
      ] as const)
        await addSale({
          subdivisionId: subdivision,
          holders: [customer],
          status,
          rows: [{ due: DUE.late45, amount: 90_000, status: 'VENCIDA' }],
        });

      const out = await build(overduePortfolioReport, { subdivision_id: subdivision });
      expect(out.filters).toEqual([{ label: 'Lotización', value: 'Morosa PEN' }]);
      expect(out.rows).toEqual([
        {
          cells: {
            customer: 'Zoila Morosa Quispe',
            document: '41234567',
            phone: '987000111',
            b_1_30: 50_000,
            b_31_60: 50_000,
            b_61_90: 30_000,
            b_MAS_90: 50_000,
            overdue: 180_000,
            late_fee: 10_000,
            max_days_late: 120,
          },
          currency: 'PEN',
          link: `/FINANZAS/RegistroCuotas?customer_id=${late}&status=VENCIDA&subdivision_id=${subdivision}`,
        },
      ]);
      await expectRowEqualsItsList(out.rows[0]!);
      await expectOverdueTotalsEqualRegister(out, `&subdivision_id=${subdivision}`);
      // The whole portfolio still equals the register after the writes (kept sums follow its revision).
      const all = await build(overduePortfolioReport);
      await expectOverdueTotalsEqualRegister(all);
      for (const customer of [settled, annulled, resolved])
        expect(all.rows.some((r) => r.link?.includes(`customer_id=${customer}&`))).toBe(false);
      expect(all.rows.filter((r) => r.link === `/FINANZAS/RegistroCuotas?customer_id=${late}&status=VENCIDA`)).toHaveLength(1);
    });

    it('currencies are never added: a customer late in soles and dollars has a row per currency; totals per currency; the currency filter', async () => {
      const pen = (await createSubdivision(db(), { name: 'Morosa Soles', currency: 'PEN' })).id;
      const usd = (await createSubdivision(db(), { name: 'Morosa Dólares', currency: 'USD' })).id;
      const both = await createCrmCustomer(db(), { name: 'Bimonetario', surname: 'Tardío' });
      const before = await build(overduePortfolioReport);
      await addSale({ subdivisionId: pen, holders: [both], rows: [{ due: DUE.late10, amount: 11_100, status: 'VENCIDA' }] });
      await addSale({ subdivisionId: usd, holders: [both], usd: true, rows: [{ due: DUE.late45, amount: 22_200, status: 'VENCIDA' }] });
      const out = await build(overduePortfolioReport);
      const mine = out.rows.filter((r) => r.link === `/FINANZAS/RegistroCuotas?customer_id=${both}&status=VENCIDA`);
      expect(mine.map((r) => [r.currency, money(r, 'overdue')]).sort()).toEqual([
        ['PEN', 11_100],
        ['USD', 22_200],
      ]);
      for (const r of mine) await expectRowEqualsItsList(r);
      expect(money(totalOf(out, 'USD'), 'overdue')).toBe(money(totalOf(before, 'USD'), 'overdue') + 22_200);
      expect(money(totalOf(out, 'USD'), 'b_31_60')).toBe(money(totalOf(before, 'USD'), 'b_31_60') + 22_200);
      expect(money(totalOf(out, 'PEN'), 'overdue')).toBe(money(totalOf(before, 'PEN'), 'overdue') + 11_100);
      await expectOverdueTotalsEqualRegister(out);
      expect(out.chart?.series.map((s) => s.name)).toEqual(['PEN', 'USD']);

      const dollars = await build(overduePortfolioReport, { currency: 'USD' });
      expect(dollars.rows.every((r) => r.currency === 'USD')).toBe(true);
      expect(dollars.totals?.map((t) => t.currency)).toEqual(['USD']);
      expect(money(totalOf(dollars, 'USD'), 'overdue')).toBe(money(totalOf(out, 'USD'), 'overdue'));
      expect(dollars.filters).toEqual([{ label: 'Moneda', value: 'Dólares (US$)' }]);
    });

    it('a sale with two holders sits in both holders’ rows and once in the totals', async () => {
      const subdivision = (await createSubdivision(db(), { name: 'Morosa Conyugal' })).id;
      const husband = await createCrmCustomer(db(), { name: 'Esposo', surname: 'Moroso' });
      const wife = await createCrmCustomer(db(), { name: 'Esposa', surname: 'Morosa' });
      await addSale({
        subdivisionId: subdivision,
        holders: [husband, wife],
        rows: [{ due: DUE.late75, amount: 33_300, status: 'VENCIDA' }],
      });
      const out = await build(overduePortfolioReport, { subdivision_id: subdivision });
      expect(out.rows.map((r) => money(r, 'overdue'))).toEqual([33_300, 33_300]);
      expect(money(totalOf(out, 'PEN'), 'overdue')).toBe(33_300);
      for (const r of out.rows) await expectRowEqualsItsList(r);
    });

    it('the agent filter narrows to that agent’s sales', async () => {
      const agent = await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock });
      const subdivision = (await createSubdivision(db(), { name: 'Morosa Asesor' })).id;
      const hers = await createCrmCustomer(db(), { name: 'Cliente', surname: 'Del Asesor' });
      const other = await createCrmCustomer(db(), { name: 'Cliente', surname: 'De Otro' });
      await addSale({
        subdivisionId: subdivision,
        agentId: agent.id,
        holders: [hers],
        rows: [{ due: DUE.late10, amount: 44_400, status: 'VENCIDA' }],
      });
      await addSale({ subdivisionId: subdivision, holders: [other], rows: [{ due: DUE.late10, amount: 55_500, status: 'VENCIDA' }] });
      const out = await build(overduePortfolioReport, { agent_id: agent.id });
      expect(out.rows.map((r) => [r.cells.customer, money(r, 'overdue')])).toEqual([['Cliente Del Asesor', 44_400]]);
      expect(out.totals?.map((t) => [t.currency, money(t, 'overdue'), money(t, 'b_1_30')])).toEqual([['PEN', 44_400, 44_400]]);
      expect(out.filters?.[0]?.label).toBe('Asesor');
      const all = await build(overduePortfolioReport);
      expect(all.rows.length).toBeGreaterThan(out.rows.length);
    });
  });

  describe('Valor de cartera', () => {
    it('on the demo data: totals per bucket (Al día too) and currency = Registro de Cuotas; each subdivision = the register filtered by it', async () => {
      const out = await build(portfolioValueReport);
      expect(out.report).toBe('valor-cartera');
      expect(out.title).toBe('Valor de cartera');
      expect(out.columns.map((c) => c.key)).toEqual([
        'subdivision',
        'capital',
        'interest',
        'total',
        'b_AL_DIA',
        'b_1_30',
        'b_31_60',
        'b_61_90',
        'b_MAS_90',
      ]);
      expect(out.rows.length).toBeGreaterThan(0);
      await expectValueTotalsEqualRegister(out);
      for (const r of out.rows) {
        expect(money(r, 'total')).toBeGreaterThan(0);
        expect(money(r, 'capital') + money(r, 'interest')).toBe(money(r, 'total'));
        expect(DAYS_LATE_BUCKETS.reduce((sum, bucket) => sum + money(r, `b_${bucket}`), 0)).toBe(money(r, 'total'));
        expect(r.link).toMatch(/^\/FINANZAS\/RegistroCuotas\?subdivision_id=\d+$/);
      }
      for (const r of out.rows.slice(0, 3)) {
        const query = r.link!.split('?')[1]!;
        expect(money(r, 'total')).toBe((await register(query))[r.currency!]?.balance);
        for (const bucket of DAYS_LATE_BUCKETS)
          expect(money(r, `b_${bucket}`), bucket).toBe((await register(`${query}&days_late=${bucket}`))[r.currency!]?.balance ?? 0);
      }
      // The chart: subdivisions along the axis, a series per bucket and currency.
      expect(out.chart?.kind).toBe('stacked');
      expect(out.chart?.categories).toEqual([...new Set(out.rows.map((r) => String(r.cells.subdivision)))]);
      expect(out.chart?.series.length).toBe(DAYS_LATE_BUCKETS.length * (out.totals?.length ?? 0));
    });

    it('capital and interest: what was paid on a row pays its interest first; only live sales; a USD subdivision apart', async () => {
      const subdivision = (await createSubdivision(db(), { name: 'Valor PEN' })).id;
      const usd = (await createSubdivision(db(), { name: 'Valor USD', currency: 'USD' })).id;
      const buyer = await createCrmCustomer(db());
      const before = await build(portfolioValueReport);
      await addSale({
        subdivisionId: subdivision,
        holders: [buyer],
        rows: [
          { due: DUE.late45, amount: 60_000, interest: 10_000, status: 'VENCIDA' },
          { due: DUE.future, amount: 120_000, interest: 20_000, paid: 15_000, status: 'PARCIAL' },
          { due: DUE.future, amount: 120_000, interest: 20_000, paid: 25_000, status: 'PARCIAL' },
          { due: DUE.late10, amount: 120_000, interest: 20_000, paid: 120_000, status: 'PAGADA' },
        ],
      });
      for (const status of ['ANULADA', 'RESUELTA'] as const)
        await addSale({
          subdivisionId: subdivision,
          holders: [buyer],
          status,
          rows: [{ due: DUE.late45, amount: 99_000, interest: 9_000, status: 'VENCIDA' }],
        });
      await addSale({
        subdivisionId: usd,
        holders: [buyer],
        usd: true,
        rows: [{ due: DUE.late120, amount: 70_000, interest: 5_000, status: 'VENCIDA' }],
      });

      const out = await build(portfolioValueReport, { subdivision_id: subdivision });
      expect(out.rows).toEqual([
        {
          cells: {
            subdivision: 'Valor PEN',
            // Interest: 10 000 + (20 000 − 15 000) + 0 (paid 25 000 ≥ 20 000); capital: the rest.
            capital: 50_000 + 100_000 + 95_000,
            interest: 15_000,
            total: 60_000 + 105_000 + 95_000,
            b_AL_DIA: 200_000,
            b_1_30: 0,
            b_31_60: 60_000,
            b_61_90: 0,
            b_MAS_90: 0,
          },
          currency: 'PEN',
          link: `/FINANZAS/RegistroCuotas?subdivision_id=${subdivision}`,
        },
      ]);
      expect(out.totals).toEqual([{ cells: { ...out.rows[0]!.cells, subdivision: 'Total PEN' }, currency: 'PEN' }]);
      await expectValueTotalsEqualRegister(out, `&subdivision_id=${subdivision}`);

      const dollars = await build(portfolioValueReport, { subdivision_id: usd });
      expect(dollars.rows.map((r) => [r.currency, money(r, 'total'), money(r, 'interest'), money(r, 'b_MAS_90')])).toEqual([
        ['USD', 70_000, 5_000, 70_000],
      ]);
      expect(dollars.chart?.series.map((s) => s.name)).toEqual([
        'Al día (USD)',
        '1–30 días (USD)',
        '31–60 días (USD)',
        '61–90 días (USD)',
        'Más de 90 días (USD)',
      ]);

      const all = await build(portfolioValueReport);
      await expectValueTotalsEqualRegister(all);
      expect(money(totalOf(all, 'USD'), 'total')).toBe(money(totalOf(before, 'USD'), 'total') + 70_000);
      expect(money(totalOf(all, 'PEN'), 'total')).toBe(money(totalOf(before, 'PEN'), 'total') + 260_000);
      expect(all.rows.filter((r) => r.cells.subdivision === 'Valor USD').map((r) => r.currency)).toEqual(['USD']);
    });

    it('the agent and currency filters narrow', async () => {
      const agent = await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock });
      const subdivision = (await createSubdivision(db(), { name: 'Valor Asesor' })).id;
      const buyer = await createCrmCustomer(db());
      await addSale({
        subdivisionId: subdivision,
        agentId: agent.id,
        holders: [buyer],
        rows: [{ due: DUE.future, amount: 77_700, interest: 7_700, status: 'PENDIENTE' }],
      });
      await addSale({ subdivisionId: subdivision, holders: [buyer], rows: [{ due: DUE.future, amount: 88_800, status: 'PENDIENTE' }] });
      const out = await build(portfolioValueReport, { agent_id: agent.id });
      expect(out.rows.map((r) => [r.cells.subdivision, money(r, 'total'), money(r, 'interest'), money(r, 'b_AL_DIA')])).toEqual([
        ['Valor Asesor', 77_700, 7_700, 77_700],
      ]);
      const usd = await build(portfolioValueReport, { currency: 'USD' });
      expect(usd.rows.every((r) => r.currency === 'USD')).toBe(true);
      expect(usd.totals?.map((t) => t.currency)).toEqual(usd.rows.length > 0 ? ['USD'] : []);
    });
  });
});
