import type { Kysely } from 'kysely';
import type { DB, LandUse, LotStatus } from '../../db/database';

/**
 * SQL reads of the lot import (issue "One place per screen" item 5: the repository layer of
 * Proyectos → Importar lotes): what the preview compares a file with and what the commit matches
 * it against. lot-imports.service.ts keeps the rules, the messages, the transaction and the writes
 * with their change records. Every function takes the database or the caller's transaction.
 */

/** The subdivision's id and coordinate system ('PLAN' metres or 'GEO' lon/lat), or undefined. */
export async function findImportTarget(db: Kysely<DB>, id: number) {
  return db.selectFrom('subdivisions').select(['id', 'coordinate_system', 'overlap_limit_m2']).where('id', '=', id).executeTakeFirst();
}

/** Whether any lot of the subdivision has a polygon (then the coordinate system is fixed). */
export async function hasDrawnLot(db: Kysely<DB>, subdivisionId: number): Promise<boolean> {
  const drawn = await db
    .selectFrom('lots')
    .select('id')
    .where('subdivision_id', '=', subdivisionId)
    .where('polygon', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return drawn !== undefined;
}

/** The subdivision's lots by code ("MZ A - LT 1" style, docs/domain.md) with their status and land use. */
export async function lotStatesByCode(
  db: Kysely<DB>,
  subdivisionId: number,
): Promise<Map<string, { status: LotStatus; land_use: LandUse }>> {
  const rows = await db.selectFrom('lots').select(['code', 'status', 'land_use']).where('subdivision_id', '=', subdivisionId).execute();
  return new Map(rows.map((r) => [r.code, { status: r.status, land_use: r.land_use }]));
}

/** The subdivision's stages: id, name and position (unordered). */
export async function stagesOf(db: Kysely<DB>, subdivisionId: number) {
  return db.selectFrom('stages').select(['id', 'name', 'position']).where('subdivision_id', '=', subdivisionId).execute();
}

/** The subdivision's blocks: id, name and stage (unordered). */
export async function blocksOf(db: Kysely<DB>, subdivisionId: number) {
  return db.selectFrom('blocks').select(['id', 'name', 'stage_id']).where('subdivision_id', '=', subdivisionId).execute();
}

/** Every column of the subdivision's lots, keyed by code (the import matches lots by code). */
export async function lotsByCode(db: Kysely<DB>, subdivisionId: number) {
  const rows = await db.selectFrom('lots').selectAll().where('subdivision_id', '=', subdivisionId).orderBy('id').execute();
  return new Map(rows.map((row) => [row.code, row]));
}

/** The ids of the subdivision's lots whose code is in `codes`, keyed by code. */
export async function lotIdsByCode(db: Kysely<DB>, subdivisionId: number, codes: ReadonlySet<string>): Promise<Map<string, number>> {
  const rows = await db.selectFrom('lots').select(['id', 'code']).where('subdivision_id', '=', subdivisionId).orderBy('id').execute();
  return new Map(rows.filter((r) => codes.has(r.code)).map((r) => [r.code, r.id]));
}

/** The land uses remembered for the subdivision's files (table `lot_import_land_uses`), by value key. */
export async function rememberedLandUses(db: Kysely<DB>, subdivisionId: number) {
  return db
    .selectFrom('lot_import_land_uses')
    .select(['id', 'label', 'land_use'])
    .where('subdivision_id', '=', subdivisionId)
    .orderBy('id')
    .execute();
}
