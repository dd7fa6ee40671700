import { sql } from 'kysely';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { COMMISSION_STATE_LABELS, type CommissionState } from '../../../src/schemas/administracion/commissions';
import type { Currency } from '../../../src/schemas/proyectos/projects';
import { REPORT_MESSAGES, REPORT_TITLES, type ReportChart, type ReportOutput, type ReportRow } from '../../../src/schemas/reportes/report';
import { fieldError } from '../../errors';
import { commissionPeriodDay } from '../administracion/commissions.service';
import { reportPeriod, type ReportContext, type ReportDefinition } from './report-definition';

/**
 * Comisiones (docs/reports.md "Comisiones"): per agent and currency, the commissions earned in the
 * period and how much of them is paid and still to pay, by the states and dates of Administración →
 * Comisiones y Pagos (docs/domain.md "Commissions"; server/modules/administracion/commissions.service.ts):
 * a commission counts in the period by {@link commissionPeriodDay}, the list's own period filter.
 */

/** Earned commissions: DEVENGADA (earned, not settled), LIQUIDADA (settlement approved), PAGADA (settlement paid). */
export const EARNED_STATES = ['DEVENGADA', 'LIQUIDADA', 'PAGADA'] as const satisfies readonly CommissionState[];
/** Earned and not yet paid. */
export const TO_PAY_STATES = ['DEVENGADA', 'LIQUIDADA'] as const satisfies readonly CommissionState[];

/** The table's columns: agent, earned lines (count), earned, paid, to pay, reversals (céntimos of the row's currency). */
const COLUMNS: ReportOutput['columns'] = [
  { key: 'agent', label: 'Asesor', kind: 'text' },
  { key: 'count', label: 'Comisiones', kind: 'count' },
  { key: 'earned', label: 'Devengadas', kind: 'money' },
  { key: 'paid', label: 'Pagadas', kind: 'money' },
  { key: 'to_pay', label: 'Por pagar', kind: 'money' },
  { key: 'reversed', label: 'Reversiones', kind: 'money' },
];

const NOTES = [
  'Comisiones devengadas en el período (por su fecha de devengo), en su estado actual: pagadas si su liquidación se pagó; por pagar si están devengadas o en una liquidación aprobada.',
  'No incluye comisiones proyectadas (aún no devengadas) ni anuladas.',
  'Reversiones: líneas negativas de comisiones ya pagadas de ventas anuladas o resueltas, fechadas en el período; se descuentan en la siguiente liquidación del asesor.',
  'Soles y dólares se totalizan por separado.',
];

/**
 * The address of Comisiones y Pagos filtered as a row: `/ADMINISTRACION/ComisionesPagos?agent_id=
 * &currency=&period_from=&period_to=[&subdivision_id=]` — the commissions list's own query
 * parameters (src/schemas/administracion/commissions.ts `commissionsQuerySchema`).
 */
export function commissionsListLink(filter: {
  agentId: number;
  currency: Currency;
  from: string;
  to: string;
  subdivisionId?: number;
}): string {
  const params = new URLSearchParams({
    agent_id: String(filter.agentId),
    currency: filter.currency,
    period_from: filter.from,
    period_to: filter.to,
    ...(filter.subdivisionId !== undefined ? { subdivision_id: String(filter.subdivisionId) } : {}),
  });
  return `${AUTH_ROUTES.comisiones.path}?${params.toString()}`;
}

/** One agent × currency: earned lines and the amounts (céntimos) by state. */
interface AgentCommissions {
  agentId: number;
  name: string;
  currency: Currency;
  count: number;
  devengada: number;
  liquidada: number;
  pagada: number;
  reversed: number;
}

/** The stacked chart: agents along the axis; per currency one series per earned state (PAGADA, LIQUIDADA, DEVENGADA). */
function commissionsChart(rows: readonly AgentCommissions[]): ReportChart {
  const agents: { id: number; name: string }[] = [];
  for (const r of rows) if (!agents.some((a) => a.id === r.agentId)) agents.push({ id: r.agentId, name: r.name });
  const stacks = [
    ['PAGADA', (r: AgentCommissions) => r.pagada],
    ['LIQUIDADA', (r: AgentCommissions) => r.liquidada],
    ['DEVENGADA', (r: AgentCommissions) => r.devengada],
  ] as const;
  const currencies = (['PEN', 'USD'] as const).filter((currency) => rows.some((r) => r.currency === currency));
  return {
    kind: 'stacked',
    unit: 'money',
    categories: agents.map((a) => a.name),
    series: currencies.flatMap((currency) =>
      stacks.map(([state, amount]) => ({
        name: `${COMMISSION_STATE_LABELS[state]} (${currency})`,
        currency,
        values: agents.map((a) => {
          const row = rows.find((r) => r.agentId === a.id && r.currency === currency);
          return row ? amount(row) : null;
        }),
      })),
    ),
  };
}

