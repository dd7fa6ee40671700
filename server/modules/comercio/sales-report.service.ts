import { sql, type Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import {
  DIRECT_CHANNEL,
  salesChannelLabel,
  salesReportFileName,
  type SalesReportFormat,
  type SalesFigures,
  type SalesReport,
  type SalesReportOptions,
  type SalesReportQuery,
} from '../../../src/schemas/comercio/sales-report';
import type { CurrencyCode } from '../../../src/lib/money';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { EXPORT_MIME, renderDocument } from '../../platform/documents';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';

/**
 * Comercial → Reporte de Ventas (docs/decisions.md "Sales report"): the figures of the sales of a
 * period, grouped in SQL at the finest grain (month × subdivision × agent × channel × currency; a
 * few hundred rows even for five years) and rolled up here into the totals and the four views.
 * The same code runs on SQLite and PostgreSQL: `sale_date` is an ISO text on both, so its month is
 * `substr(sale_date, 1, 7)`; sums are read back with `Number` (PostgreSQL answers bigint sums as
 * text).
 */

/** Agent name of sales without one (the user was removed, or a seed without agent). */
export const NO_AGENT_NAME = 'Sin asesor';

/** One row of the grouped query. */
interface Cell {
  month: string;
  subdivision_id: number;
  agent_id: number | null;
  channel: string;
  currency: CurrencyCode;
  count: number;
  total: number;
  area_m2: number;
}

/**
 * The channel of each sale: the channel of the buyers' concluded lead (status CONCRETADO, its
 * customer a holder of the sale) — the titular's first (holder position), then the most recently
 * received lead — or {@link DIRECT_CHANNEL} when no concluded lead led to it.
 */
function saleCells(db: Kysely<DB>, query: SalesReportQuery) {
  let inner = db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .select((eb) => [
      sql<string>`substr(sales.sale_date, 1, 7)`.as('month'),
      'lots.subdivision_id',
      'sales.agent_id',
      'sales.currency',
      'sales.final_price',
      'lots.area_m2',
      eb.fn
        .coalesce(
          eb
            .selectFrom('sale_holders')
            .innerJoin('leads', 'leads.customer_id', 'sale_holders.customer_id')
            .select('leads.channel')
            .whereRef('sale_holders.sale_id', '=', 'sales.id')
            .where('leads.status', '=', 'CONCRETADO')
            .orderBy('sale_holders.position')
            .orderBy('leads.received_at', 'desc')
            .orderBy('leads.id', 'desc')
            .limit(1),
          sql.lit(DIRECT_CHANNEL),
        )
        .as('channel'),
    ])
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .where('sales.sale_date', '>=', query.from)
    .where('sales.sale_date', '<=', query.to);
  if (query.subdivision_id !== undefined) inner = inner.where('lots.subdivision_id', '=', query.subdivision_id);
  if (query.agent_id !== undefined) inner = inner.where('sales.agent_id', '=', query.agent_id);
  return inner;
}

async function groupedCells(db: Kysely<DB>, query: SalesReportQuery): Promise<Cell[]> {
  const rows = await db
    .selectFrom(saleCells(db, query).as('s'))
    .select([
      's.month',
      's.subdivision_id',
      's.agent_id',
      's.channel',
      's.currency',
      sql<number>`count(*)`.as('count'),
      sql<number>`sum(s.final_price)`.as('total'),
      sql<number>`sum(s.area_m2)`.as('area_m2'),
    ])
    .$if(query.channel !== undefined, (q) => q.where('s.channel', '=', query.channel ?? ''))
    .groupBy(['s.month', 's.subdivision_id', 's.agent_id', 's.channel', 's.currency'])
    .execute();
  return rows.map((r) => ({
    month: r.month,
    subdivision_id: Number(r.subdivision_id),
    agent_id: r.agent_id === null ? null : Number(r.agent_id),
    channel: r.channel,
    currency: r.currency,
    count: Number(r.count),
    total: Number(r.total),
    area_m2: Number(r.area_m2),
  }));
}

/** Sums cells by `key` (and currency), in first-seen order. */
function rollUp<K extends string | number | null>(cells: readonly Cell[], key: (cell: Cell) => K): { key: K; figures: SalesFigures }[] {
  const groups = new Map<string, { key: K; currency: CurrencyCode; count: number; total: number; area: number }>();
  for (const cell of cells) {
    const k = key(cell);
    const id = `${String(k)}|${cell.currency}`;
    let group = groups.get(id);
    if (!group) {
      group = { key: k, currency: cell.currency, count: 0, total: 0, area: 0 };
      groups.set(id, group);
    }
    group.count += cell.count;
    group.total += cell.total;
    group.area += cell.area_m2;
  }
  return [...groups.values()].map((g) => ({
    key: g.key,
    figures: {
      currency: g.currency,
      count: g.count,
      total: g.total,
      area_m2: Math.round(g.area * 100) / 100,
      price_per_m2: g.area > 0 ? Math.round(g.total / g.area) : null,
    },
  }));
}

/** Soles first, then by total sold (largest first), then by `tie`. */
const byCurrencyThenTotal =
  <T extends SalesFigures>(tie: (a: T, b: T) => number) =>
  (a: T, b: T) =>
    a.currency.localeCompare(b.currency) || b.total - a.total || tie(a, b);

/** Every `YYYY-MM` from `from`'s month to `to`'s, in order. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  const last = Temporal.PlainYearMonth.from(to.slice(0, 7));
  for (let m = Temporal.PlainYearMonth.from(from.slice(0, 7)); Temporal.PlainYearMonth.compare(m, last) <= 0; m = m.add({ months: 1 }))
    months.push(m.toString());
  return months;
}

/**
 * The sales report (GET /api/sales/report): the query's period and filters, every month of the
 * period, totals per currency, and the figures by month, subdivision, agent and channel (see
 * `salesReportSchema`). ANULADA sales are left out.
 */
export async function salesReport(deps: Pick<AppDeps, 'db'>, query: SalesReportQuery): Promise<SalesReport> {
  const cells = await groupedCells(deps.db, query);
  const subdivisionIds = [...new Set(cells.map((c) => c.subdivision_id))];
  const agentIds = [...new Set(cells.flatMap((c) => (c.agent_id === null ? [] : [c.agent_id])))];
  const subdivisions = subdivisionIds.length
    ? await deps.db.selectFrom('subdivisions').select(['id', 'name']).where('id', 'in', subdivisionIds).execute()
    : [];
  const agents = agentIds.length
    ? await deps.db.selectFrom('users').select(['id', 'name', 'surname']).where('id', 'in', agentIds).execute()
    : [];
  const subdivisionName = new Map(subdivisions.map((s) => [s.id, s.name]));
  const agentName = new Map(agents.map((a) => [a.id, `${a.name} ${a.surname}`.trim()]));
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name, 'es');
  return {
    from: query.from,
    to: query.to,
    months: monthsOf(query.from, query.to),
    totals: rollUp(cells, () => 'all')
      .map((g) => g.figures)
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    by_month: rollUp(cells, (c) => c.month)
      .map((g) => ({ month: g.key, ...g.figures }))
      .sort((a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency)),
    by_subdivision: rollUp(cells, (c) => c.subdivision_id)
      .map((g) => ({ id: g.key, name: subdivisionName.get(g.key) ?? `#${g.key}`, ...g.figures }))
      .sort(byCurrencyThenTotal(byName)),
    by_agent: rollUp(cells, (c) => c.agent_id)
      .map((g) => ({ id: g.key, name: g.key === null ? NO_AGENT_NAME : (agentName.get(g.key) ?? NO_AGENT_NAME), ...g.figures }))
      .sort(byCurrencyThenTotal(byName)),
    by_channel: rollUp(cells, (c) => c.channel)
      .map((g) => ({ channel: g.key, ...g.figures }))
      .sort(byCurrencyThenTotal((a, b) => a.channel.localeCompare(b.channel))),
  };
}

