import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { ChangeHistoryQuery, ChangeHistoryEntry } from '../../../src/schemas/historial/change-history';
import type { DB } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPatternSql, searchTextOf } from '../../db/text-search';
import { recordLabels } from './record-labels';

/** SQL of `change_history` (written only by `server/audit/audit.ts`). */

/** Lima is UTC−5 all year (no DST): a Lima date's first instant in UTC. */
function limaDayStart(date: string): string {
  return `${date}T05:00:00.000Z`;
}

/** The Lima date after `date`. */
function nextDate(date: string): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

type Filters = Omit<ChangeHistoryQuery, 'page' | 'per_page' | 'sort'>;

/** The filters on change_history's own columns (all but `q`), as conditions for `eb`. */
function ownConditions(eb: ExpressionBuilder<DB, 'change_history'>, filters: Filters): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (filters.from) conditions.push(eb('change_history.occurred_at', '>=', limaDayStart(filters.from)));
  if (filters.to) conditions.push(eb('change_history.occurred_at', '<', limaDayStart(nextDate(filters.to))));
  if (filters.actor_id !== undefined) {
    conditions.push(eb('change_history.actor_type', '=', filters.actor_type ?? 'COLLABORATOR'));
    conditions.push(eb('change_history.actor_id', '=', filters.actor_id));
  } else if (filters.actor_type) {
    conditions.push(eb('change_history.actor_type', '=', filters.actor_type));
  }
  if (filters.entity) conditions.push(eb('change_history.entity', '=', filters.entity));
  if (filters.record_id) conditions.push(eb('change_history.record_id', '=', filters.record_id));
  if (filters.action) conditions.push(eb('change_history.action', '=', filters.action));
  return conditions;
}

/**
 * The rows of {@link filtered} without its actor joins, to count them: the joins add no rows (each
 * matches at most one user or customer), and with 100 000 history rows they made the count most of
 * a page's time (docs/performance.md). Undefined when `q` searches the actor's name (the joins are
 * needed then).
 */
function countable(db: Kysely<DB>, filters: Filters) {
  return filters.q ? undefined : db.selectFrom('change_history').where((eb) => eb.and(ownConditions(eb, filters)));
}

