import { sql, type Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { CurrencyCode } from '../../../src/lib/money';
import { REPORT_TITLES, type ReportColumn, type ReportOutput, type ReportRow } from '../../../src/schemas/reportes/report';
import { startOfLimaDay } from '../../clock';
import type { DB } from '../../db/database';
import { reportPeriod, type ReportContext, type ReportDefinition } from './report-definition';

/**
 * Reservas (docs/reports.md "Reservas"): the reservations (separaciones) made in a period, per
 * agent and currency, by what became of them, with the amounts reserved. Grouped in SQL (agent ×
 * currency: a few rows), so its work does not grow with the period.
 *
 * Outcomes, read from the reservation's status (src/schemas/comercio/reservations.ts):
 * - CONVERTIDA: converted into a sale (the sale that names it in `sales.reservation_id` turns it
 *   CONVERTIDA in the same transaction; server/modules/comercio/sales.service.ts).
 * - VENCIDA: expired without a sale (the expiry job).
 * - ANULADA: cancelled (POST /api/reservations/{id}/cancel).
 * - Active: PENDIENTE_PAGO or VIGENTE, still holding the lot.
 */

/** The outcomes a reservation may have, in the report's order. */
export const RESERVATION_OUTCOMES = ['converted', 'expired', 'cancelled', 'active'] as const;
export type ReservationOutcome = (typeof RESERVATION_OUTCOMES)[number];
export const RESERVATION_OUTCOME_LABELS: Record<ReservationOutcome, string> = {
  converted: 'Convertidas',
  expired: 'Vencidas',
  cancelled: 'Anuladas',
  active: 'Vigentes',
};

/** Agent name of reservations without one (the user was removed, or seed data). */
const NO_AGENT = 'Sin asesor';

const COLUMNS: ReportColumn[] = [
  { key: 'agent', label: 'Asesor', kind: 'text' },
  { key: 'currency', label: 'Moneda', kind: 'text' },
  { key: 'count', label: 'Separaciones', kind: 'count' },
  { key: 'converted', label: 'Convertidas', kind: 'count' },
  { key: 'expired', label: 'Vencidas', kind: 'count' },
  { key: 'cancelled', label: 'Anuladas', kind: 'count' },
  { key: 'active', label: 'Vigentes', kind: 'count' },
  { key: 'conversion_rate', label: 'Conversión', kind: 'percent' },
  { key: 'amount', label: 'Monto separado', kind: 'money' },
  { key: 'converted_amount', label: 'Monto convertido', kind: 'money' },
];

/** Figures of one agent × currency (or one currency's total). */
interface Figures {
  count: number;
  converted: number;
  expired: number;
  cancelled: number;
  active: number;
  /** Σ amount, céntimos of the row's currency. */
  amount: number;
  /** Σ amount of the CONVERTIDA ones, céntimos. */
  converted_amount: number;
}

interface Cell extends Figures {
  agent_id: number | null;
  currency: CurrencyCode;
}

const ZERO: Figures = { count: 0, converted: 0, expired: 0, cancelled: 0, active: 0, amount: 0, converted_amount: 0 };

const add = (a: Figures, b: Figures): Figures => ({
  count: a.count + b.count,
  converted: a.converted + b.converted,
  expired: a.expired + b.expired,
  cancelled: a.cancelled + b.cancelled,
  active: a.active + b.active,
  amount: a.amount + b.amount,
  converted_amount: a.converted_amount + b.converted_amount,
});

/**
 * The period's reservations grouped by agent × currency: created on a Lima day from `from` to `to`
 * (both included; `created_at` against startOfLimaDay), of a lot of `subdivisionId` when given, of
 * `agentId` when given. Counts by outcome and amounts in céntimos.
 */
export async function reservationFigures(
  db: Kysely<DB>,
  filters: { from: string; to: string; subdivisionId?: number; agentId?: number },
): Promise<Cell[]> {
  const fromInstant = startOfLimaDay(filters.from);
  const toInstant = startOfLimaDay(Temporal.PlainDate.from(filters.to).add({ days: 1 }).toString());
  const countOf = (statuses: string) => sql<number>`sum(case when r.status in (${sql.raw(statuses)}) then 1 else 0 end)`;
  const rows = await db
    .selectFrom('reservations as r')
    .$if(filters.subdivisionId !== undefined, (q) =>
      q.innerJoin('lots', 'lots.id', 'r.lot_id').where('lots.subdivision_id', '=', filters.subdivisionId!),
    )
    .select([
      'r.agent_id',
      'r.currency',
      sql<number>`count(*)`.as('count'),
      countOf(`'CONVERTIDA'`).as('converted'),
      countOf(`'VENCIDA'`).as('expired'),
      countOf(`'ANULADA'`).as('cancelled'),
      countOf(`'PENDIENTE_PAGO', 'VIGENTE'`).as('active'),
      sql<number>`sum(r.amount)`.as('amount'),
      sql<number>`sum(case when r.status = 'CONVERTIDA' then r.amount else 0 end)`.as('converted_amount'),
    ])
    .where('r.created_at', '>=', fromInstant)
    .where('r.created_at', '<', toInstant)
    .$if(filters.agentId !== undefined, (q) => q.where('r.agent_id', '=', filters.agentId!))
    .groupBy(['r.agent_id', 'r.currency'])
    .execute();
  return rows.map((r) => ({
    agent_id: r.agent_id,
    currency: r.currency,
    count: Number(r.count),
    converted: Number(r.converted),
    expired: Number(r.expired),
    cancelled: Number(r.cancelled),
    active: Number(r.active),
    amount: Number(r.amount),
    converted_amount: Number(r.converted_amount),
  }));
}

const cellsOf = (f: Figures, agent: string, currency: CurrencyCode): ReportRow['cells'] => ({
  agent,
  currency,
  count: f.count,
  converted: f.converted,
  expired: f.expired,
  cancelled: f.cancelled,
  active: f.active,
  conversion_rate: f.count === 0 ? null : f.converted / f.count,
  amount: f.amount,
  converted_amount: f.converted_amount,
});

/**
 * Builds Reservas: one row per agent × currency (agents by name, "Sin asesor" last; PEN before
 * USD) with the reservations made in the period by outcome, the conversion rate (CONVERTIDA /
 * made, 0..1) and the amounts reserved and converted (céntimos of the row's currency); totals one
 * row per currency; a stacked bar chart of the count per agent by outcome. No link: there is no
 * reservations screen in the route table. Reads `from`, `to`, `subdivision_id`, `agent_id`.
 */
async function build({ deps, query, today }: ReportContext): Promise<ReportOutput> {
  const { from, to } = reportPeriod(query, today);
  const cells = await reservationFigures(deps.db, { from, to, subdivisionId: query.subdivision_id, agentId: query.agent_id });
  const ids = [...new Set(cells.flatMap((c) => (c.agent_id === null ? [] : [c.agent_id])))];
  if (query.agent_id !== undefined && !ids.includes(query.agent_id)) ids.push(query.agent_id);
  const users =
    ids.length === 0 ? [] : await deps.db.selectFrom('users').select(['id', 'name', 'surname']).where('id', 'in', ids).execute();
  const names = new Map(users.map((u) => [u.id, `${u.name} ${u.surname}`.trim()]));
  const agentName = (id: number | null) => (id === null ? NO_AGENT : (names.get(id) ?? NO_AGENT));
  const byAgent = (a: number | null, b: number | null) =>
    Number(a === null) - Number(b === null) || agentName(a).localeCompare(agentName(b), 'es') || (a ?? 0) - (b ?? 0);
  cells.sort((a, b) => byAgent(a.agent_id, b.agent_id) || a.currency.localeCompare(b.currency));

  const rows: ReportRow[] = cells.map((c) => ({ cells: cellsOf(c, agentName(c.agent_id), c.currency), currency: c.currency }));
  const totals = new Map<CurrencyCode, Figures>();
  for (const c of cells) totals.set(c.currency, add(totals.get(c.currency) ?? ZERO, c));
  const agents = [...new Set(cells.map((c) => c.agent_id))];
  const countsOf = (agent: number | null) => cells.filter((c) => c.agent_id === agent).reduce<Figures>((sum, c) => add(sum, c), ZERO);

  const filters: { label: string; value: string }[] = [];
  if (query.subdivision_id !== undefined) {
    const s = await deps.db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
    filters.push({ label: 'Lotización', value: s?.name ?? `#${query.subdivision_id}` });
  }
  if (query.agent_id !== undefined) filters.push({ label: 'Asesor', value: names.get(query.agent_id) ?? `#${query.agent_id}` });

  return {
    report: 'reservas',
    title: REPORT_TITLES.reservas,
    from,
    to,
    filters,
    notes: [
      'Separaciones hechas en el período, con su estado de hoy',
      'Vigentes: pendientes de pago o vigentes, que aún separan el lote',
      'Montos en la moneda de cada fila: soles y dólares no se suman',
    ],
    columns: COLUMNS,
    rows,
    row_count: rows.length,
    totals: [...totals.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, f]) => ({ cells: cellsOf(f, 'Total', currency), currency })),
    chart: {
      kind: 'stacked',
      unit: 'count',
      categories: agents.map(agentName),
      series: RESERVATION_OUTCOMES.map((o) => ({
        name: RESERVATION_OUTCOME_LABELS[o],
        values: agents.map((a) => countsOf(a)[o]),
      })),
    },
  };
}

/** Reservas (/Reportes, a period's report): see {@link build}. */
export const reservationsReport: ReportDefinition = {
  id: 'reservas',
  kind: 'operational',
  period: true,
  build,
};
