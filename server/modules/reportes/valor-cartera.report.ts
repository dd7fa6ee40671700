import { sql, type Kysely } from 'kysely';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { DAYS_LATE_BUCKETS } from '../../../src/schemas/finanzas/instalments';
import { REPORT_TITLES, type ReportColumn, type ReportQuery, type ReportRow } from '../../../src/schemas/reportes/report';
import type { DB } from '../../db/database';
import {
  bucketLabel,
  cents,
  currencyOf,
  currencyOrder,
  filtersInWords,
  inLateBucketSql,
  keptPerRevision,
  LATE_BUCKETS,
  outstandingSql,
  portfolioInstalments,
  sumOf,
  sumWhen,
  bucketKey,
} from './portfolio';
import type { ReportDefinition } from './report-definition';

/**
 * Reportes Económicos → Valor de cartera (docs/reports.md "Valor de cartera"): what the live sales
 * still owe on their schedules, per subdivision and currency on today — capital and interest, and
 * the same outstanding aged in Registro de Cuotas' buckets (Al día, 1–30, 31–60, 61–90, > 90).
 *
 * Counted: every instalment (INICIAL parts and CUOTA rows) not PAGADA of the sales not
 * ANULADA/RESUELTA (ENDED_SALE_STATUSES; a CANCELADA sale owes nothing), outstanding = amount −
 * paid. Split into capital and interest by the domain's convention (docs/domain.md "Rescheduling":
 * "what was paid on a row pays its interest first, then its capital"; payment allocations record
 * only what went to the instalment's amount, `payment_allocations.to_capital`, not how it split):
 * interest pending = max(0, interest − paid), capital pending = outstanding − interest pending, so
 * capital + interest = total on every row. Age: AL_DIA = not VENCIDA, the late buckets as the
 * register's `days_late` filter (./portfolio.ts).
 */

/** The table's columns: subdivision, capital, interest and total pending, then the total per bucket (céntimos). */
export const PORTFOLIO_VALUE_COLUMNS: ReportColumn[] = [
  { key: 'subdivision', label: 'Lotización', kind: 'text' },
  { key: 'capital', label: 'Capital pendiente', kind: 'money' },
  { key: 'interest', label: 'Interés pendiente', kind: 'money' },
  { key: 'total', label: 'Total pendiente', kind: 'money' },
  ...DAYS_LATE_BUCKETS.map((bucket): ReportColumn => ({ key: bucketKey(bucket), label: bucketLabel(bucket), kind: 'money' })),
];

const NOTES = [
  'Saldo por cobrar al día de hoy de las cuotas e iniciales no pagadas (monto − pagado).',
  'Solo ventas vigentes: las anuladas y resueltas no se incluyen, como en Registro de Cuotas.',
  'Lo pagado en una cuota cubre primero su interés y luego su capital.',
  'Antigüedad según los días de atraso de Registro de Cuotas; «Al día» es lo que aún no vence.',
  'La mora no forma parte del valor de cartera.',
  'Soles y dólares no se suman: cada fila y cada total es de una moneda.',
];

/** A row's or total's money (céntimos). */
interface Figures {
  capital: number;
  interest: number;
  total: number;
  b_AL_DIA: number;
  b_1_30: number;
  b_31_60: number;
  b_61_90: number;
  b_MAS_90: number;
}

/** What is kept per revision: the sums per subdivision × currency. */
type ValueSums = Array<{ subdivisionId: number; currency: 'PEN' | 'USD'; figures: Figures }>;

/** Interest still owed on instalment `i` (interest first: max(0, interest − paid)). */
const interestPendingSql = sql<number>`(case when i.interest > i.paid then i.interest - i.paid else 0 end)`;

/**
 * The outstanding of each live sale (`p`) narrowed by the report's filters: total, interest, per
 * bucket. One pass over the open rows in sale order (partial index
 * `sale_instalments_open_sale_idx`, status ≠ PAGADA), grouped by sale before the join to `sales`
 * (one join per sale, not per instalment).
 */
function outstandingBySale(db: Kysely<DB>, query: ReportQuery, today: string) {
  return portfolioInstalments(db, query)
    .where('i.status', '<>', 'PAGADA')
    .select([
      'i.sale_id',
      sql<number | string | null>`sum(${outstandingSql})`.as('total'),
      sql<number | string | null>`sum(${interestPendingSql})`.as('interest'),
      sumWhen(sql<boolean>`i.status <> 'VENCIDA'`, outstandingSql).as('b_AL_DIA'),
      ...LATE_BUCKETS.map((bucket) => sumWhen(inLateBucketSql(bucket, today), outstandingSql).as(bucketKey(bucket))),
    ])
    .groupBy('i.sale_id');
}

/** The outstanding per subdivision × currency of `query` on `today` (one grouped statement). */
async function valueSums(db: Kysely<DB>, query: ReportQuery, today: string): Promise<ValueSums> {
  const rows = await db
    .selectFrom(outstandingBySale(db, query, today).as('p'))
    .innerJoin('sales as s', 's.id', 'p.sale_id')
    .select([
      's.subdivision_id',
      's.currency',
      sumOf('total').as('total'),
      sumOf('interest').as('interest'),
      sumOf('b_AL_DIA').as('b_AL_DIA'),
      sumOf('b_1_30').as('b_1_30'),
      sumOf('b_31_60').as('b_31_60'),
      sumOf('b_61_90').as('b_61_90'),
      sumOf('b_MAS_90').as('b_MAS_90'),
    ])
    .groupBy(['s.subdivision_id', 's.currency'])
    .execute();
  return rows
    .map((r) => {
      const total = cents(r.total);
      const interest = cents(r.interest);
      return {
        subdivisionId: r.subdivision_id,
        currency: currencyOf(r.currency),
        figures: {
          capital: total - interest,
          interest,
          total,
          b_AL_DIA: cents(r.b_AL_DIA),
          b_1_30: cents(r.b_1_30),
          b_31_60: cents(r.b_31_60),
          b_61_90: cents(r.b_61_90),
          b_MAS_90: cents(r.b_MAS_90),
        },
      };
    })
    .filter((r) => r.figures.total > 0);
}

