import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dateOfEpochDay, epochDay } from '../../../src/lib/dates';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';
import { DAYS_LATE_BUCKET_LABELS, DAYS_LATE_RANGES, type DaysLateBucket } from '../../../src/schemas/finanzas/instalments';
import type { ReportQuery } from '../../../src/schemas/reportes/report';
import type { DB } from '../../db/database';
import { LruMap } from '../../platform/lru-map';

/**
 * What the portfolio reports — Cartera morosa and Valor de cartera (docs/reports.md) — share: the
 * days-late buckets of Registro de Cuotas written as SQL over `sale_instalments as i`, the sales
 * they count, the filters in words, and their answers kept per revision of the data they read.
 *
 * Days late are Registro de Cuotas' own (server/modules/finanzas/instalments.service.ts `filtered`
 * and `daysLateOn`; docs/domain.md "Instalments, days late and late fees"): an instalment is late
 * when its stored status is VENCIDA (kept by the daily late-fee job and by every payment), and it
 * is `today − due date` days late. A late bucket [min, max] of DAYS_LATE_RANGES is then "VENCIDA,
 * due on or before today − min and on or after today − max"; AL_DIA is "not VENCIDA".
 */

/** The late buckets (every bucket but AL_DIA), in the register's order. */
export const LATE_BUCKETS = ['1_30', '31_60', '61_90', 'MAS_90'] as const satisfies readonly DaysLateBucket[];
export type LateBucket = (typeof LATE_BUCKETS)[number];

/** A bucket's column key in both portfolio reports: `b_AL_DIA`, `b_1_30`, `b_31_60`, `b_61_90`, `b_MAS_90`. */
export const bucketKey = <B extends DaysLateBucket>(bucket: B) => `b_${bucket}` as const;

/** `date` moved by `days` (ISO `YYYY-MM-DD`). */
function shift(date: string, days: number): string {
  return dateOfEpochDay((epochDay(date) ?? 0) + days);
}

/**
 * The due dates of a late bucket on `today` (ISO, both included; `from` null: no lower end), as the
 * register's `days_late` filter reads them: days late in [min, max] ⇔ due in [today − max, today − min].
 */
export function bucketDueRange(bucket: LateBucket, today: string): { from: string | null; to: string } {
  const { min, max } = DAYS_LATE_RANGES[bucket];
  return { from: max === null ? null : shift(today, -max), to: shift(today, -min) };
}

/**
 * SQL condition "instalment `i` is in late bucket `bucket` on `today`": VENCIDA and due within
 * {@link bucketDueRange} (dates are ISO text, so text order is date order on both dialects).
 */
export function inLateBucketSql(bucket: LateBucket, today: string): RawBuilder<boolean> {
  const { from, to } = bucketDueRange(bucket, today);
  return from === null
    ? sql<boolean>`(i.status = 'VENCIDA' and i.due_date <= ${to})`
    : sql<boolean>`(i.status = 'VENCIDA' and i.due_date <= ${to} and i.due_date >= ${from})`;
}

/** The outstanding amount of instalment `i`: amount − paid, céntimos (its capital and interest). */
export const outstandingSql = sql<number>`(i.amount - i.paid)`;

/** The late fee still owed on instalment `i`: accrued − paid − waived, never below 0 (the register's `late_fee_due`). */
export const lateFeeDueSql = sql<number>`(case when i.late_fee_accrued - i.late_fee_paid - i.late_fee_waived > 0
  then i.late_fee_accrued - i.late_fee_paid - i.late_fee_waived else 0 end)`;

/** `sum(case when <condition> then <value> else 0 end)`: céntimos (a text on PostgreSQL: read it with {@link cents}). */
export function sumWhen(condition: RawBuilder<boolean>, value: RawBuilder<number>): RawBuilder<number | string | null> {
  return sql<number | string | null>`sum(case when ${condition} then ${value} else 0 end)`;
}

/** `sum(<column of the per-sale subquery p>)`: céntimos (text on PostgreSQL). */
export const sumOf = (column: string): RawBuilder<number | string | null> => sql<number | string | null>`sum(${sql.ref(`p.${column}`)})`;

/**
 * The instalments of `i` the portfolio reports count: those of sales not ANULADA/RESUELTA
 * (ENDED_SALE_STATUSES, as Registro de Cuotas), narrowed to the report's subdivision, agent (the
 * sale's `agent_id`) and currency when it names them. Written as `IN` / `NOT IN` subqueries over
 * `sales` (as the register does), so the scan of `sale_instalments` joins nothing per row.
 */
