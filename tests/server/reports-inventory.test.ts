import { beforeAll, describe, expect, it } from 'vitest';
import { commissionsPageSchema, commissionsQuerySchema, type Commission } from '../../src/schemas/administracion/commissions';
import { LOT_STATUS_LABEL, LOT_STATUSES, lotsPageSchema, type Lot, type LotStatus } from '../../src/schemas/proyectos/projects';
import { reportSchema, type Report, type ReportQuery } from '../../src/schemas/reportes/report';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { HttpError } from '../../server/errors';
import { createOpaqueIds } from '../../server/ids';
import { commissionsReport } from '../../server/modules/reportes/comisiones.report';
import { inventoryReport, type InventoryDeps } from '../../server/modules/reportes/inventario.report';
import { reportToday, type ReportDefinition } from '../../server/modules/reportes/report-definition';
import {
  commissionRow,
  createCrmCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  insertCashSale,
} from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

/**
 * Reportes → Inventario and Comisiones (docs/reports.md "Inventario", "Comisiones"): each figure
 * equals the sum over the list its row links to — Proyectos → Lotes of the subdivision filtered by
 * the status, Comisiones y Pagos filtered by agent, currency and period — fetched through that
 * list's own endpoint, on the demo data and rows added here; soles and dollars stay apart; the
 * filters narrow. The test clock's today in Lima is 2026-03-02 (the demo is seeded on that clock).
 */

const TODAY = '2026-03-02';
const MONTH = { from: '2026-03-01', to: '2026-03-31' };