/** History rows matching the filters, joined with the actor's name, without ORDER BY. */
function filtered(db: Kysely<DB>, filters: Filters) {
  let query = db
    .selectFrom('change_history')
    .leftJoin('users', (join) =>
      join.onRef('users.id', '=', 'change_history.actor_id').on('change_history.actor_type', '=', 'COLLABORATOR'),
    )
    .leftJoin('customers', (join) =>
      join.onRef('customers.id', '=', 'change_history.actor_id').on('change_history.actor_type', '=', 'CUSTOMER'),
    )
    .where((eb) => eb.and(ownConditions(eb, filters)));
  if (filters.q) {
    // Actors' names folded (docs/domain.md "Searching lists"), each users/customers row once.
    const pattern = searchPatternSql(filters.q);
    const staff = db.selectFrom('users').select('users.id').where(searchTextOf(db, `users.name || ' ' || users.surname`), 'like', pattern);
    const customers = db.selectFrom('customers').select('customers.id').where('customers.search_text', 'like', pattern);
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(change_history.entity)`, 'like', pattern),
        eb('change_history.record_id', 'like', pattern),
        eb.and([eb('change_history.actor_type', '=', 'COLLABORATOR'), eb('change_history.actor_id', 'in', staff)]),
        eb.and([eb('change_history.actor_type', '=', 'CUSTOMER'), eb('change_history.actor_id', 'in', customers)]),
      ]),
    );
  }
  return query;
}

/** A stored JSON object, or null. */
function parseObject(json: string | null): Record<string, unknown> | null {
  return json === null ? null : (JSON.parse(json) as Record<string, unknown>);
}

/** Selects a history entry's columns and orders newest first (or oldest first with `sort=occurred_at`). */
function selectEntries(query: ReturnType<typeof filtered>, sort: string | undefined) {
  const { direction } = parseSort<'occurred_at'>(sort, '-occurred_at');
  return query
    .select([
      'change_history.id',
      'change_history.occurred_at',
      'change_history.actor_type',
      'change_history.actor_id',
      'change_history.ip',
      'change_history.entity',
      'change_history.record_id',
      'change_history.action',
      'change_history.before',
      'change_history.after',
      'change_history.changed_fields',
      sql<string | null>`coalesce(users.name || ' ' || users.surname, customers.name || ' ' || customers.surname)`.as('actor_name'),
    ])
    .orderBy('change_history.occurred_at', direction)
    .orderBy('change_history.id', direction);
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

/** Row → wire entry. */
function toEntry(row: EntryRow): ChangeHistoryEntry {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    actor: row.actor_type !== null && row.actor_id !== null ? { type: row.actor_type, id: row.actor_id, name: row.actor_name } : null,
    ip: row.ip,
    entity: row.entity,
    record_id: row.record_id,
    action: row.action,
    before: parseObject(row.before),
    after: parseObject(row.after),
    changed_fields: JSON.parse(row.changed_fields) as string[],
  };
}

/** `entries` with their records' business labels (record-labels.ts: one query per kind of record). */
async function withLabels(db: Kysely<DB>, entries: ChangeHistoryEntry[]): Promise<ChangeHistoryEntry[]> {
  const labels = await recordLabels(db, entries);
  return entries.map((entry, i) => ({ ...entry, record_label: labels[i] ?? null }));
}

/**
 * One page of the history. Without `q` the page's ids are found over change_history alone, in the
 * list's order (the `(occurred_at, id)` index), and only those rows are joined with their actor:
 * deep pages stay as cheap as the first (docs/performance.md "Deep pages").
 */
export async function listChangeHistory(db: Kysely<DB>, query: ChangeHistoryQuery): Promise<Page<ChangeHistoryEntry>> {
  const counted = countable(db, query);
  const { direction } = parseSort<'occurred_at'>(query.sort, '-occurred_at');
  const keys = counted && {
    query: counted.select('change_history.id').orderBy('change_history.occurred_at', direction).orderBy('change_history.id', direction),
    column: 'change_history.id',
  };
  const page = await paginate(filtered(db, query), query, (q) => selectEntries(q, query.sort), { counted, keys });
  return { data: await withLabels(db, page.data.map(toEntry)), meta: page.meta };
}

/**
 * Every matching entry in the list's order, in batches of `batchSize` (the CSV export streams them).
 * Keyset pagination (issue "API throughput" item 3): each batch continues after the last row read,
 * `(occurred_at, id)` beyond the previous batch's last — the order of {@link selectEntries}, served by
 * `change_history_occurred_idx` — so batch n costs the same as batch 1 (an OFFSET would read and
 * discard every earlier row: quadratic over a long history). Ties on `occurred_at` are ordered by id.
 */
export async function* iterateChangeHistory(
  db: Kysely<DB>,
  query: Omit<ChangeHistoryQuery, 'page' | 'per_page'>,
  batchSize = 500,
): AsyncGenerator<ChangeHistoryEntry> {
  const { direction } = parseSort<'occurred_at'>(query.sort, '-occurred_at');
  let last: { occurred_at: string; id: number } | null = null;
  for (;;) {
    let rows = filtered(db, query);
    if (last) {
      const { occurred_at, id } = last;
      rows = rows.where((eb) =>
        eb(eb.refTuple('change_history.occurred_at', 'change_history.id'), direction === 'desc' ? '<' : '>', eb.tuple(occurred_at, id)),
      );
    }
    const batch = await selectEntries(rows, query.sort).limit(batchSize).execute();
    for (const entry of await withLabels(db, batch.map(toEntry))) yield entry;
    if (batch.length < batchSize) return;
    const end = batch[batch.length - 1]!;
    last = { occurred_at: end.occurred_at, id: end.id };
  }
}