export function portfolioInstalments(db: Kysely<DB>, query: Pick<ReportQuery, 'subdivision_id' | 'agent_id' | 'currency'>) {
  const { subdivision_id: subdivisionId, agent_id: agentId, currency } = query;
  const sales = () => db.selectFrom('sales').select('sales.id');
  return db
    .selectFrom('sale_instalments as i')
    .where('i.sale_id', 'not in', sales().where('sales.status', 'in', [...ENDED_SALE_STATUSES]))
    .$if(subdivisionId !== undefined, (q) => q.where('i.sale_id', 'in', sales().where('sales.subdivision_id', '=', subdivisionId ?? 0)))
    .$if(agentId !== undefined, (q) => q.where('i.sale_id', 'in', sales().where('sales.agent_id', '=', agentId ?? 0)))
    .$if(currency !== undefined, (q) => q.where('i.sale_id', 'in', sales().where('sales.currency', '=', currency ?? 'PEN')));
}

/** A bucket's Spanish label (the register's: "Al día", "1–30 días", "Más de 90 días"). */
export const bucketLabel = (bucket: DaysLateBucket): string => DAYS_LATE_BUCKET_LABELS[bucket];

/** A currency in words for the printed filters. */
export const CURRENCY_WORDS: Record<'PEN' | 'USD', string> = { PEN: 'Soles (S/)', USD: 'Dólares (US$)' };

/**
 * The filters a report read, in words (the printed header): Lotización (its name), Asesor (name and
 * surname), Moneda. An unknown id reads as its number (the route has already refused it).
 */
export async function filtersInWords(
  db: Kysely<DB>,
  query: Pick<ReportQuery, 'subdivision_id' | 'agent_id' | 'currency'>,
): Promise<Array<{ label: string; value: string }>> {
  const filters: Array<{ label: string; value: string }> = [];
  if (query.subdivision_id !== undefined) {
    const row = await db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
    filters.push({ label: 'Lotización', value: row?.name ?? String(query.subdivision_id) });
  }
  if (query.agent_id !== undefined) {
    const row = await db.selectFrom('users').select(['name', 'surname']).where('id', '=', query.agent_id).executeTakeFirst();
    filters.push({ label: 'Asesor', value: row ? `${row.name} ${row.surname}`.trim() : String(query.agent_id) });
  }
  if (query.currency) filters.push({ label: 'Moneda', value: CURRENCY_WORDS[query.currency] });
  return filters;
}

/** A database sum as céntimos (null → 0; PostgreSQL answers bigint and numeric sums as text). */
export const cents = (value: number | string | null | undefined): number => Number(value ?? 0);

/** A stored currency code as the wire's (anything but USD reads as PEN, as the register does). */
export const currencyOf = (value: string): 'PEN' | 'USD' => (value === 'USD' ? 'USD' : 'PEN');

/** PEN before USD (the reports' order of currencies). */
export const currencyOrder = (a: string, b: string): number => (a === b ? 0 : a === 'PEN' ? -1 : b === 'PEN' ? 1 : a < b ? -1 : 1);

/** Answers kept per database: by report, query and day → the revisions they were built at and the answer. */
const keptAnswers = new WeakMap<Kysely<DB>, LruMap<string, { revisions: string; value: Promise<unknown> }>>();
/** Report × query × day answers kept per database (each up to a few MB on the large database). */
const KEPT_ANSWERS_MAX = 16;

/**
 * The portfolio sums of one report, query and day, kept while nothing they read changes: the
 * revisions of Registro de Cuotas (`list_revisions` row `instalments`, migration 0027: raised by
 * every write to the instalments, the sales' status, currency and subdivision, and their buyers)
 * and of the sales list (row `sales`, migration 0021: every write to `sales`, so a sale's agent
 * too) are read first; an answer built at other revisions, or another day, is built again. A build
 * running while a write commits is kept under the revisions read before it, so the next call
 * builds again (an answer is never kept under revisions newer than its data). A failed build is
 * not kept. Names, documents and phones are not part of what is kept: the reports
 * read them on every call, so an edited phone shows at once.
 *
 * Why: Valor de cartera sums every open instalment (~900 000 rows of the large database, 0.3–0.7 s
 * quiet) and Cartera morosa every VENCIDA one; kept, a repeated report answers in milliseconds
 * (docs/reports.md "Performance").
 */
export async function keptPerRevision<T>(db: Kysely<DB>, key: string, build: () => Promise<T>): Promise<T> {
  const rows = await db
    .selectFrom('list_revisions')
    .select(['name', 'revision'])
    .where('name', 'in', ['instalments', 'sales'])
    .orderBy('name')
    .execute();
  const revisions = rows.map((r) => `${r.name}:${String(r.revision)}`).join(',');
  let kept = keptAnswers.get(db);
  if (!kept) {
    kept = new LruMap(KEPT_ANSWERS_MAX);
    keptAnswers.set(db, kept);
  }
  const found = kept.get(key);
  if (found?.revisions === revisions) return found.value as Promise<T>;
  const value = build();
  const entry = { revisions, value };
  kept.set(key, entry);
  const store = kept;
  value.catch(() => {
    if (store.get(key) === entry) store.delete(key);
  });
  return value;
}
