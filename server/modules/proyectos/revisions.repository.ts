import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/database';

/**
 * The revisions the server keeps answers by (server/platform/revision-texts.ts), read from
 * `subdivision_revisions`: one row per subdivision, bumped by database triggers on every write to
 * the subdivision, its lots, blocks and stages (migrations 0013 and 0014), by whatever code path.
 */

/** A subdivision's revision (its maps and lot pages), or null when there is no such subdivision. */
export async function subdivisionRevision(db: Kysely<DB>, subdivisionId: number): Promise<number | null> {
  const row = await db
    .selectFrom('subdivision_revisions')
    .select('revision')
    .where('subdivision_id', '=', subdivisionId)
    .executeTakeFirst();
  return row ? Number(row.revision) : null;
}

/**
 * The revision of the subdivisions list: every subdivision's id and revision, as one text
 * ("id:revision,…" by id). It changes with any subdivision created, deleted or written, or any of
 * its lots (the list's counts and areas); ids are never reused (AUTOINCREMENT / identity columns),
 * so a deleted subdivision cannot come back under its old pair. One index read of a row per
 * subdivision (hundreds at most) — no shared counter that every lot write in every subdivision
 * would queue on.
 */
export async function subdivisionsListRevision(db: Kysely<DB>): Promise<string> {
  // Joined by the database (string_agg: PostgreSQL, and SQLite since 3.44) — one row to the server
  // instead of one per subdivision.
  const row = await db
    .selectFrom('subdivision_revisions')
    .select(sql<string | null>`string_agg(subdivision_id || ':' || revision, ',' order by subdivision_id)`.as('revisions'))
    .executeTakeFirst();
  return row?.revisions ?? '';
}