describe.each(dialects)('Reportes: Inventario and Comisiones (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';
  let usdSubdivision = { id: 0, key: '' };
  let usdAgent = 0;
  const ids = createOpaqueIds();

  const ok = async (url: string): Promise<unknown> => {
    const res = await ctx().app.inject({ method: 'GET', url, headers: bearer(manager) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  /** Builds `report` as the route would; its answer as the wire schema reads it (no row dropped). */
  const build = async (report: ReportDefinition, query: ReportQuery = {}, agentId: number | null = null): Promise<Report> => {
    const deps: InventoryDeps = { db: db(), clock: ctx().clock, ids };
    const output = await report.build({ deps, query, scope: { agentId }, today: reportToday(deps) });
    const parsed = reportSchema.parse(output);
    expect(parsed.rows).toHaveLength(output.rows.length);
    expect(parsed.totals).toHaveLength(output.totals?.length ?? 0);
    expect(output.row_count).toBe(output.rows.length);
    return parsed;
  };
  /** Every row of a paged list (per_page 100). */
  const allPages = async <T>(url: string, parse: (body: unknown) => { data: T[]; meta: { total: number } }): Promise<T[]> => {
    const rows: T[] = [];
    for (let page = 1; ; page++) {
      const body = parse(await ok(`${url}${url.includes('?') ? '&' : '?'}per_page=100&page=${page}`));
      rows.push(...body.data);
      if (page * 100 >= body.meta.total) return rows;
    }
  };
  const cents = (row: { cells: Record<string, unknown> }, key: string) => row.cells[key] as number;

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    const boss = await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock });
    manager = await createSession(db(), boss);
    // A dollar subdivision with lots in three statuses and an agent's commissions in both currencies.
    usdSubdivision = await createSubdivision(db(), { name: 'Ñandú Dólares', currency: 'USD', clock: ctx().clock });
    const lot = (status: LotStatus, area: number, price: number) =>
      createLot(db(), usdSubdivision.id, { status, area_m2: area, price_per_m2: price, clock: ctx().clock });
    await lot('DISPONIBLE', 150.25, 10_000);
    await lot('DISPONIBLE', 200, 12_345);
    const soldLot = await lot('VENDIDO', 99.99, 9_999);
    await lot('BLOQUEADO', 300.5, 5_000);
    usdAgent = (await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock })).id;
    const usdSale = await insertCashSale(db(), {
      lotId: soldLot,
      subdivisionId: usdSubdivision.id,
      agentId: usdAgent,
      saleDate: '2026-02-10',
      titularId: await createCrmCustomer(db()),
    });
    const penSubdivision = await createSubdivision(db(), { currency: 'PEN', clock: ctx().clock });
    const penSale = await insertCashSale(db(), {
      lotId: await createLot(db(), penSubdivision.id, { status: 'VENDIDO', clock: ctx().clock }),
      subdivisionId: penSubdivision.id,
      agentId: usdAgent,
      saleDate: '2026-02-10',
      titularId: await createCrmCustomer(db()),
    });
    const day = (d: string) => ({ projected_on: d, accrued_on: d });
    const paid = await db()
      .insertInto('commissions')
      .values(
        commissionRow({
          sale_id: usdSale,
          user_id: usdAgent,
          amount: 5_000,
          currency: 'USD',
          state: 'PAGADA',
          paid_on: TODAY,
          ...day(TODAY),
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('commissions')
      .values([
        commissionRow({ sale_id: usdSale, user_id: usdAgent, amount: 12_345, currency: 'USD', ...day('2026-03-01') }),
        commissionRow({ sale_id: usdSale, user_id: usdAgent, amount: 7_000, currency: 'USD', state: 'LIQUIDADA', ...day(TODAY) }),
        commissionRow({
          sale_id: usdSale,
          user_id: usdAgent,
          amount: -2_500,
          currency: 'USD',
          state: 'REVERTIDA',
          reverses_id: paid.id,
          ...day(TODAY),
        }),
        // Left out: earned in February, projected, annulled.
        commissionRow({ sale_id: usdSale, user_id: usdAgent, amount: 99_999, currency: 'USD', ...day('2026-02-28') }),
        commissionRow({
          sale_id: usdSale,
          user_id: usdAgent,
          amount: 88_888,
          currency: 'USD',
          state: 'PROYECTADA',
          projected_on: TODAY,
          accrued_on: null,
        }),
        commissionRow({
          sale_id: usdSale,
          user_id: usdAgent,
          amount: 77_777,
          currency: 'USD',
          state: 'ANULADA',
          annulled_on: TODAY,
          ...day(TODAY),
        }),
        commissionRow({ sale_id: penSale, user_id: usdAgent, amount: 30_000, currency: 'PEN', ...day(TODAY) }),
      ])
      .execute();
  }, SEED_TIMEOUT_MS);

  it('runs on the test clock', () => {
    expect(reportToday({ db: db(), clock: ctx().clock })).toBe(TODAY);
  });

  describe('Inventario', () => {
    it('each row = the lots list of its subdivision filtered by its status (count, Σ area, Σ list price), its link that list', async () => {
      const report = await build(inventoryReport);
      expect(report.report).toBe('inventario');
      expect(report.from).toBeNull();
      expect(report.to).toBe(TODAY);
      expect(report.columns.map((c) => [c.key, c.kind])).toEqual([
        ['subdivision', 'text'],
        ['status', 'text'],
        ['lots', 'count'],
        ['area_m2', 'area'],
        ['list_value', 'money'],
      ]);
      const subdivisions = await db().selectFrom('subdivisions').select(['id', 'name', 'currency']).execute();
      let checked = 0;
      for (const s of subdivisions) {
        const key = ids.encode(s.id);
        const lots = await allPages<Lot>(`/api/subdivisions/${key}/lots`, (b) => lotsPageSchema.parse(b));
        const mine = report.rows.filter((r) => r.cells.subdivision === s.name);
        // One row per status that has lots, in LOT_STATUSES order.
        const statuses = LOT_STATUSES.filter((status) => lots.some((l) => l.status === status));
        expect(mine.map((r) => r.cells.status)).toEqual(statuses.map((status) => LOT_STATUS_LABEL[status]));
        for (const [i, status] of statuses.entries()) {
          const row = mine[i]!;
          const ofStatus = lots.filter((l) => l.status === status);
          expect(row.currency).toBe(s.currency);
          expect(row.cells.lots, `${s.name} ${status}`).toBe(ofStatus.length);
          expect(row.cells.area_m2, `${s.name} ${status}`).toBeCloseTo(
            ofStatus.reduce((n, l) => n + l.area_m2, 0),
            2,
          );
          expect(row.cells.list_value, `${s.name} ${status}`).toBe(ofStatus.reduce((n, l) => n + l.list_price, 0));
          // The link opens that list: /PROYECTOS/Lotes/<name>/<key>?status=<status>, whose total is the row's count.
          const link = new URL(row.link!, 'http://x');
          expect(link.pathname).toMatch(new RegExp(`^/PROYECTOS/Lotes/[a-z0-9-]+/${key}$`));
          expect(link.searchParams.get('status')).toBe(status);
          const page = lotsPageSchema.parse(await ok(`/api/subdivisions/${key}/lots?status=${status}&per_page=1`));
          expect(page.meta.total).toBe(row.cells.lots);
          checked += 1;
        }
      }
      expect(checked).toBe(report.rows.length);
      expect(report.rows.find((r) => r.cells.subdivision === 'Los Viñedos de Carabayllo')?.link).toMatch(
        /^\/PROYECTOS\/Lotes\/los-vinedos-de-carabayllo\//,
      );
    });

    it('keeps soles and dollars apart: one total per currency, Σ its rows', async () => {
      const report = await build(inventoryReport);
      expect(report.totals.map((t) => t.currency)).toEqual(['PEN', 'USD']);
      for (const total of report.totals) {
        const rows = report.rows.filter((r) => r.currency === total.currency);
        expect(total.cells.lots).toBe(rows.reduce((n, r) => n + cents(r, 'lots'), 0));
        expect(total.cells.list_value).toBe(rows.reduce((n, r) => n + cents(r, 'list_value'), 0));
        expect(total.cells.area_m2).toBeCloseTo(
          rows.reduce((n, r) => n + cents(r, 'area_m2'), 0),
          2,
        );
      }
      const usd = report.totals.find((t) => t.currency === 'USD')!;
      // 150.25 × 100.00 + 200 × 123.45 + 99.99 × 99.99 + 300.5 × 50.00 (céntimos, rounded per lot).
      expect(usd.cells).toMatchObject({ lots: 4, list_value: 1_502_500 + 2_469_000 + 999_800 + 1_502_500 });
      expect(usd.cells.area_m2).toBeCloseTo(750.74, 2);
    });

    it('the chart stacks the lots of each status per subdivision, as the rows', async () => {
      const report = await build(inventoryReport);
      const chart = report.chart!;
      expect(chart.kind).toBe('stacked');
      expect(chart.unit).toBe('count');
      expect(chart.categories).toEqual([...new Set(report.rows.map((r) => r.cells.subdivision))]);
      for (const series of chart.series)
        chart.categories.forEach((name, i) => {
          const row = report.rows.find((r) => r.cells.subdivision === name && r.cells.status === series.name);
          expect(series.values[i] ?? null).toBe(row ? row.cells.lots : null);
        });
      expect(chart.series.map((s) => s.name)).toEqual(
        LOT_STATUSES.filter((s) => report.rows.some((r) => r.cells.status === LOT_STATUS_LABEL[s])).map((s) => LOT_STATUS_LABEL[s]),
      );
    });

    it('filters narrow: a subdivision, a currency; named in words; an unknown subdivision is a 422', async () => {
      const one = await build(inventoryReport, { subdivision_id: usdSubdivision.id });
      expect(one.filters).toEqual([{ label: 'Lotización', value: 'Ñandú Dólares' }]);
      expect(one.rows.map((r) => [r.cells.status, r.cells.lots])).toEqual([
        ['Disponible', 2],
        ['Vendido', 1],
        ['Bloqueado', 1],
      ]);
      expect(one.rows.every((r) => r.link?.includes(`/${usdSubdivision.key}?`))).toBe(true);
      const soles = await build(inventoryReport, { currency: 'PEN' });
      expect(soles.filters).toEqual([{ label: 'Moneda', value: 'Soles (PEN)' }]);
      expect(soles.rows.length).toBeGreaterThan(0);
      expect(soles.rows.every((r) => r.currency === 'PEN')).toBe(true);
      expect(soles.totals.map((t) => t.currency)).toEqual(['PEN']);
      const none = await build(inventoryReport, { subdivision_id: usdSubdivision.id, currency: 'PEN' });
      expect(none.rows).toEqual([]);
      expect(none.totals).toEqual([]);
      const error = await build(inventoryReport, { subdivision_id: 999_999 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).statusCode).toBe(422);
    });

    it('without the opaque ids the rows carry no link', async () => {
      const output = reportSchema.parse(
        await inventoryReport.build({ deps: { db: db(), clock: ctx().clock }, query: {}, scope: { agentId: null }, today: TODAY }),
      );
      expect(output.rows.length).toBeGreaterThan(0);
      expect(output.rows.every((r) => r.link === undefined)).toBe(true);
    });
  });

  describe('Comisiones', () => {
    /** Every commission of the list a row's link opens (GET /api/commissions with the link's filters). */
    const linkedList = async (link: string): Promise<Commission[]> => {
      const url = new URL(link, 'http://x');
      expect(url.pathname).toBe('/ADMINISTRACION/ComisionesPagos');
      // The link's parameters are the list's own: they pass its schema.
      expect(commissionsQuerySchema.safeParse(Object.fromEntries(url.searchParams)).success).toBe(true);
      return allPages<Commission>(`/api/commissions?${url.searchParams.toString()}`, (b) => commissionsPageSchema.parse(b));
    };
    const sumOf = (list: readonly Commission[], states: readonly string[]) =>
      list.filter((c) => states.includes(c.state)).reduce((n, c) => n + c.amount, 0);

    /** Every figure of `report` against the list its row links to, and the totals against the rows. */
    const expectEqualsLists = async (report: Report) => {
      for (const row of report.rows) {
        const list = await linkedList(row.link!);
        const label = `${String(row.cells.agent)} ${row.currency}`;
        expect(list.every((c) => c.currency === row.currency)).toBe(true);
        expect(row.cells.count, label).toBe(list.filter((c) => ['DEVENGADA', 'LIQUIDADA', 'PAGADA'].includes(c.state)).length);
        expect(row.cells.earned, label).toBe(sumOf(list, ['DEVENGADA', 'LIQUIDADA', 'PAGADA']));
        expect(row.cells.paid, label).toBe(sumOf(list, ['PAGADA']));
        expect(row.cells.to_pay, label).toBe(sumOf(list, ['DEVENGADA', 'LIQUIDADA']));
        expect(row.cells.reversed, label).toBe(sumOf(list, ['REVERTIDA']));
        // And each state's figure is that list filtered by the state.
        const url = new URL(row.link!, 'http://x');
        const paid = await allPages<Commission>(`/api/commissions?${url.searchParams.toString()}&state=PAGADA`, (b) =>
          commissionsPageSchema.parse(b),
        );
        expect(paid.reduce((n, c) => n + c.amount, 0)).toBe(row.cells.paid);
      }
      for (const total of report.totals) {
        const rows = report.rows.filter((r) => r.currency === total.currency);
        for (const key of ['count', 'earned', 'paid', 'to_pay', 'reversed'])
          expect(total.cells[key], `${total.currency} ${key}`).toBe(rows.reduce((n, r) => n + cents(r, key), 0));
      }
    };

    it('defaults to this month up to today; on the demo every figure = the Comisiones y Pagos list its row links to', async () => {
      const report = await build(commissionsReport);
      expect(report.report).toBe('comisiones');
      expect([report.from, report.to]).toEqual(['2026-03-01', TODAY]);
      expect(report.columns.map((c) => [c.key, c.kind])).toEqual([
        ['agent', 'text'],
        ['count', 'count'],
        ['earned', 'money'],
        ['paid', 'money'],
        ['to_pay', 'money'],
        ['reversed', 'money'],
      ]);
      // The demo has every state: paid, approved, earned and a reversal of the agent's.
      const pen = report.totals.find((t) => t.currency === 'PEN')!;
      expect(cents(pen, 'paid')).toBeGreaterThan(0);
      expect(cents(pen, 'to_pay')).toBeGreaterThan(0);
      expect(cents(pen, 'reversed')).toBeLessThan(0);
      await expectEqualsLists(report);
    });

    it('keeps soles and dollars apart and leaves out projected, annulled and out-of-period commissions', async () => {
      const report = await build(commissionsReport, MONTH);
      const mine = report.rows.filter((r) => r.link?.includes(`agent_id=${usdAgent}&`));
      expect(mine.map((r) => [r.currency, r.cells.count, r.cells.earned, r.cells.paid, r.cells.to_pay, r.cells.reversed])).toEqual([
        ['PEN', 1, 30_000, 0, 30_000, 0],
        ['USD', 3, 12_345 + 5_000 + 7_000, 5_000, 12_345 + 7_000, -2_500],
      ]);
      expect(report.totals.map((t) => t.currency)).toEqual(['PEN', 'USD']);
      await expectEqualsLists(report);
      // February holds the earned USD 999.99 only.
      const february = await build(commissionsReport, { from: '2026-02-01', to: '2026-02-28', agent_id: usdAgent });
      expect(february.rows.map((r) => [r.currency, r.cells.earned])).toEqual([['USD', 99_999]]);
      await expectEqualsLists(february);
    });

    it('the chart stacks per agent a series per state and currency, the rows’ figures', async () => {
      const report = await build(commissionsReport, MONTH);
      const chart = report.chart!;
      expect(chart.kind).toBe('stacked');
      expect(chart.unit).toBe('money');
      expect(chart.series.map((s) => [s.name, s.currency])).toEqual([
        ['Pagada (PEN)', 'PEN'],
        ['Liquidada (PEN)', 'PEN'],
        ['Devengada (PEN)', 'PEN'],
        ['Pagada (USD)', 'USD'],
        ['Liquidada (USD)', 'USD'],
        ['Devengada (USD)', 'USD'],
      ]);
      for (const currency of ['PEN', 'USD'] as const)
        chart.categories.forEach((agent, i) => {
          const row = report.rows.find((r) => r.cells.agent === agent && r.currency === currency);
          const stack = chart.series.filter((s) => s.currency === currency).map((s) => s.values[i] ?? null);
          if (!row) expect(stack).toEqual([null, null, null]);
          else {
            expect(stack[0]).toBe(row.cells.paid);
            expect((stack[0] ?? 0) + (stack[1] ?? 0) + (stack[2] ?? 0)).toBe(row.cells.earned);
          }
        });
    });

    it('filters narrow: agent (as the route forces a narrowed caller’s) and subdivision; an unknown one is a 422', async () => {
      const agent = await build(commissionsReport, { ...MONTH, agent_id: usdAgent }, usdAgent);
      expect(agent.rows.map((r) => r.currency)).toEqual(['PEN', 'USD']);
      expect(agent.filters).toEqual([{ label: 'Asesor', value: expect.any(String) as string }]);
      await expectEqualsLists(agent);
      // The scope holds even when the query does not name the agent.
      expect((await build(commissionsReport, MONTH, usdAgent)).rows).toEqual(agent.rows);
      const subdivision = await build(commissionsReport, { ...MONTH, subdivision_id: usdSubdivision.id });
      expect(subdivision.filters).toEqual([{ label: 'Lotización', value: 'Ñandú Dólares' }]);
      expect(subdivision.rows.map((r) => [r.currency, r.cells.earned])).toEqual([['USD', 24_345]]);
      expect(subdivision.rows[0]!.link).toContain(`subdivision_id=${usdSubdivision.id}`);
      await expectEqualsLists(subdivision);
      for (const query of [{ agent_id: 999_999 }, { subdivision_id: 999_999 }]) {
        const error = await build(commissionsReport, query).catch((e: unknown) => e);
        expect((error as HttpError).statusCode).toBe(422);
      }
    });
  });
});
