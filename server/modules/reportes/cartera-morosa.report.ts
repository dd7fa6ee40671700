import { sql, type Kysely } from 'kysely';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { REPORT_TITLES, type ReportColumn, type ReportQuery, type ReportRow } from '../../../src/schemas/reportes/report';
import type { DB } from '../../db/database';
import { displayName } from '../crm/customers.repository';
import { daysLateOn } from '../finanzas/instalments.service';
import {
  bucketLabel,
  cents,
  currencyOf,
  currencyOrder,
  filtersInWords,
  inLateBucketSql,
  keptPerRevision,
  LATE_BUCKETS,
  lateFeeDueSql,
  outstandingSql,
  portfolioInstalments,
  sumOf,
  sumWhen,
  bucketKey,
} from './portfolio';
import type { ReportDefinition } from './report-definition';

/**
 * Reportes → Cartera morosa (docs/reports.md "Cartera morosa"): the overdue money per customer and
 * currency on today, aged in Registro de Cuotas' own buckets, each row linking to that customer's
 * overdue instalments in the register.
 *
 * Counted: the VENCIDA instalments (the stored status the register reads) of the sales not
 * ANULADA/RESUELTA (ENDED_SALE_STATUSES, which the register leaves out). A customer is every holder
 * of the sale (`sale_holders`, any position), as the register's `customer_id` filter reads it, so a
 * row equals the register's totals filtered `customer_id=<id>&status=VENCIDA` (and
 * `subdivision_id` when the report has it). The totals per currency count each instalment once
 * (the register's `status=VENCIDA` totals): a sale with two holders sits in both holders' rows but
 * once in the totals.
 */

/** The table's columns: customer, document, phone, céntimos per late bucket, total overdue, late fee owed, most days late. */
export const OVERDUE_PORTFOLIO_COLUMNS: ReportColumn[] = [
  { key: 'customer', label: 'Cliente', kind: 'text' },
  { key: 'document', label: 'Documento', kind: 'text' },
  { key: 'phone', label: 'Teléfono', kind: 'text' },
  ...LATE_BUCKETS.map((bucket): ReportColumn => ({ key: bucketKey(bucket), label: bucketLabel(bucket), kind: 'money' })),
  { key: 'overdue', label: 'Total vencido', kind: 'money' },
  { key: 'late_fee', label: 'Mora pendiente', kind: 'money' },
  { key: 'max_days_late', label: 'Máx. días de atraso', kind: 'days' },
];

const NOTES = [
  'Cuotas vencidas al día de hoy, como en Registro de Cuotas; el monto vencido es el saldo de cada cuota (monto − pagado).',
  'Ventas anuladas y resueltas no incluidas, como en Registro de Cuotas.',
  'Una venta con varios titulares figura en la fila de cada titular; los totales la cuentan una vez.',
  'La mora pendiente es la de las cuotas vencidas (generada − pagada − condonada).',
  'Soles y dólares no se suman: cada fila y cada total es de una moneda.',
];

/** The money figures of a row or total (céntimos) and its most days late. */
interface Figures {
  b_1_30: number;
  b_31_60: number;
  b_61_90: number;
  b_MAS_90: number;
  overdue: number;
  late_fee: number;
  max_days_late: number;
}

/** What is kept per revision: the sums per customer × currency and per currency. */
interface OverdueSums {
  customers: Array<{ customerId: number; currency: 'PEN' | 'USD'; figures: Figures }>;
  totals: Array<{ currency: 'PEN' | 'USD'; figures: Figures }>;
}

/**
 * The overdue sums of each live sale with VENCIDA instalments (`p`), narrowed by the report's
 * filters: per late bucket, overdue (Σ amount − paid), late fee owed, the oldest due date. One pass
 * over the VENCIDA rows (index `sale_instalments_status_due_idx`), grouped by sale before any join.
 */
