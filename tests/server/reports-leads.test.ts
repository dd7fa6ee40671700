import { beforeAll, describe, expect, it } from 'vitest';
import {
  LEAD_CHANNEL_LABELS,
  leadsPageSchema,
  leadsSummaryResponseSchema,
  type Lead,
  type LeadChannel,
  type LeadStatus,
} from '../../src/schemas/crm/leads';
import { reservationsPageSchema, type Reservation, type ReservationStatus } from '../../src/schemas/comercio/reservations';
import { reportSchema, type Report, type ReportQuery, type ReportRow } from '../../src/schemas/reportes/report';
import { todayInLima } from '../../src/lib/dates';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { seedDemo } from '../../server/db/seed';
import { DAY_MS, startOfLimaDay } from '../../server/clock';
import { insertLead, insertLeadActivity, setLeadSubdivisions } from '../../server/modules/crm/leads.repository';
import { leadConversionReport, medianDays } from '../../server/modules/reportes/conversion-leads.report';
import { reservationsReport } from '../../server/modules/reportes/reservas.report';
import type { ReportDefinition } from '../../server/modules/reportes/report-definition';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision, insertCashSale } from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

/**
 * Conversión de leads and Reservas (docs/reports.md): each figure equals the count over the list it
 * summarises (GET /api/leads, /api/leads/summary, /api/reservations with the same filters), on the
 * demo data and on hand-built rows; the agent and subdivision filters narrow; the period's bounds
 * are Lima days, both included; soles and dollars stay apart; the medians on a hand-built case.
 * The test clock's today in Lima is 2026-03-02 (the demo is seeded on that clock).
 */

const TODAY = '2026-03-02';
/** Covers every demo lead (received over the 90 days before the seed). */
const DEMO_PERIOD = { from: '2025-11-01', to: TODAY };
const NO_AGENT = 'Sin asesor';

const staffName = (a: { name: string; surname: string } | null) => (a ? `${a.name} ${a.surname}`.trim() : NO_AGENT);
const inPeriod = (instant: string, period: { from: string; to: string }) => {
  const day = todayInLima(new Date(instant));
  return day >= period.from && day <= period.to;
};
const count = (row: ReportRow | undefined, key: string) => row?.cells[key] as number;

