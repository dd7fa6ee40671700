import { sql, type Kysely } from 'kysely';
import type { ChangeHistoryQuery, ChangeHistoryEntry } from '../../../src/schemas/historial/change-history';
import type { DB } from '../../db/database';
import { likePattern, paginate, parseSort, type Page } from '../../db/paging';

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

/** History rows matching the filters, joined with the actor's name, without ORDER BY. */
function filtered(db: Kysely<DB>, filters: Omit<ChangeHistoryQuery, 'page' | 'per_page' | 'sort'>) {
  let query = db
    .selectFrom('change_history')
    .leftJoin('users', (join) =>
      join.onRef('users.id', '=', 'change_history.actor_id').on('change_history.actor_type', '=', 'COLLABORATOR'),
    )
    .leftJoin('customers', (join) =>
      join.onRef('customers.id', '=', 'change_history.actor_id').on('change_history.actor_type', '=', 'CUSTOMER'),
    );
  if (filters.from) query = query.where('change_history.occurred_at', '>=', limaDayStart(filters.from));
  if (filters.to) query = query.where('change_history.occurred_at', '<', limaDayStart(nextDate(filters.to)));
  if (filters.actor_id !== undefined) {
    query = query
      .where('change_history.actor_type', '=', filters.actor_type ?? 'COLLABORATOR')
      .where('change_history.actor_id', '=', filters.actor_id);
  } else if (filters.actor_type) {
    query = query.where('change_history.actor_type', '=', filters.actor_type);
  }
  if (filters.entity) query = query.where('change_history.entity', '=', filters.entity);
  if (filters.record_id) query = query.where('change_history.record_id', '=', filters.record_id);
  if (filters.action) query = query.where('change_history.action', '=', filters.action);
  if (filters.q) {
    const pattern = sql<string>`${likePattern(filters.q)} escape '\\'`;
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(change_history.entity)`, 'like', pattern),
        eb('change_history.record_id', 'like', pattern),
        eb(sql<string>`lower(users.name || ' ' || users.surname)`, 'like', pattern),
        eb(sql<string>`lower(customers.name || ' ' || customers.surname)`, 'like', pattern),
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

/** One page of the history. */
export async function listChangeHistory(db: Kysely<DB>, query: ChangeHistoryQuery): Promise<Page<ChangeHistoryEntry>> {
  const page = await paginate(filtered(db, query), query, (q) => selectEntries(q, query.sort));
  return { data: page.data.map(toEntry), meta: page.meta };
}

/** Every matching entry in batches of `batchSize` (the CSV export streams them). */
export async function* iterateChangeHistory(
  db: Kysely<DB>,
  query: Omit<ChangeHistoryQuery, 'page' | 'per_page'>,
  batchSize = 500,
): AsyncGenerator<ChangeHistoryEntry> {
  for (let offset = 0; ; offset += batchSize) {
    const rows = await selectEntries(filtered(db, query), query.sort).limit(batchSize).offset(offset).execute();
    for (const row of rows) yield toEntry(row);
    if (rows.length < batchSize) return;
  }
}