function overdueBySale(db: Kysely<DB>, query: ReportQuery, today: string) {
  return portfolioInstalments(db, query)
    .where('i.status', '=', 'VENCIDA')
    .select([
      'i.sale_id',
      ...LATE_BUCKETS.map((bucket) => sumWhen(inLateBucketSql(bucket, today), outstandingSql).as(bucketKey(bucket))),
      sql<number | string | null>`sum(${outstandingSql})`.as('overdue'),
      sql<number | string | null>`sum(${lateFeeDueSql})`.as('late_fee'),
      sql<string | null>`min(i.due_date)`.as('oldest_due'),
    ])
    .groupBy('i.sale_id');
}

/** The per-sale sums added up (to be grouped by the caller). */
const addedUp = [
  sumOf('b_1_30').as('b_1_30'),
  sumOf('b_31_60').as('b_31_60'),
  sumOf('b_61_90').as('b_61_90'),
  sumOf('b_MAS_90').as('b_MAS_90'),
  sumOf('overdue').as('overdue'),
  sumOf('late_fee').as('late_fee'),
  sql<string | null>`min(p.oldest_due)`.as('oldest_due'),
];

/** A grouped row's sums as {@link Figures}; most days late on `today` by the register's `daysLateOn`. */
function figures(
  r: {
    b_1_30: number | string | null;
    b_31_60: number | string | null;
    b_61_90: number | string | null;
    b_MAS_90: number | string | null;
    overdue: number | string | null;
    late_fee: number | string | null;
    oldest_due: string | null;
  },
  today: string,
): Figures {
  return {
    b_1_30: cents(r.b_1_30),
    b_31_60: cents(r.b_31_60),
    b_61_90: cents(r.b_61_90),
    b_MAS_90: cents(r.b_MAS_90),
    overdue: cents(r.overdue),
    late_fee: cents(r.late_fee),
    max_days_late: r.oldest_due === null ? 0 : daysLateOn({ status: 'VENCIDA', due_date: r.oldest_due }, today),
  };
}

/**
 * The overdue sums of `query` on `today`: one statement over the per-sale sums ({@link
 * overdueBySale}, a CTE both dialects build once) joined to their sale — grouped through the sale's
 * holders per customer × currency, and (UNION ALL, `customer_id` null) per currency, each
 * instalment once.
 */
async function overdueSums(db: Kysely<DB>, query: ReportQuery, today: string): Promise<OverdueSums> {
  const rows = await db
    .with('p', () => overdueBySale(db, query, today))
    .selectFrom('p')
    .innerJoin('sales as s', 's.id', 'p.sale_id')
    .innerJoin('sale_holders as h', 'h.sale_id', 'p.sale_id')
    .select([sql<number | null>`h.customer_id`.as('customer_id'), 's.currency', ...addedUp])
    .groupBy(['h.customer_id', 's.currency'])
    .unionAll((eb) =>
      eb
        .selectFrom('p')
        .innerJoin('sales as s', 's.id', 'p.sale_id')
        .select([sql<number | null>`null`.as('customer_id'), 's.currency', ...addedUp])
        .groupBy('s.currency'),
    )
    .execute();
  const sums: OverdueSums = { customers: [], totals: [] };
  for (const r of rows) {
    const currency = currencyOf(r.currency);
    const figured = figures(r, today);
    if (figured.overdue <= 0) continue;
    if (r.customer_id === null) sums.totals.push({ currency, figures: figured });
    else sums.customers.push({ customerId: Number(r.customer_id), currency, figures: figured });
  }
  sums.totals.sort((a, b) => currencyOrder(a.currency, b.currency));
  return sums;
}

/** Customers' names, documents and phones by id, read a chunk of ids at a time (read on every call, never kept). */
async function customersById(db: Kysely<DB>, ids: readonly number[]) {
  const found = new Map<
    number,
    { name: string; surname: string | null; document_number: string; phone: string | null; search_text: string }
  >();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += 1000) {
    const rows = await db
      .selectFrom('customers')
      .select(['id', 'name', 'surname', 'document_number', 'phone', 'search_text'])
      .where('id', 'in', unique.slice(start, start + 1000))
      .execute();
    for (const r of rows) found.set(r.id, r);
  }
  return found;
}

