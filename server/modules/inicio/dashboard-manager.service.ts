import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import {
  DASHBOARD_PERIODS,
  type CollectionsCard,
  type DashboardCurrency,
  type DashboardPeriod,
  type LeadsCard,
  type LotsCard,
  type OverdueCard,
  type SalesCard,
  type TopAgentsCard,
} from '../../../src/schemas/inicio/dashboard';
import { DAYS_LATE_BUCKETS } from '../../../src/schemas/finanzas/instalments';
import { LEAD_STATUSES } from '../../../src/schemas/crm/leads';
import { LOT_STATUSES } from '../../../src/schemas/proyectos/projects';
import { startOfLimaDay, todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { salesReport } from '../comercio/sales-report.service';
import { instalmentTotals } from '../finanzas/instalments.service';
import { paymentTotals } from '../finanzas/payments.repository';
import { leadArrivals, leadSummary, type LeadScope } from '../crm/leads.repository';
import { lotCountsByStatus } from '../proyectos/subdivisions.repository';

/**
 * Inicio's manager cards (docs/dashboard.md "Manager cards"; shapes in
 * src/schemas/inicio/dashboard.ts). Every figure is computed by the code of the list its card links
 * to, with the filters of that link, so the card and the list cannot disagree: Reporte de Ventas
 * (`salesReport`), Pagos (`paymentTotals`, the list's own filters), Registro de Cuotas
 * (`instalmentTotals`), Leads (`leadSummary`, the list's own scope) and the lot counts the
 * subdivisions list reads (`subdivision_lot_counts`, migration 0012). Money stays per currency,
 * never added across; dates are Lima calendar dates by the injected clock.
 */

/** Lima's today (yyyy-mm-dd) by the app's clock, as a Temporal date. */
export function limaToday(deps: Pick<AppDeps, 'clock'>): Temporal.PlainDate {
  return Temporal.PlainDate.from(todayInLimaBy(deps.clock));
}

/** First and last day (yyyy-mm-dd) of `month`. */
function monthRange(month: Temporal.PlainYearMonth): { from: string; to: string } {
  return { from: month.toPlainDate({ day: 1 }).toString(), to: month.toPlainDate({ day: month.daysInMonth }).toString() };
}

/**
 * The card's periods on `today` (Lima): THIS_MONTH from its first day to today, LAST_MONTH and
 * SAME_MONTH_LAST_YEAR from their first to their last day.
 */
export function dashboardPeriods(today: Temporal.PlainDate): Record<DashboardPeriod, { from: string; to: string }> {
  const month = today.toPlainYearMonth();
  return {
    THIS_MONTH: { from: month.toPlainDate({ day: 1 }).toString(), to: today.toString() },
    LAST_MONTH: monthRange(month.subtract({ months: 1 })),
    SAME_MONTH_LAST_YEAR: monthRange(month.subtract({ years: 1 })),
  };
}

/** PEN before USD. */
const byCurrency = <T extends { currency: DashboardCurrency }>(a: T, b: T) => a.currency.localeCompare(b.currency);

/**
 * GET /api/dashboard/sales: for each period, the totals of Reporte de Ventas for that period
 * (`salesReport`, ANULADA left out), `agent_id` forced to `owner` when the caller's scope narrows
 * the report to their own sales (server/auth/scopes.ts `exportsOwner`, as the report's route does).
 */
export async function salesCard(deps: Pick<AppDeps, 'db' | 'clock'>, owner: number | null): Promise<SalesCard> {
  const today = limaToday(deps);
  const periods = dashboardPeriods(today);
  const rows: SalesCard['periods'] = [];
  for (const period of DASHBOARD_PERIODS) {
    const { from, to } = periods[period];
    const report = await salesReport(deps, { from, to, ...(owner === null ? {} : { agent_id: owner }) });
    rows.push({
      period,
      from,
      to,
      count: report.totals.reduce((n, t) => n + t.count, 0),
      by_currency: report.totals
        .map((t) => ({ currency: t.currency, amount: t.total, area_m2: t.area_m2, price_per_m2: t.price_per_m2 }))
        .sort(byCurrency),
    });
  }
  return { as_of: today.toString(), periods: rows };
}

/** How many agents the top-agents card lists. */
export const TOP_AGENTS = 5;

/**
 * GET /api/dashboard/top-agents: this month's (first day to today) "Por asesor" of Reporte de
 * Ventas, per agent across currencies: most sales first, then most sold in PEN, then by name; at
 * most {@link TOP_AGENTS}; sales without an agent left out (the card links to one agent's report).
 * `owner` as in {@link salesCard}.
 */
export async function topAgentsCard(deps: Pick<AppDeps, 'db' | 'clock'>, owner: number | null): Promise<TopAgentsCard> {
  const { from, to } = dashboardPeriods(limaToday(deps)).THIS_MONTH;
  const report = await salesReport(deps, { from, to, ...(owner === null ? {} : { agent_id: owner }) });
  const agents = new Map<number, TopAgentsCard['agents'][number]>();
  for (const row of report.by_agent) {
    if (row.id === null) continue;
    let agent = agents.get(row.id);
    if (!agent) {
      agent = { id: row.id, name: row.name, count: 0, by_currency: [] };
      agents.set(row.id, agent);
    }
    agent.count += row.count;
    agent.by_currency.push({ currency: row.currency, amount: row.total });
  }
  const pen = (a: TopAgentsCard['agents'][number]) => a.by_currency.find((m) => m.currency === 'PEN')?.amount ?? 0;
  const ranked = [...agents.values()]
    .map((a) => ({ ...a, by_currency: a.by_currency.sort(byCurrency) }))
    .sort((a, b) => b.count - a.count || pen(b) - pen(a) || a.name.localeCompare(b.name, 'es') || a.id - b.id)
    .slice(0, TOP_AGENTS);
  return { from, to, agents: ranked };
}

/**
 * GET /api/dashboard/collections: this calendar month (first to last day). `collected` = Σ of the
 * Pagos list filtered status=APROBADO&from&to, `collected_today` the same for today alone (both by
 * operation date), `expected` = the `amount` total of Registro de Cuotas filtered due_from&due_to.
 * A currency with none of the three is left out.
 */
export async function collectionsCard(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<CollectionsCard> {
  const today = limaToday(deps);
  const { from, to } = monthRange(today.toPlainYearMonth());
  const collected = await paymentTotals(deps.db, { status: 'APROBADO', from, to });
  const collectedToday = await paymentTotals(deps.db, { status: 'APROBADO', from: today.toString(), to: today.toString() });
  const expected = await instalmentTotals(deps, { due_from: from, due_to: to });
  const rows = (['PEN', 'USD'] as const)
    .map((currency) => ({
      currency,
      collected: collected.find((r) => r.currency === currency)?.amount ?? 0,
      expected: expected.find((r) => r.currency === currency)?.amount ?? 0,
      collected_today: collectedToday.find((r) => r.currency === currency)?.amount ?? 0,
    }))
    .filter((r) => r.collected !== 0 || r.expected !== 0 || r.collected_today !== 0);
  return { as_of: today.toString(), from, to, by_currency: rows };
}

/**
 * GET /api/dashboard/overdue: per days-late bucket, the totals of Registro de Cuotas filtered
 * days_late=<bucket> (`instalmentTotals`): `count` over currencies (instalments), `amount` the
 * outstanding balance (amount − paid) per currency; a currency with nothing outstanding and no
 * instalment is left out.
 */
export async function overdueCard(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<OverdueCard> {
  const buckets: OverdueCard['buckets'] = [];
  for (const bucket of DAYS_LATE_BUCKETS) {
    const totals = await instalmentTotals(deps, { days_late: bucket });
    buckets.push({
      bucket,
      count: totals.reduce((n, t) => n + t.count, 0),
      by_currency: totals.filter((t) => t.count > 0).map((t) => ({ currency: t.currency, amount: t.balance })),
    });
  }
  return { as_of: todayInLimaBy(deps.clock), buckets };
}

/** Subdivisions the lots card shows at most. */
export const LOTS_CARD_SUBDIVISIONS = 20;

/**
 * GET /api/dashboard/lots: the active subdivisions (status other than CERRADO), by name, at most
 * {@link LOTS_CARD_SUBDIVISIONS}, each with its lots per status from the counts the database keeps
 * (`subdivision_lot_counts`, migration 0012; statuses without lots left out) and its opaque key
 * for the link.
 */
export async function lotsCard(deps: Pick<AppDeps, 'db' | 'ids'>): Promise<LotsCard> {
  const subdivisions = await deps.db
    .selectFrom('subdivisions')
    .select(['id', 'name'])
    .where('status', '<>', 'CERRADO')
    .orderBy('name')
    .orderBy('id')
    .limit(LOTS_CARD_SUBDIVISIONS)
    .execute();
  const counts =
    subdivisions.length === 0
      ? []
      : await lotCountsByStatus(
          deps.db,
          subdivisions.map((s) => s.id),
        );
  const order = (status: string) => (LOT_STATUSES as readonly string[]).indexOf(status);
  return {
    subdivisions: subdivisions.map((s) => ({
      id: s.id,
      id_encrypted: deps.ids.encode(s.id),
      name: s.name,
      counts: Object.fromEntries(
        counts
          .filter((c) => c.subdivision_id === s.id)
          .sort((a, b) => order(a.status) - order(b.status))
          .map((c) => [c.status, Number(c.n)]),
      ),
    })),
  };
}

/**
 * GET /api/dashboard/leads: under the Leads list's scope (own leads without 'Supervisar leads'):
 * the list's summary (`leadSummary`: counts per status, statuses with none left out; `overdue` =
 * GET /api/leads?overdue=true's total) and this month's arrivals (received from the month's first
 * Lima midnight to the next month's) with how many are CONCRETADO; `rate_bp` = converted ÷ arrived
 * in basis points, rounded half up (null when none arrived).
 */
export async function leadsCard(deps: Pick<AppDeps, 'db' | 'clock'>, scope: LeadScope): Promise<LeadsCard> {
  const today = limaToday(deps);
  const now = deps.clock.now().toISOString();
  const summary = await leadSummary(deps.db, {}, scope, now);
  const month = today.toPlainYearMonth();
  const { arrived, converted } = await leadArrivals(
    deps.db,
    scope,
    startOfLimaDay(month.toPlainDate({ day: 1 }).toString()),
    startOfLimaDay(month.add({ months: 1 }).toPlainDate({ day: 1 }).toString()),
    now,
  );
  const known = (status: string) => (LEAD_STATUSES as readonly string[]).indexOf(status);
  return {
    as_of: today.toString(),
    by_status: Object.entries(summary.counts)
      .filter(([, count]) => count > 0)
      .sort(([a], [b]) => known(a) - known(b))
      .map(([status, count]) => ({ status, count })),
    month: { arrived, converted, rate_bp: arrived === 0 ? null : Math.round((converted * 10_000) / arrived) },
    follow_ups_due: summary.overdue,
  };
}

/** The revision of a `list_revisions` row (0 when absent). */
export async function listRevision(db: Kysely<DB>, name: 'sales' | 'instalments' | 'payments'): Promise<number> {
  const row = await db.selectFrom('list_revisions').select('revision').where('name', '=', name).executeTakeFirst();
  return Number(row?.revision ?? 0);
}