/**
 * The filters' choices (GET /api/sales/report/options): every subdivision by name with its
 * currency, and every staff user who made at least one sale, by surname (only the caller when
 * `owner` is set: the exports scope, docs/security.md 31.11).
 */
export async function salesReportOptions(deps: Pick<AppDeps, 'db'>, owner: number | null = null): Promise<SalesReportOptions> {
  const subdivisions = await deps.db.selectFrom('subdivisions').select(['id', 'name', 'currency']).orderBy('name').orderBy('id').execute();
  const agents = await deps.db
    .selectFrom('users')
    .select(['users.id', 'users.name', 'users.surname'])
    .$if(owner !== null, (q) => q.where('users.id', '=', owner ?? 0))
    .where((eb) => eb.exists(eb.selectFrom('sales').select('sales.id').whereRef('sales.agent_id', '=', 'users.id')))
    .orderBy('users.surname')
    .orderBy('users.name')
    .orderBy('users.id')
    .execute();
  return {
    subdivisions,
    agents: agents.map((a) => ({ id: a.id, name: `${a.name} ${a.surname}`.trim() })),
  };
}

/**
 * The report as a file (GET /api/sales/report.xlsx and .pdf): the figures of {@link salesReport}
 * with the company's name, the filters by name and the moment of issue.
 * @returns the file name (`reporte-ventas_<from>_<to>.<ext>`), its MIME type and its bytes.
 */
export async function salesReportFile(
  deps: Pick<AppDeps, 'db' | 'clock' | 'documents'>,
  query: SalesReportQuery,
  format: SalesReportFormat,
): Promise<{ fileName: string; mime: string; bytes: Buffer }> {
  const report = await salesReport(deps, query);
  const company = await deps.db.selectFrom('companies').select('business_name').orderBy('id').executeTakeFirst();
  const filters: string[] = [];
  if (query.subdivision_id !== undefined) {
    const s = await deps.db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
    filters.push(`Lotización: ${s?.name ?? `#${query.subdivision_id}`}`);
  }
  if (query.agent_id !== undefined) {
    const a = await deps.db.selectFrom('users').select(['name', 'surname']).where('id', '=', query.agent_id).executeTakeFirst();
    filters.push(`Asesor: ${a ? `${a.name} ${a.surname}`.trim() : `#${query.agent_id}`}`);
  }
  if (query.channel !== undefined) filters.push(`Canal: ${salesChannelLabel(query.channel)}`);
  const context = { companyName: company?.business_name ?? '', filters, issuedAt: deps.clock.now().toISOString() };
  const fileName = salesReportFileName(report, format);
  // Written on the documents' worker pool (server/platform/documents.ts), off the event loop.
  const bytes = await renderDocument(deps.documents, 'salesReport.file', { format, report, context });
  return { fileName, mime: format === 'xlsx' ? EXPORT_MIME.xlsx : 'application/pdf', bytes };
}