/** Registro de Cuotas of a subdivision: `/FINANZAS/RegistroCuotas?subdivision_id=<id>` (its totals: the row's total pending per currency). */
export function subdivisionInstalmentsPath(subdivisionId: number): string {
  return `${AUTH_ROUTES.registroCuotas.path}?subdivision_id=${String(subdivisionId)}`;
}

const FIGURE_KEYS = ['capital', 'interest', 'total', ...DAYS_LATE_BUCKETS.map(bucketKey)] as const satisfies ReadonlyArray<keyof Figures>;

/**
 * Valor de cartera ('valor-cartera', financial, a picture at `today`). Reads `subdivision_id`,
 * `agent_id` (the sale's agent; forced by the route under 'Solo sus ventas') and `currency`.
 *
 * - rows: one per subdivision × currency with something pending — Lotización, Capital pendiente,
 *   Interés pendiente, Total pendiente (céntimos; capital + interest = total), then the total per
 *   bucket (Al día, 1–30, 31–60, 61–90, > 90 days; they add up to the total); by subdivision
 *   name, then currency. `link`: {@link subdivisionInstalmentsPath}.
 * - totals: one row per currency (the rows added up; each instalment belongs to one subdivision).
 *   Per bucket and currency they equal Registro de Cuotas' totals `days_late=<bucket>` (balance).
 * - chart: stacked money, categories the subdivisions, one series per bucket and currency
 *   ("Al día (PEN)"…), null where the subdivision has none of that currency.
 *
 * The sums are kept per revision and day ({@link keptPerRevision}); subdivision names are read on
 * every call.
 */
export const portfolioValueReport: ReportDefinition = {
  id: 'valor-cartera',
  kind: 'financial',
  period: false,
  async build({ deps, query, today }) {
    const { db } = deps;
    const key = `valor-cartera|${today}|${String(query.subdivision_id ?? '')}|${String(query.agent_id ?? '')}|${query.currency ?? ''}`;
    const sums = await keptPerRevision(db, key, () => valueSums(db, query, today));
    const ids = [...new Set(sums.map((s) => s.subdivisionId))];
    const names = new Map(
      (ids.length === 0 ? [] : await db.selectFrom('subdivisions').select(['id', 'name']).where('id', 'in', ids).execute()).map((d) => [
        d.id,
        d.name,
      ]),
    );
    const filters = await filtersInWords(db, query);

    const ordered = sums
      .map((s) => ({ ...s, name: names.get(s.subdivisionId) ?? '' }))
      .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.subdivisionId - b.subdivisionId || currencyOrder(a.currency, b.currency));
    const rows: ReportRow[] = ordered.map((s) => ({
      cells: { subdivision: s.name, ...s.figures },
      currency: s.currency,
      link: subdivisionInstalmentsPath(s.subdivisionId),
    }));

    const totalsByCurrency = new Map<'PEN' | 'USD', Figures>();
    for (const s of ordered) {
      const sum = totalsByCurrency.get(s.currency) ?? {
        capital: 0,
        interest: 0,
        total: 0,
        b_AL_DIA: 0,
        b_1_30: 0,
        b_31_60: 0,
        b_61_90: 0,
        b_MAS_90: 0,
      };
      for (const k of FIGURE_KEYS) sum[k] += s.figures[k];
      totalsByCurrency.set(s.currency, sum);
    }
    const currencies = [...totalsByCurrency.keys()].sort(currencyOrder);
    const totals: ReportRow[] = currencies.map((currency) => ({
      cells: { subdivision: `Total ${currency}`, ...totalsByCurrency.get(currency) },
      currency,
    }));

    // Categories: each subdivision once (a subdivision with sales in both currencies is one category).
    const categories = [...new Map(ordered.map((s) => [s.subdivisionId, { id: s.subdivisionId, name: s.name }])).values()];
    const figuresOf = new Map(ordered.map((s) => [`${String(s.subdivisionId)}|${s.currency}`, s.figures]));

    return {
      report: 'valor-cartera',
      title: REPORT_TITLES['valor-cartera'],
      from: null,
      to: today,
      filters,
      notes: NOTES,
      columns: PORTFOLIO_VALUE_COLUMNS,
      rows,
      row_count: rows.length,
      totals,
      chart: {
        kind: 'stacked',
        unit: 'money',
        categories: categories.map((c) => c.name),
        series: currencies.flatMap((currency) =>
          DAYS_LATE_BUCKETS.map((bucket) => ({
            name: `${bucketLabel(bucket)} (${currency})`,
            currency,
            values: categories.map((c) => figuresOf.get(`${String(c.id)}|${currency}`)?.[bucketKey(bucket)] ?? null),
          })),
        ),
      },
    };
  },
};
