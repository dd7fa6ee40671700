import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  collectionsCardResponseSchema,
  DASHBOARD_CARD_PERMISSIONS,
  leadsCardResponseSchema,
  lotsCardResponseSchema,
  overdueCardResponseSchema,
  salesCardResponseSchema,
  topAgentsCardResponseSchema,
  type CollectionsCard,
  type LeadsCard,
  type LotsCard,
  type OverdueCard,
  type SalesCard,
  type TopAgentsCard,
} from '../../src/schemas/inicio/dashboard';
import { salesReportResponseSchema, type SalesReport } from '../../src/schemas/comercio/sales-report';
import { instalmentTotalsResponseSchema, DAYS_LATE_BUCKETS } from '../../src/schemas/finanzas/instalments';
import { paymentsPageSchema } from '../../src/schemas/finanzas/payments';
import { leadsPageSchema, leadsSummaryResponseSchema, type LeadStatus } from '../../src/schemas/crm/leads';
import { lotsPageSchema, LOT_STATUSES } from '../../src/schemas/proyectos/projects';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { startOfLimaDay } from '../../server/clock';
import {
  createCrmCustomer,
  createCustomer,
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
 * Inicio's manager cards (docs/dashboard.md "Manager cards"; src/schemas/inicio/dashboard.ts):
 * each figure equals the total of the list its card links to, fetched through that list's own
 * endpoint with the link's filters, on the demo data and after rows added here; currencies stay
 * apart; an agent narrowed to their own sales or leads sees only theirs; refusals as every staff
 * route. The test clock's today in Lima is 2026-03-02 (the demo is seeded on that clock).
 */

const CARDS = ['sales', 'collections', 'overdue', 'lots', 'leads', 'top-agents'] as const;
const TODAY = '2026-03-02';
const MONTH = { from: '2026-03-01', to: '2026-03-31' };

type Money = { currency: string; amount: number };
/** Per currency amounts as a map (currencies without money left out). */
const byCurrency = (rows: readonly Money[]) => Object.fromEntries(rows.filter((r) => r.amount !== 0).map((r) => [r.currency, r.amount]));

describe.each(dialects)('Inicio manager cards (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';
  let agent = '';
  let agentId = 0;
  let otherAgentId = 0;
  let nobody = '';
  let customer = '';
  let usdSubdivision = 0;
  const get = (url: string, token = manager) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const ok = async (url: string, token = manager): Promise<unknown> => {
    const res = await get(url, token);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const sales = async (token = manager): Promise<SalesCard> => salesCardResponseSchema.parse(await ok('/api/dashboard/sales', token)).data;
  const topAgents = async (token = manager): Promise<TopAgentsCard> =>
    topAgentsCardResponseSchema.parse(await ok('/api/dashboard/top-agents', token)).data;
  const collections = async (): Promise<CollectionsCard> =>
    collectionsCardResponseSchema.parse(await ok('/api/dashboard/collections')).data;
  const overdue = async (): Promise<OverdueCard> => overdueCardResponseSchema.parse(await ok('/api/dashboard/overdue')).data;
  const lots = async (): Promise<LotsCard> => lotsCardResponseSchema.parse(await ok('/api/dashboard/lots')).data;
  const leads = async (token = manager): Promise<LeadsCard> => leadsCardResponseSchema.parse(await ok('/api/dashboard/leads', token)).data;
  const report = async (query: string, token = manager): Promise<SalesReport> =>
    salesReportResponseSchema.parse(await ok(`/api/sales/report?${query}`, token)).data;

  /** Σ amount per currency and the count of every approved payment of GET /api/payments (all pages). */
  const approvedPayments = async (from: string, to: string) => {
    const sums: Record<string, number> = {};
    let count = 0;
    for (let page = 1; ; page++) {
      const body = paymentsPageSchema.parse(await ok(`/api/payments?status=APROBADO&from=${from}&to=${to}&per_page=100&page=${page}`));
      for (const p of body.data) {
        expect(p.status).toBe('APROBADO');
        sums[p.currency] = (sums[p.currency] ?? 0) + p.amount;
        count += 1;
      }
      if (page * 100 >= body.meta.total) return { sums, count, total: body.meta.total };
    }
  };

  /** The sales card's figures of one period, compared with Reporte de Ventas of that period (fetched as `token`, filtered by `agent`). */
  const expectSalesEqualReport = async (card: SalesCard, agent?: number) => {
    expect(card.as_of).toBe(TODAY);
    expect(card.periods.map((p) => [p.period, p.from, p.to])).toEqual([
      ['THIS_MONTH', '2026-03-01', TODAY],
      ['LAST_MONTH', '2026-02-01', '2026-02-28'],
      ['SAME_MONTH_LAST_YEAR', '2025-03-01', '2025-03-31'],
    ]);
    for (const period of card.periods) {
      const r = await report(`from=${period.from}&to=${period.to}${agent === undefined ? '' : `&agent_id=${agent}`}`);
      expect(period.count, period.period).toBe(r.totals.reduce((n, t) => n + t.count, 0));
      expect(period.by_currency, period.period).toEqual(
        r.totals.map((t) => ({ currency: t.currency, amount: t.total, area_m2: t.area_m2, price_per_m2: t.price_per_m2 })),
      );
    }
  };

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    const boss = await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock });
    manager = await createSession(db(), boss);
    const seller = await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock });
    agentId = seller.id;
    agent = await createSession(db(), seller);
    otherAgentId = (await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock })).id;
    nobody = await createSession(db(), await createStaff(db(), { permissions: [MODULE.configuracion, SUBMODULE.usuarios] }));
    customer = await createSession(db(), await createCustomer(db()));
    usdSubdivision = (await createSubdivision(db(), { name: 'AAA Dólares', currency: 'USD' })).id;
  }, SEED_TIMEOUT_MS);

  /** A cash sale dated `saleDate` by `agent` in the USD subdivision (USD `price` céntimos) or a fresh PEN one. */
  const addSale = async (input: { agent: number | null; saleDate: string; usd?: number; status?: 'ANULADA' }) => {
    const subdivisionId = input.usd === undefined ? (await createSubdivision(db(), { currency: 'PEN' })).id : usdSubdivision;
    const lotId = await createLot(db(), subdivisionId, { block: 'Z', number: String(Math.floor(Math.random() * 1e6)) });
    const id = await insertCashSale(db(), {
      lotId,
      subdivisionId,
      agentId: input.agent,
      saleDate: input.saleDate,
      titularId: await createCrmCustomer(db()),
      ...(input.status ? { status: input.status } : {}),
    });
    if (input.usd !== undefined)
      await db()
        .updateTable('sales')
        .set({ currency: 'USD', list_price: input.usd, final_price: input.usd, down_payment: input.usd })
        .where('id', '=', id)
        .execute();
    return id;
  };

  it('sales: each period is Reporte de Ventas of that period; USD never added to PEN; ANULADA left out', async () => {
    await expectSalesEqualReport(await sales());
    const before = (await sales()).periods[0]!;
    // A USD sale and a PEN sale today, an ANULADA one, and one of last month.
    await addSale({ agent: agentId, saleDate: TODAY, usd: 1_234_500 });
    await addSale({ agent: otherAgentId, saleDate: TODAY });
    await addSale({ agent: agentId, saleDate: TODAY, status: 'ANULADA' });
    await addSale({ agent: agentId, saleDate: '2026-02-10' });
    const card = await sales();
    await expectSalesEqualReport(card);
    const now = card.periods[0]!;
    expect(now.count).toBe(before.count + 2);
    const pen = (p: SalesCard['periods'][number]) => p.by_currency.find((c) => c.currency === 'PEN')?.amount ?? 0;
    const usd = (p: SalesCard['periods'][number]) => p.by_currency.find((c) => c.currency === 'USD')?.amount ?? 0;
    expect(pen(now)).toBe(pen(before) + 3_000_000);
    expect(usd(now)).toBe(usd(before) + 1_234_500);
  });

  it('sales and top agents: an agent narrowed to their own sales sees only theirs', async () => {
    const mine = await sales(agent);
    await expectSalesEqualReport(mine, agentId);
    expect(mine.periods[0]!.count).toBeGreaterThan(0);
    expect(mine.periods[0]!.count).toBeLessThan((await sales()).periods[0]!.count);
    const top = await topAgents(agent);
    expect(top.agents.map((a) => a.id)).toEqual([agentId]);
  });

  it('top agents: this month, each agent = Reporte de Ventas filtered by that agent, most sales first, at most five', async () => {
    // Three more sales for the other agent: they lead.
    for (let i = 0; i < 3; i++) await addSale({ agent: otherAgentId, saleDate: TODAY });
    await addSale({ agent: agentId, saleDate: TODAY });
    const card = await topAgents();
    expect([card.from, card.to]).toEqual(['2026-03-01', TODAY]);
    expect(card.agents.length).toBeGreaterThan(0);
    expect(card.agents.length).toBeLessThanOrEqual(5);
    expect(card.agents.some((a) => a.id === otherAgentId)).toBe(true);
    for (const [i, a] of card.agents.entries()) {
      const r = await report(`from=${card.from}&to=${card.to}&agent_id=${a.id}`);
      expect(a.count, a.name).toBe(r.totals.reduce((n, t) => n + t.count, 0));
      expect(a.by_currency, a.name).toEqual(r.totals.map((t) => ({ currency: t.currency, amount: t.total })));
      if (i > 0) expect(card.agents[i - 1]!.count).toBeGreaterThanOrEqual(a.count);
    }
    // The agent with USD sales keeps them apart from PEN.
    const seller = card.agents.find((a) => a.id === agentId);
    expect(seller?.by_currency.map((m) => m.currency)).toEqual(['PEN', 'USD']);
  });

  it('collections: collected = Σ Pagos APROBADO of the month, expected = Registro de Cuotas due in the month, per currency', async () => {
    const check = async () => {
      const card = await collections();
      expect([card.as_of, card.from, card.to]).toEqual([TODAY, MONTH.from, MONTH.to]);
      const month = await approvedPayments(MONTH.from, MONTH.to);
      const today = await approvedPayments(TODAY, TODAY);
      const totals = instalmentTotalsResponseSchema.parse(
        await ok(`/api/instalments/totals?due_from=${MONTH.from}&due_to=${MONTH.to}`),
      ).data;
      const field = (key: 'collected' | 'expected' | 'collected_today') =>
        byCurrency(card.by_currency.map((r) => ({ currency: r.currency, amount: r[key] })));
      expect(field('collected')).toEqual(byCurrency(Object.entries(month.sums).map(([currency, amount]) => ({ currency, amount }))));
      expect(field('collected_today')).toEqual(byCurrency(Object.entries(today.sums).map(([currency, amount]) => ({ currency, amount }))));
      expect(field('expected')).toEqual(byCurrency(totals));
      return card;
    };
    const before = await check();
    // An approved USD payment today, an approved PEN one, and a pending one (left out).
    const usdSale = await addSale({ agent: agentId, saleDate: TODAY, usd: 1_000_000 });
    await createPayment(db(), { saleId: usdSale, amount: 7_700, approved: true, clock: ctx().clock });
    const penSale = await addSale({ agent: agentId, saleDate: TODAY });
    const approved = await createPayment(db(), { saleId: penSale, amount: 5_500, approved: true, clock: ctx().clock });
    await createPayment(db(), { saleId: penSale, amount: 9_900, clock: ctx().clock });
    const after = await check();
    const row = (card: CollectionsCard, c: string) => card.by_currency.find((r) => r.currency === c);
    expect(row(after, 'USD')?.collected).toBe((row(before, 'USD')?.collected ?? 0) + 7_700);
    expect(row(after, 'USD')?.collected_today).toBe((row(before, 'USD')?.collected_today ?? 0) + 7_700);
    expect(row(after, 'PEN')?.collected).toBe((row(before, 'PEN')?.collected ?? 0) + 5_500);
    // A write to an approved payment moves the kept answer too (the payments revision, migration 0049).
    await db().updateTable('payments').set({ amount: 6_600 }).where('id', '=', approved).execute();
    expect(row(await check(), 'PEN')?.collected).toBe((row(before, 'PEN')?.collected ?? 0) + 6_600);
    await db().updateTable('payments').set({ operation_date: '2026-02-27' }).where('id', '=', approved).execute();
    expect(row(await check(), 'PEN')?.collected).toBe(row(before, 'PEN')?.collected ?? 0);
  });

  it('overdue: each bucket = Registro de Cuotas totals filtered days_late=<bucket>', async () => {
    const check = async () => {
      const card = await overdue();
      expect(card.as_of).toBe(TODAY);
      expect(card.buckets.map((b) => b.bucket)).toEqual([...DAYS_LATE_BUCKETS]);
      for (const b of card.buckets) {
        const totals = instalmentTotalsResponseSchema.parse(await ok(`/api/instalments/totals?days_late=${b.bucket}`)).data;
        expect(b.count, b.bucket).toBe(totals.reduce((n, t) => n + t.count, 0));
        expect(byCurrency(b.by_currency), b.bucket).toEqual(byCurrency(totals.map((t) => ({ currency: t.currency, amount: t.balance }))));
      }
      return card;
    };
    const before = await check();
    expect(before.buckets.some((b) => b.bucket !== 'AL_DIA' && b.count > 0)).toBe(true);
    // One instalment of a sale 45 days late: the 31_60 bucket grows by it (kept answers follow the register's revision).
    const saleId = await addSale({ agent: agentId, saleDate: '2026-01-05' });
    await db()
      .insertInto('sale_instalments')
      .values({
        sale_id: saleId,
        kind: 'CUOTA',
        number: 1,
        due_date: '2026-01-16',
        amount: 123_400,
        capital: 123_400,
        interest: 0,
        paid: 400,
        status: 'VENCIDA',
      })
      .execute();
    const after = await check();
    const bucket = (card: OverdueCard) => card.buckets.find((b) => b.bucket === '31_60')!;
    expect(bucket(after).count).toBe(bucket(before).count + 1);
    expect(byCurrency(bucket(after).by_currency).PEN).toBe((byCurrency(bucket(before).by_currency).PEN ?? 0) + 123_000);
  });

  it('lots: active subdivisions by name (at most 20), each status = the lots list filtered by it', async () => {
    await db().updateTable('subdivisions').set({ status: 'CERRADO' }).where('id', '=', usdSubdivision).execute();
    const card = await lots();
    expect(card.subdivisions.length).toBeGreaterThan(0);
    expect(card.subdivisions.length).toBeLessThanOrEqual(20);
    expect(card.subdivisions.map((s) => s.id)).not.toContain(usdSubdivision);
    const names = card.subdivisions.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const s of card.subdivisions.slice(0, 6)) {
      for (const status of LOT_STATUSES) {
        const page = lotsPageSchema.parse(await ok(`/api/subdivisions/${s.id_encrypted}/lots?status=${status}&per_page=1`));
        expect(s.counts[status] ?? 0, `${s.name} ${status}`).toBe(page.meta.total);
      }
    }
    await db().updateTable('subdivisions').set({ status: 'EN_VENTA' }).where('id', '=', usdSubdivision).execute();
  });

  it('leads: the Leads summary under the caller’s scope, overdue follow-ups = the list with overdue=true, this month’s conversion', async () => {
    // Two leads of the agent arrived this month, one of them CONCRETADO, and one of another agent.
    const stamp = ctx().clock.now().toISOString();
    const lead = (agent: number, status: LeadStatus) => ({
      name: `Lead del tablero ${Math.random()}`,
      phone: `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      email: null,
      id_document_type: null,
      document_number: null,
      channel: 'WEB',
      campaign: null,
      notes: null,
      agent_id: agent,
      status,
      lost_reason: null,
      next_follow_up_at: '2026-03-01T15:00:00.000Z',
      customer_id: null,
      last_activity_at: null,
      received_at: stamp,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    });
    await db()
      .insertInto('leads')
      .values([lead(agentId, 'POR_ATENDER'), lead(agentId, 'CONCRETADO'), lead(otherAgentId, 'EN_ATENCION')])
      .execute();
    const monthStart = startOfLimaDay('2026-03-01');
    const monthEnd = startOfLimaDay('2026-04-01');
    for (const [token, only] of [
      [manager, null],
      [agent, agentId],
    ] as const) {
      const card = await leads(token);
      expect(card.as_of).toBe(TODAY);
      const summary = leadsSummaryResponseSchema.parse(await ok('/api/leads/summary', token)).data;
      expect(Object.fromEntries(card.by_status.map((s) => [s.status, s.count]))).toEqual(
        Object.fromEntries(Object.entries(summary.counts).filter(([, n]) => n > 0)),
      );
      const overdueList = leadsPageSchema.parse(await ok('/api/leads?overdue=true&per_page=1', token));
      expect(card.follow_ups_due).toBe(overdueList.meta.total);
      const arrived = await db()
        .selectFrom('leads')
        .select(['status'])
        .where('received_at', '>=', monthStart)
        .where('received_at', '<', monthEnd)
        .$if(only !== null, (q) => q.where('agent_id', '=', only ?? 0))
        .execute();
      const converted = arrived.filter((l) => l.status === 'CONCRETADO').length;
      expect(card.month).toEqual({
        arrived: arrived.length,
        converted,
        rate_bp: arrived.length === 0 ? null : Math.round((converted * 10_000) / arrived.length),
      });
      if (only !== null) {
        expect(card.month.converted).toBeGreaterThanOrEqual(1);
        const all = await leads(manager);
        expect(card.by_status.reduce((n, s) => n + s.count, 0)).toBeLessThan(all.by_status.reduce((n, s) => n + s.count, 0));
      }
    }
  });

  it('refuses: 401 without a session, 403 without the card’s permissions and to a customer, 422 in Spanish on any query', async () => {
    for (const card of CARDS) {
      const url = `/api/dashboard/${card}`;
      expect((await ctx().app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await get(url, nobody)).statusCode, url).toBe(403);
      expect((await get(url, customer)).statusCode, url).toBe(403);
      const bad = await get(`${url}?agent_id=1`);
      expect(bad.statusCode, url).toBe(422);
      expect(bad.body).toContain('Campo no permitido');
    }
    // A staff user holding one card's permissions reaches that card only.
    const finance = await createSession(
      db(),
      await createStaff(db(), { permissions: DASHBOARD_CARD_PERMISSIONS.overdue as readonly Permission[] }),
    );
    expect((await get('/api/dashboard/overdue', finance)).statusCode).toBe(200);
    expect((await get('/api/dashboard/collections', finance)).statusCode).toBe(200);
    expect((await get('/api/dashboard/sales', finance)).statusCode).toBe(403);
    expect((await get('/api/dashboard/leads', finance)).statusCode).toBe(403);
    expect((await get('/api/dashboard/lots', finance)).statusCode).toBe(403);
  });
});

describe('the cards’ response schemas', () => {
  it('drop an unreadable row only, and encode an answer unchanged (the server answers through them)', () => {
    const answer: { data: OverdueCard } = {
      data: { as_of: TODAY, buckets: [{ bucket: '31_60', count: 1, by_currency: [{ currency: 'PEN', amount: 5 }] }] },
    };
    const read = overdueCardResponseSchema.parse({
      data: { ...answer.data, buckets: [...answer.data.buckets, { bucket: 'NUEVO', count: 2 }, { bucket: 'AL_DIA', count: 'x' }] },
    });
    expect(read).toEqual(answer);
    expect(overdueCardResponseSchema.parse({ data: { as_of: TODAY, buckets: 'no' } }).data.buckets).toEqual([]);
    expect(z.encode(overdueCardResponseSchema, answer)).toEqual(answer);
  });
});