/**
 * Comisiones: reads `from`/`to` (default this month to today), `subdivision_id` (the sale's) and
 * `agent_id` (the commission's beneficiary; a narrowed caller's `scope.agentId` wins, as the route
 * forces it). One grouped
 * query over the commissions whose {@link commissionPeriodDay} falls in the period. Rows: agent ×
 * currency (agents by name, PEN before USD) with `count` (earned commissions), `earned` (Σ amount of
 * {@link EARNED_STATES}), `paid` (PAGADA), `to_pay` ({@link TO_PAY_STATES}) and `reversed` (Σ the
 * REVERTIDA lines, ≤ 0), céntimos of the row's `currency`; `link` Comisiones y Pagos with those
 * filters. Totals: one row per currency. Chart: stacked bars per agent, a series per state and currency.
 * @throws HttpError 422 on `subdivision_id` or `agent_id` when it does not exist.
 */
async function buildCommissions({ deps, query: asked, scope, today }: ReportContext): Promise<ReportOutput> {
  // The route has forced a narrowed caller's agent already; holding it here too costs nothing.
  const query = scope.agentId !== null ? { ...asked, agent_id: scope.agentId } : asked;
  const { from, to } = reportPeriod(query, today);
  const filters: ReportOutput['filters'] = [];
  if (query.subdivision_id !== undefined) {
    const subdivision = await deps.db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
    if (!subdivision) throw fieldError('subdivision_id', REPORT_MESSAGES.unknownSubdivision);
    filters.push({ label: 'Lotización', value: subdivision.name });
  }
  if (query.agent_id !== undefined) {
    const agent = await deps.db.selectFrom('users').select(['name', 'surname']).where('id', '=', query.agent_id).executeTakeFirst();
    if (!agent) throw fieldError('agent_id', REPORT_MESSAGES.unknownAgent);
    filters.push({ label: 'Asesor', value: [agent.name, agent.surname].filter(Boolean).join(' ') });
  }
  const sumWhen = (states: readonly CommissionState[]) =>
    states.length === 1
      ? sql<string | number>`sum(case when c.state = ${states[0]} then c.amount else 0 end)`
      : sql<string | number>`sum(case when c.state in (${sql.join(states)}) then c.amount else 0 end)`;
  const grouped = await deps.db
    .selectFrom('commissions as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'c.user_id',
      'c.currency',
      'u.name',
      'u.surname',
      sql<string | number>`count(case when c.state in (${sql.join(EARNED_STATES)}) then 1 end)`.as('count'),
      sumWhen(['DEVENGADA']).as('devengada'),
      sumWhen(['LIQUIDADA']).as('liquidada'),
      sumWhen(['PAGADA']).as('pagada'),
      sumWhen(['REVERTIDA']).as('reversed'),
    ])
    .where('c.state', 'in', [...EARNED_STATES, 'REVERTIDA'])
    .where(commissionPeriodDay, '>=', from)
    .where(commissionPeriodDay, '<=', to)
    .$if(query.agent_id !== undefined, (q) => q.where('c.user_id', '=', query.agent_id!))
    .$if(query.subdivision_id !== undefined, (q) =>
      q.where('c.sale_id', 'in', (eb) =>
        eb.selectFrom('sales').select('sales.id').where('sales.subdivision_id', '=', query.subdivision_id!),
      ),
    )
    .groupBy(['c.user_id', 'c.currency', 'u.name', 'u.surname'])
    .execute();
  const agents: AgentCommissions[] = grouped
    .map((g) => ({
      agentId: g.user_id,
      name: [g.name, g.surname].filter(Boolean).join(' '),
      currency: g.currency,
      count: Number(g.count),
      devengada: Number(g.devengada),
      liquidada: Number(g.liquidada),
      pagada: Number(g.pagada),
      reversed: Number(g.reversed),
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.agentId - b.agentId || a.currency.localeCompare(b.currency));
  const figures = (r: AgentCommissions) => ({
    count: r.count,
    earned: r.devengada + r.liquidada + r.pagada,
    paid: r.pagada,
    to_pay: r.devengada + r.liquidada,
    reversed: r.reversed,
  });
  const rows: ReportRow[] = agents.map((r) => ({
    cells: { agent: r.name, ...figures(r) },
    currency: r.currency,
    link: commissionsListLink({ agentId: r.agentId, currency: r.currency, from, to, subdivisionId: query.subdivision_id }),
  }));
  const totals = (['PEN', 'USD'] as const).flatMap((currency): ReportRow[] => {
    const mine = agents.filter((r) => r.currency === currency).map(figures);
    if (mine.length === 0) return [];
    const sum = (key: keyof ReturnType<typeof figures>) => mine.reduce((n, f) => n + f[key], 0);
    return [
      {
        cells: {
          agent: 'Total',
          count: sum('count'),
          earned: sum('earned'),
          paid: sum('paid'),
          to_pay: sum('to_pay'),
          reversed: sum('reversed'),
        },
        currency,
      },
    ];
  });
  return {
    report: 'comisiones',
    title: REPORT_TITLES.comisiones,
    from,
    to,
    filters,
    notes: NOTES,
    columns: COLUMNS,
    rows,
    row_count: rows.length,
    totals,
    chart: commissionsChart(agents),
  };
}

/** /Reportes → Comisiones (operational, of a period). */
export const commissionsReport: ReportDefinition = {
  id: 'comisiones',
  kind: 'operational',
  period: true,
  build: buildCommissions,
};