describe.each(dialects)('Reportes: conversión de leads y reservas (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let manager = '';

  /** The report's answer, checked against the wire shape (no row dropped). */
  const build = async (report: ReportDefinition, query: ReportQuery): Promise<Report> => {
    const output = await report.build({ deps: { db: db(), clock: ctx().clock }, query, scope: { agentId: null }, today: TODAY });
    const parsed = reportSchema.parse(output);
    expect(parsed.rows).toHaveLength(output.rows.length);
    expect(parsed.row_count).toBe(output.rows.length);
    return parsed;
  };
  const ok = async (url: string): Promise<unknown> => {
    const res = await ctx().app.inject({ method: 'GET', url, headers: bearer(manager) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  /** Every lead of GET /api/leads under `filters` (all pages). */
  const allLeads = async (filters = ''): Promise<Lead[]> => {
    const out: Lead[] = [];
    for (let page = 1; ; page++) {
      const body = leadsPageSchema.parse(await ok(`/api/leads?per_page=100&page=${page}${filters}`));
      out.push(...body.data);
      if (page * 100 >= body.meta.total) return out;
    }
  };
  /** Every reservation of GET /api/reservations under `filters` (all pages). */
  const allReservations = async (filters = ''): Promise<Reservation[]> => {
    const out: Reservation[] = [];
    for (let page = 1; ; page++) {
      const body = reservationsPageSchema.parse(await ok(`/api/reservations?per_page=100&page=${page}${filters}`));
      out.push(...body.data);
      if (page * 100 >= body.meta.total) return out;
    }
  };
  const rowOf = (report: Report, ...cells: string[]) =>
    report.rows.find((r) => cells.every((c, i) => r.cells[report.columns[i]!.key] === c));
  /** The totals row equals the sum of the rows for every count column. */
  const expectTotalsAreSums = (report: Report, keys: readonly string[], currency?: string) => {
    const total = report.totals.find((t) => t.currency === currency);
    for (const key of keys) {
      const sum = report.rows.filter((r) => r.currency === currency).reduce((n, r) => n + (r.cells[key] as number), 0);
      expect(total?.cells[key] ?? 0, key).toBe(sum);
    }
  };

  /** A sales agent with a known name. */
  const newAgent = async (name: string, surname: string) => {
    const staff = await createStaff(db(), { roleNames: ['Asesor de ventas'], clock: ctx().clock, name, surname });
    return { id: staff.id, name, surname };
  };

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N, clock: ctx().clock });
    manager = await createSession(db(), await createStaff(db(), { roleNames: ['Administrador'], clock: ctx().clock }));
  }, SEED_TIMEOUT_MS);

  // ——— Conversión de leads ———

  it('leads, demo: each row counts the leads list of its channel and agent received in the period; links filter that list', async () => {
    const leads = await allLeads();
    expect(leads.length).toBeGreaterThan(100);
    for (const period of [DEMO_PERIOD, { from: '2026-02-01', to: '2026-02-28' }]) {
      const report = await build(leadConversionReport, period);
      expect([report.from, report.to]).toEqual([period.from, period.to]);
      const expected = new Map<string, { received: number; customers: number }>();
      for (const l of leads.filter((x) => inPeriod(x.received_at, period))) {
        const key = `${LEAD_CHANNEL_LABELS[l.channel as LeadChannel]}|${staffName(l.agent)}`;
        const e = expected.get(key) ?? { received: 0, customers: 0 };
        e.received += 1;
        if (l.customer !== null || l.status === 'CONCRETADO') e.customers += 1;
        expected.set(key, e);
      }
      expect(report.row_count).toBe(expected.size);
      for (const row of report.rows) {
        const e = expected.get(`${row.cells.channel}|${row.cells.agent}`);
        expect(e, JSON.stringify(row.cells)).toBeDefined();
        expect(count(row, 'received')).toBe(e!.received);
        expect(count(row, 'customers')).toBe(e!.customers);
        expect(count(row, 'contacted')).toBeGreaterThanOrEqual(count(row, 'customers'));
        expect(count(row, 'contacted')).toBeLessThanOrEqual(count(row, 'received'));
        expect(count(row, 'sold')).toBeLessThanOrEqual(count(row, 'customers'));
        expect(row.cells.conversion_rate).toBeCloseTo(e!.customers / e!.received, 10);
        expect(row.currency).toBeUndefined();
        if (row.cells.agent === NO_AGENT) expect(row.link).toBeUndefined();
        else {
          // The link's list (every lead of that channel and agent, any date) is what the row counts of it.
          const url = new URL(row.link!, 'http://x');
          expect(url.pathname).toBe('/CRM/LEADS');
          const listed = leadsPageSchema.parse(await ok(`/api/leads?per_page=1&${url.searchParams.toString()}`)).meta.total;
          const agentId = Number(url.searchParams.get('agent_id'));
          const channel = url.searchParams.get('channel');
          expect(listed).toBe(leads.filter((l) => l.channel === channel && l.agent?.id === agentId).length);
        }
      }
      expectTotalsAreSums(report, ['received', 'contacted', 'customers', 'sold']);
      const total = report.totals[0]!;
      expect(report.chart).toEqual({
        kind: 'funnel',
        unit: 'count',
        categories: ['Recibidos', 'Contactados', 'Clientes', 'Con venta'],
        series: [{ name: 'Leads', values: ['received', 'contacted', 'customers', 'sold'].map((k) => total.cells[k]) }],
      });
    }
  });

  it('leads, demo: the agent and subdivision filters narrow to what the summary and the list count', async () => {
    const leads = await allLeads();
    const perAgent = new Map<number, number>();
    for (const l of leads) if (l.agent) perAgent.set(l.agent.id, (perAgent.get(l.agent.id) ?? 0) + 1);
    const [demoAgent] = [...perAgent.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const all = await build(leadConversionReport, DEMO_PERIOD);
    const mine = await build(leadConversionReport, { ...DEMO_PERIOD, agent_id: demoAgent });
    expect(mine.filters).toEqual([{ label: 'Asesor', value: staffName(leads.find((l) => l.agent?.id === demoAgent)!.agent) }]);
    expect(new Set(mine.rows.map((r) => r.cells.agent)).size).toBe(1);
    expect(mine.row_count).toBeLessThan(all.row_count);
    // Every demo lead of the agent falls in the period: the summary's counts add up to Recibidos.
    const summary = leadsSummaryResponseSchema.parse(await ok(`/api/leads/summary?agent_id=${demoAgent}`)).data;
    const totalOf = (r: Report, key: string) => r.totals[0]!.cells[key] as number;
    expect(totalOf(mine, 'received')).toBe(Object.values(summary.counts).reduce((n, c) => n + c, 0));
    const statusCount = (s: LeadStatus) => summary.counts[s] ?? 0;
    expect(totalOf(mine, 'customers')).toBeGreaterThanOrEqual(statusCount('CONCRETADO'));
    expect(totalOf(mine, 'contacted')).toBeGreaterThanOrEqual(statusCount('EN_ATENCION') + statusCount('CONCRETADO'));
    expect(totalOf(mine, 'received')).toBeLessThan(totalOf(all, 'received'));

    const subdivision = leads.find((l) => l.subdivisions.length === 1)!.subdivisions[0]!;
    const bySubdivision = await build(leadConversionReport, { ...DEMO_PERIOD, subdivision_id: subdivision.id });
    expect(bySubdivision.filters).toEqual([{ label: 'Lotización', value: subdivision.name }]);
    const listed = await allLeads(`&subdivision_id=${subdivision.id}`);
    expect(totalOf(bySubdivision, 'received')).toBe(listed.filter((l) => inPeriod(l.received_at, DEMO_PERIOD)).length);
    for (const row of bySubdivision.rows) if (row.link) expect(row.link).toContain(`subdivision_id=${subdivision.id}`);
  });

  it('leads: stages, Lima-day bounds both included and the medians on a hand-built case', async () => {
    const agent = await newAgent('Lucía', 'Leads Uno');
    const other = await newAgent('Mario', 'Leads Dos');
    const subdivision = await createSubdivision(db(), { name: 'Lotización de leads' });
    const lead = async (channel: LeadChannel, received: string, extra: { status?: LeadStatus; customer?: number; agent?: number } = {}) =>
      insertLead(db(), {
        name: 'Lead de prueba',
        phone: `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        email: null,
        id_document_type: null,
        document_number: null,
        channel,
        campaign: null,
        notes: null,
        agent_id: extra.agent ?? agent.id,
        status: extra.status ?? 'POR_ATENDER',
        lost_reason: extra.status === 'NO_CONCRETADO' ? 'Sin presupuesto' : null,
        next_follow_up_at: null,
        customer_id: extra.customer ?? null,
        last_activity_at: null,
        received_at: received,
        created_by: null,
        created_at: received,
        updated_at: received,
      });
    const activity = (leadId: number, kind: string, at: string) =>
      insertLeadActivity(db(), { lead_id: leadId, kind, outcome: 'Prueba', occurred_at: at, user_id: agent.id, created_at: at });
    const conversion = (leadId: number, at: string) =>
      db()
        .insertInto('change_history')
        .values({
          occurred_at: at,
          actor_type: null,
          actor_id: null,
          ip: null,
          entity: 'leads',
          record_id: String(leadId),
          action: 'UPDATE',
          before: '{}',
          after: '{}',
          changed_fields: '["customer_id","status","updated_at"]',
        })
        .execute();

    // FERIA: contact after 1, 3 (arrived 23:00 on 9 June in Lima), 10 and 2 days → median of 1, 2, 3, 10 = 2.5 → 3.
    const a = await lead('FERIA', '2025-06-10T15:00:00.000Z', { status: 'EN_ATENCION' });
    await activity(a, 'NOTA', '2025-06-10T16:00:00.000Z');
    await activity(a, 'LLAMADA', '2025-06-11T15:00:00.000Z');
    await activity(a, 'VISITA', '2025-06-20T15:00:00.000Z');
    await setLeadSubdivisions(db(), a, [subdivision.id]);
    const b = await lead('FERIA', '2025-06-10T04:00:00.000Z', { status: 'EN_ATENCION' });
    await activity(b, 'WHATSAPP', '2025-06-12T15:00:00.000Z');
    const customer = await createCrmCustomer(db());
    const c = await lead('FERIA', '2025-06-05T15:00:00.000Z', { status: 'CONCRETADO', customer });
    await activity(c, 'VISITA', '2025-06-15T15:00:00.000Z');
    await conversion(c, '2025-06-20T15:00:00.000Z');
    const sale = async (saleDate: string, status?: 'ANULADA') => {
      const lotId = await createLot(db(), subdivision.id, { block: 'L', number: String(Math.floor(Math.random() * 1e6)) });
      await insertCashSale(db(), { lotId, subdivisionId: subdivision.id, agentId: agent.id, saleDate, titularId: customer, status });
    };
    await sale('2025-05-01'); // before the lead arrived: not its sale
    await sale('2025-06-06', 'ANULADA');
    await sale('2025-06-25');
    const d = await lead('FERIA', '2025-06-20T15:00:00.000Z', { status: 'EN_ATENCION' });
    await activity(d, 'NOTA', '2025-06-21T15:00:00.000Z');
    await lead('FERIA', '2025-06-21T15:00:00.000Z');
    const f = await lead('FERIA', '2025-06-22T15:00:00.000Z', { status: 'NO_CONCRETADO' });
    await activity(f, 'EMAIL', '2025-06-24T15:00:00.000Z');
    await lead('FERIA', '2025-06-22T15:00:00.000Z', { agent: other.id });
    // WEB: the period's first and last instants are in; the instants either side are out; a CONCRETADO without history.
    await lead('WEB', startOfLimaDay('2025-06-01'));
    await lead('WEB', new Date(Date.parse(startOfLimaDay('2025-07-01')) - 1).toISOString());
    await lead('WEB', startOfLimaDay('2025-07-01'));
    await lead('WEB', new Date(Date.parse(startOfLimaDay('2025-06-01')) - 1).toISOString());
    await lead('WEB', '2025-06-15T15:00:00.000Z', { status: 'CONCRETADO', customer: await createCrmCustomer(db()) });

    const period = { from: '2025-06-01', to: '2025-06-30' };
    const report = await build(leadConversionReport, { ...period, agent_id: agent.id });
    const name = staffName(agent);
    expect(report.rows.map((r) => [r.cells.channel, r.cells.agent])).toEqual([
      ['Feria', name],
      ['Web', name],
    ]);
    expect(rowOf(report, 'Feria', name)).toEqual({
      cells: {
        channel: 'Feria',
        agent: name,
        received: 6,
        contacted: 5,
        customers: 1,
        sold: 1,
        conversion_rate: 1 / 6,
        sale_rate: 1 / 6,
        median_days_contact: 3,
        median_days_customer: 15,
        median_days_sale: 20,
      },
      link: `/CRM/LEADS?channel=FERIA&agent_id=${agent.id}`,
    });
    expect(rowOf(report, 'Web', name)?.cells).toMatchObject({
      received: 3,
      contacted: 1,
      customers: 1,
      sold: 0,
      median_days_contact: null,
      median_days_customer: null,
      median_days_sale: null,
    });
    expect(report.totals[0]!.cells).toMatchObject({
      channel: 'Total',
      received: 9,
      contacted: 6,
      customers: 2,
      sold: 1,
      median_days_contact: 3,
    });
    expect(report.chart?.series[0]!.values).toEqual([9, 6, 2, 1]);

    // Without the agent filter the other agent's FERIA lead is its own row; the subdivision filter keeps only lead A.
    const everyone = await build(leadConversionReport, period);
    expect(rowOf(everyone, 'Feria', staffName(other))?.cells.received).toBe(1);
    expect(rowOf(everyone, 'Feria', name)?.cells.received).toBe(6);
    const bySubdivision = await build(leadConversionReport, { ...period, subdivision_id: subdivision.id });
    expect(bySubdivision.rows.map((r) => [r.cells.channel, r.cells.received, r.cells.median_days_contact])).toEqual([['Feria', 1, 1]]);
    expect(bySubdivision.rows[0]!.link).toBe(`/CRM/LEADS?channel=FERIA&agent_id=${agent.id}&subdivision_id=${subdivision.id}`);
    // The first and last Lima day alone.
    expect(
      (await build(leadConversionReport, { from: '2025-06-01', to: '2025-06-01', agent_id: agent.id })).totals[0]!.cells.received,
    ).toBe(1);
    expect(
      (await build(leadConversionReport, { from: '2025-06-30', to: '2025-06-30', agent_id: agent.id })).totals[0]!.cells.received,
    ).toBe(1);
  });

  it('leads: a conversion through POST /api/leads/{id}/convert dates the Cliente stage', async () => {
    const agent = await newAgent('Carla', 'Convierte');
    const id = await insertLead(db(), {
      name: 'Lead convertido',
      phone: '987600001',
      email: null,
      id_document_type: null,
      document_number: null,
      channel: 'OTRO',
      campaign: null,
      notes: null,
      agent_id: agent.id,
      status: 'POR_ATENDER',
      lost_reason: null,
      next_follow_up_at: null,
      customer_id: null,
      last_activity_at: null,
      received_at: new Date(ctx().clock.now().getTime() - 5 * DAY_MS).toISOString(),
      created_by: null,
      created_at: '2026-02-25T15:00:00.000Z',
      updated_at: '2026-02-25T15:00:00.000Z',
    });
    const res = await ctx().app.inject({
      method: 'POST',
      url: `/api/leads/${id}/convert`,
      headers: bearer(manager),
      payload: { customer_id: await createCrmCustomer(db()) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const report = await build(leadConversionReport, { from: '2026-02-01', to: TODAY, agent_id: agent.id });
    expect(report.rows.map((r) => r.cells)).toMatchObject([
      {
        channel: 'Otro',
        received: 1,
        contacted: 1,
        customers: 1,
        sold: 0,
        conversion_rate: 1,
        median_days_customer: 5,
        median_days_contact: null,
      },
    ]);
  });

  it('medianDays: odd, even (rounded), none', () => {
    expect(medianDays([10, 1, 3])).toBe(3);
    expect(medianDays([1, 2, 3, 10])).toBe(3);
    expect(medianDays([1, 2])).toBe(2);
    expect(medianDays([4])).toBe(4);
    expect(medianDays([])).toBeNull();
  });

  // ——— Reservas ———

  const OUTCOME: Record<ReservationStatus, 'converted' | 'expired' | 'cancelled' | 'active'> = {
    CONVERTIDA: 'converted',
    VENCIDA: 'expired',
    ANULADA: 'cancelled',
    PENDIENTE_PAGO: 'active',
    VIGENTE: 'active',
  };

  /** The report's rows against the reservations list: created in the period, per agent × currency. */
  const expectReservationsEqualList = async (report: Report, period: { from: string; to: string }, filters = '') => {
    const listed = (await allReservations(filters)).filter((r) => inPeriod(r.created_at, period));
    const expected = new Map<string, Record<string, number>>();
    for (const r of listed) {
      const key = `${staffName(r.agent)}|${r.currency}`;
      const e = expected.get(key) ?? { count: 0, converted: 0, expired: 0, cancelled: 0, active: 0, amount: 0, converted_amount: 0 };
      e.count! += 1;
      e[OUTCOME[r.status]]! += 1;
      e.amount! += r.amount;
      if (r.status === 'CONVERTIDA') e.converted_amount! += r.amount;
      expected.set(key, e);
    }
    expect(report.row_count).toBe(expected.size);
    for (const row of report.rows) {
      expect(row.cells.currency).toBe(row.currency);
      expect(row.cells, `${row.cells.agent} ${row.currency}`).toMatchObject(expected.get(`${row.cells.agent}|${row.currency}`)!);
      expect(row.link).toBeUndefined();
    }
    for (const currency of new Set(report.rows.map((r) => r.currency)))
      expectTotalsAreSums(report, ['count', 'converted', 'expired', 'cancelled', 'active', 'amount', 'converted_amount'], currency);
    expect(report.totals.map((t) => t.currency)).toEqual([...new Set(report.rows.map((r) => r.currency))].sort());
    return listed;
  };

  it('reservas, demo: each row counts the reservations list of its agent and currency made in the period, by status', async () => {
    const period = { from: '2026-02-20', to: TODAY };
    const report = await build(reservationsReport, period);
    const listed = await expectReservationsEqualList(report, period);
    expect(listed.length).toBeGreaterThan(0);
    expect(report.chart?.kind).toBe('stacked');
    expect(report.chart?.series.map((s) => s.name)).toEqual(['Convertidas', 'Vencidas', 'Anuladas', 'Vigentes']);
    // Per agent, the stacked bars add up to the agent's reservations of every currency.
    report.chart!.categories.forEach((agentName, i) => {
      const made = report.rows.filter((r) => r.cells.agent === agentName).reduce((n, r) => n + count(r, 'count'), 0);
      expect(report.chart!.series.reduce((n, s) => n + (s.values[i] ?? 0), 0)).toBe(made);
    });
    const agentId = listed.find((r) => r.agent)?.agent?.id;
    if (agentId !== undefined) {
      const mine = await build(reservationsReport, { ...period, agent_id: agentId });
      await expectReservationsEqualList(mine, period, `&agent_id=${agentId}`);
    }
  });

  it('reservas: outcomes, currencies apart, Lima-day bounds both included, agent and subdivision filters', async () => {
    const agent = await newAgent('Rosa', 'Separa Uno');
    const other = await newAgent('Pedro', 'Separa Dos');
    const pen = await createSubdivision(db(), { name: 'Separaciones Soles', currency: 'PEN' });
    const usd = await createSubdivision(db(), { name: 'Separaciones Dólares', currency: 'USD' });
    const customer = await createCrmCustomer(db());
    let n = 0;
    const reserve = async (
      subdivision: { id: number },
      currency: 'PEN' | 'USD',
      status: ReservationStatus,
      amount: number,
      at: string,
      agentId = agent.id,
    ) => {
      const lotId = await createLot(db(), subdivision.id, { block: 'S', number: String(++n) });
      const { id } = await db()
        .insertInto('reservations')
        .values({
          customer_id: customer,
          lot_id: lotId,
          agent_id: agentId,
          amount,
          currency,
          hold_days: 7,
          expires_at: new Date(Date.parse(at) + 7 * DAY_MS).toISOString(),
          status,
          cancel_reason: status === 'ANULADA' ? 'Desistió' : null,
          conditions_accepted_at: at,
          created_by: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (status === 'CONVERTIDA') {
        const saleId = await insertCashSale(db(), {
          lotId,
          subdivisionId: subdivision.id,
          agentId,
          saleDate: '2025-07-20',
          titularId: customer,
        });
        await db().updateTable('sales').set({ reservation_id: id }).where('id', '=', saleId).execute();
      }
    };
    const first = startOfLimaDay('2025-07-01');
    const end = startOfLimaDay('2025-08-01');
    const before = (instant: string) => new Date(Date.parse(instant) - 1).toISOString();
    await reserve(pen, 'PEN', 'CONVERTIDA', 50_000, first);
    await reserve(pen, 'PEN', 'VENCIDA', 30_000, before(end));
    await reserve(pen, 'PEN', 'ANULADA', 20_000, '2025-07-10T15:00:00.000Z');
    await reserve(pen, 'PEN', 'VIGENTE', 10_000, '2025-07-11T15:00:00.000Z');
    await reserve(pen, 'PEN', 'PENDIENTE_PAGO', 5_000, '2025-07-12T15:00:00.000Z');
    await reserve(usd, 'USD', 'CONVERTIDA', 20_000, '2025-07-13T15:00:00.000Z');
    await reserve(usd, 'USD', 'VENCIDA', 10_000, '2025-07-14T15:00:00.000Z');
    await reserve(pen, 'PEN', 'VIGENTE', 99_000, end); // the next day's first instant: out
    await reserve(pen, 'PEN', 'VIGENTE', 99_000, before(first)); // the day before: out
    await reserve(pen, 'PEN', 'VENCIDA', 7_000, '2025-07-15T15:00:00.000Z', other.id);

    const period = { from: '2025-07-01', to: '2025-07-31' };
    const name = staffName(agent);
    const mine = await build(reservationsReport, { ...period, agent_id: agent.id });
    expect(mine.filters).toEqual([{ label: 'Asesor', value: name }]);
    expect(mine.rows).toEqual([
      {
        currency: 'PEN',
        cells: {
          agent: name,
          currency: 'PEN',
          count: 5,
          converted: 1,
          expired: 1,
          cancelled: 1,
          active: 2,
          conversion_rate: 0.2,
          amount: 115_000,
          converted_amount: 50_000,
        },
      },
      {
        currency: 'USD',
        cells: {
          agent: name,
          currency: 'USD',
          count: 2,
          converted: 1,
          expired: 1,
          cancelled: 0,
          active: 0,
          conversion_rate: 0.5,
          amount: 30_000,
          converted_amount: 20_000,
        },
      },
    ]);
    expect(mine.totals.map((t) => [t.currency, t.cells.amount, t.cells.count])).toEqual([
      ['PEN', 115_000, 5],
      ['USD', 30_000, 2],
    ]);
    expect(mine.chart).toEqual({
      kind: 'stacked',
      unit: 'count',
      categories: [name],
      series: [
        { name: 'Convertidas', values: [2] },
        { name: 'Vencidas', values: [2] },
        { name: 'Anuladas', values: [1] },
        { name: 'Vigentes', values: [2] },
      ],
    });
    await expectReservationsEqualList(mine, period, `&agent_id=${agent.id}`);

    // Without the agent filter the other agent appears; the list agrees.
    const everyone = await build(reservationsReport, period);
    expect(everyone.rows.map((r) => [r.cells.agent, r.currency, r.cells.count])).toEqual(
      expect.arrayContaining([
        [name, 'PEN', 5],
        [name, 'USD', 2],
        [staffName(other), 'PEN', 1],
      ]),
    );
    await expectReservationsEqualList(everyone, period);
    // The subdivision (through the lot) keeps only the dollar reservations.
    const dollars = await build(reservationsReport, { ...period, subdivision_id: usd.id });
    expect(dollars.filters).toEqual([{ label: 'Lotización', value: 'Separaciones Dólares' }]);
    expect(dollars.rows.map((r) => [r.cells.agent, r.currency, r.cells.count])).toEqual([[name, 'USD', 2]]);
    // First and last Lima day alone.
    expect(
      (await build(reservationsReport, { from: '2025-07-01', to: '2025-07-01', agent_id: agent.id })).totals.map((t) => t.cells.count),
    ).toEqual([1]);
    expect(
      (await build(reservationsReport, { from: '2025-07-31', to: '2025-07-31', agent_id: agent.id })).totals.map((t) => t.cells.count),
    ).toEqual([1]);
  });
});