/** Binary order of two texts (names are compared folded: `customers.search_text`). */
const textOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Registro de Cuotas of one customer's overdue instalments:
 * `/FINANZAS/RegistroCuotas?customer_id=<id>&status=VENCIDA` (as Inicio's late-customers card
 * links it), plus `subdivision_id` when the report is narrowed to a subdivision. The register has
 * no agent or currency filter: its totals are per currency, and under an agent filter the list may
 * also show the customer's sales by other agents.
 */
export function customerOverduePath(customerId: number, subdivisionId?: number): string {
  // Integer ids and a fixed status need no encoding (URLSearchParams costs ~10 µs a row: 0.1 s for 12 000 rows).
  const subdivision = subdivisionId === undefined ? '' : `&subdivision_id=${String(subdivisionId)}`;
  return `${AUTH_ROUTES.registroCuotas.path}?customer_id=${String(customerId)}&status=VENCIDA${subdivision}`;
}

/**
 * Cartera morosa ('cartera-morosa', operational, a picture at `today`). Reads `subdivision_id`,
 * `agent_id` (the sale's agent; forced by the route under 'Solo sus ventas') and `currency`.
 *
 * - rows: one per customer × currency with overdue money — Cliente (display name), Documento,
 *   Teléfono, céntimos per late bucket (1–30, 31–60, 61–90, > 90 days: DAYS_LATE_RANGES), Total
 *   vencido (Σ amount − paid of the VENCIDA instalments), Mora pendiente (Σ accrued − paid − waived
 *   of those instalments, each never below 0), Máx. días de atraso (today − the oldest due date);
 *   Total vencido descending, then name, customer id, currency. `link`: {@link customerOverduePath}.
 * - totals: one row per currency, each instalment once (= the register's `status=VENCIDA` totals,
 *   and per bucket its `days_late=<bucket>` totals).
 * - chart: stacked money, categories the late buckets' labels, one series per currency.
 *
 * The sums are kept per revision and day ({@link keptPerRevision}); names and phones are read on
 * every call.
 */
export const overduePortfolioReport: ReportDefinition = {
  id: 'cartera-morosa',
  kind: 'operational',
  period: false,
  async build({ deps, query, today }) {
    const { db } = deps;
    const key = `cartera-morosa|${today}|${String(query.subdivision_id ?? '')}|${String(query.agent_id ?? '')}|${query.currency ?? ''}`;
    const sums = await keptPerRevision(db, key, () => overdueSums(db, query, today));
    const people = await customersById(
      db,
      sums.customers.map((c) => c.customerId),
    );
    const filters = await filtersInWords(db, query);

    const ordered = sums.customers
      .map((c) => ({ ...c, person: people.get(c.customerId) }))
      .sort(
        (a, b) =>
          b.figures.overdue - a.figures.overdue ||
          textOrder(a.person?.search_text ?? '', b.person?.search_text ?? '') ||
          a.customerId - b.customerId ||
          currencyOrder(a.currency, b.currency),
      );
    const rows: ReportRow[] = ordered.map((c) => ({
      cells: {
        customer: c.person ? displayName(c.person) : '',
        document: c.person?.document_number ?? '',
        phone: c.person?.phone ?? '',
        ...c.figures,
      },
      currency: c.currency,
      link: customerOverduePath(c.customerId, query.subdivision_id),
    }));
    const totals: ReportRow[] = sums.totals.map((t) => ({
      cells: { customer: `Total ${t.currency}`, document: null, phone: null, ...t.figures },
      currency: t.currency,
    }));

    return {
      report: 'cartera-morosa',
      title: REPORT_TITLES['cartera-morosa'],
      from: null,
      to: today,
      filters,
      notes: NOTES,
      columns: OVERDUE_PORTFOLIO_COLUMNS,
      rows,
      row_count: rows.length,
      totals,
      chart: {
        kind: 'stacked',
        unit: 'money',
        categories: LATE_BUCKETS.map(bucketLabel),
        series: sums.totals.map((t) => ({
          name: t.currency,
          currency: t.currency,
          values: LATE_BUCKETS.map((bucket) => t.figures[bucketKey(bucket)]),
        })),
      },
    };
  },
};
