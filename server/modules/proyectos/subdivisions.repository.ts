import { sql, type Kysely } from 'kysely';
import type { LotStatus, SubdivisionsQuery } from '../../../src/schemas/proyectos/projects';
import type { DB } from '../../db/database';
import { paginate, parseSort } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { toFlag } from '../../db/portable';

/**
 * SQL of `subdivisions` (issue "One place per screen" item 5: the repository layer of Proyectos →
 * Lotizaciones): the reads and lookups; subdivisions.service.ts keeps the rules, the messages, the
 * transactions and the writes with their change records. Every function takes the database or the
 * caller's transaction. Areas in m².
 */

/** Every column but the plan bytes (wire building and the change-history snapshot). */
const COLUMNS = [
  'id',
  'code',
  'name',
  'department',
  'province',
  'district',
  'ubigeo',
  'address',
  'currency',
  'total_area_m2',
  'registry_entry',
  'licence_number',
  'licence_date',
  'status',
  'published',
  'public_prices',
  'coordinate_system',
  'overlap_limit_m2',
  'late_fee_grace_days',
  'late_fee_kind',
  'late_fee_daily_amount',
  'late_fee_monthly_percent',
  'late_fee_cap',
  'rescission_overdue_instalments',
  'rescission_paid_share_limit_pct',
  'rescission_penalty_pct',
  'plan_content_type',
  'plan_width',
  'plan_height',
  'plan_updated_at',
  'created_at',
  'updated_at',
  'version',
] as const;

/** A subdivision row without the plan bytes. */
export type SubdivisionRow = Awaited<ReturnType<typeof findRow>> & object;

/** The subdivision's row (without the plan bytes), or undefined. */
export async function findRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('subdivisions').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Whether a subdivision with this id exists. */
export async function subdivisionExists(db: Kysely<DB>, id: number): Promise<boolean> {
  return (await db.selectFrom('subdivisions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Lots per subdivision and status, with their summed area (m²), for `ids`: the counts the triggers
 * of migration 0012 keep (`subdivision_lot_counts`), one row per status that has lots — a read of
 * at most ids × 7 rows, however many lots the subdivisions hold.
 */
export function lotCountsByStatus(db: Kysely<DB>, ids: readonly number[]) {
  return db
    .selectFrom('subdivision_lot_counts')
    .select(['subdivision_id', 'status', 'lots as n', 'area_m2 as area'])
    .where('subdivision_id', 'in', ids)
    .where('lots', '>', 0)
    .execute();
}

/** One page of subdivision rows: `q` over code, name and district; filters status, currency; sort code, name, status or created_at. */
export function subdivisionsPage(db: Kysely<DB>, query: SubdivisionsQuery) {
  let base = db.selectFrom('subdivisions');
  if (query.q) {
    const pattern = searchPattern(query.q);
    base = base.where((eb) =>
      eb.or(
        (['code', 'name', 'district'] as const).map((column) =>
          eb(searchTextOf(db, `subdivisions.${column}`), 'like', sql<string>`${pattern} escape '\\'`),
        ),
      ),
    );
  }
  if (query.status) base = base.where('subdivisions.status', '=', query.status);
  if (query.currency) base = base.where('subdivisions.currency', '=', query.currency);
  const { field, direction } = parseSort<'code' | 'name' | 'status' | 'created_at'>(query.sort, 'code');
  return paginate(base, query, (q) =>
    q
      .select(COLUMNS.map((c) => `subdivisions.${c}` as const))
      .orderBy(`subdivisions.${field}`, direction)
      .orderBy('subdivisions.id', direction),
  );
}

/** Whether another subdivision (other than `exceptId`) has this code. */
export async function subdivisionCodeTaken(db: Kysely<DB>, code: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('subdivisions').select('id').where('code', '=', code);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether the subdivision has a lot in one of `statuses`. */
export async function hasLotIn(db: Kysely<DB>, subdivisionId: number, statuses: readonly LotStatus[]): Promise<boolean> {
  const lot = await db
    .selectFrom('lots')
    .select('id')
    .where('subdivision_id', '=', subdivisionId)
    .where('status', 'in', statuses)
    .limit(1)
    .executeTakeFirst();
  return lot !== undefined;
}

/** A stored plan image. */
export interface StoredPlan {
  contentType: string;
  data: Buffer;
  updatedAt: string;
}

/**
 * The plan image of subdivision `id`, or null when it has none.
 * @param options.publishedOnly true → null unless the subdivision is published (public base).
 */
export async function findPlan(db: Kysely<DB>, id: number, options: { publishedOnly?: boolean } = {}): Promise<StoredPlan | null> {
  let query = db.selectFrom('subdivisions').select(['plan_content_type', 'plan_data', 'plan_updated_at']).where('id', '=', id);
  if (options.publishedOnly) query = query.where('published', '=', toFlag(true));
  const row = await query.executeTakeFirst();
  if (!row?.plan_content_type || !row.plan_data || !row.plan_updated_at) return null;
  return { contentType: row.plan_content_type, data: Buffer.from(row.plan_data), updatedAt: row.plan_updated_at };
}
