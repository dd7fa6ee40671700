import { LIVE_RESERVATION_STATUSES } from '../../../src/schemas/comercio/reservations';
import { sql, type Kysely } from 'kysely';
import type { Block, Lot, LotsQuery, LotStatusChange, LotSelection, Stage } from '../../../src/schemas/proyectos/projects';
import type { DB } from '../../db/database';
import { paginate, parseSort, type Page, type PageRequest } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { fromFlag } from '../../db/portable';

/**
 * SQL of a subdivision's structure and lots (issue "One place per screen" item 5: the repository
 * layer of Proyectos → Lotes): `stages`, `blocks`, `lots` and `lot_status_changes` — the reads
 * and lookups; lots.service.ts keeps the rules, the messages, the transactions and the writes with
 * their change records. Every function takes the database or the caller's transaction. Money in
 * integer céntimos, areas in m², lengths in metres (src/schemas/proyectos/projects.ts).
 */

// ---------------------------------------------------------------------------------------------
// Stages
// ---------------------------------------------------------------------------------------------

/** The stage row (with its subdivision), or undefined. */
export async function findStage(db: Kysely<DB>, id: number) {
  return db.selectFrom('stages').select(['id', 'subdivision_id', 'name', 'position', 'version']).where('id', '=', id).executeTakeFirst();
}

/** The stages of a subdivision by position then id (at most 100). */
export async function listStages(db: Kysely<DB>, subdivisionId: number): Promise<Stage[]> {
  return db
    .selectFrom('stages')
    .select(['id', 'name', 'position', 'version'])
    .where('subdivision_id', '=', subdivisionId)
    .orderBy('position')
    .orderBy('id')
    .limit(100)
    .execute();
}

/** Whether another stage of the subdivision (other than `exceptId`) has this name. */
export async function stageNameTaken(db: Kysely<DB>, subdivisionId: number, name: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('stages').select('id').where('subdivision_id', '=', subdivisionId).where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The highest stage position of the subdivision, or null when it has none. */
export async function lastStagePosition(db: Kysely<DB>, subdivisionId: number): Promise<number | null> {
  const last = await db
    .selectFrom('stages')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('subdivision_id', '=', subdivisionId)
    .executeTakeFirst();
  return last?.max == null ? null : Number(last.max);
}

// ---------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------

/** The block row (with its subdivision and stage), or undefined. */
export async function findBlock(db: Kysely<DB>, id: number) {
  return db.selectFrom('blocks').select(['id', 'subdivision_id', 'stage_id', 'name', 'version']).where('id', '=', id).executeTakeFirst();
}

/** The blocks of a subdivision with their lot counts, by name naturally (A…Z, AA…), at most 500. */
export async function listBlocks(db: Kysely<DB>, subdivisionId: number): Promise<Block[]> {
  const rows = await db
    .selectFrom('blocks')
    .leftJoin('lots', 'lots.block_id', 'blocks.id')
    .select((eb) => ['blocks.id', 'blocks.name', 'blocks.stage_id', 'blocks.version', eb.fn.count<number>('lots.id').as('lots_count')])
    .where('blocks.subdivision_id', '=', subdivisionId)
    .groupBy(['blocks.id', 'blocks.name', 'blocks.stage_id', 'blocks.version'])
    .orderBy(sql`length(blocks.name)`)
    .orderBy('blocks.name')
    .orderBy('blocks.id')
    .limit(500)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, stage_id: r.stage_id, lots_count: Number(r.lots_count), version: r.version }));
}

/** How many lots the block has. */
export async function countBlockLots(db: Kysely<DB>, blockId: number): Promise<number> {
  const count = await db
    .selectFrom('lots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('block_id', '=', blockId)
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

/** Whether another block of the subdivision (other than `exceptId`) has this name. */
export async function blockNameTaken(db: Kysely<DB>, subdivisionId: number, name: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('blocks').select('id').where('subdivision_id', '=', subdivisionId).where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The id of block `name` of the subdivision, or undefined. */
export async function findBlockId(db: Kysely<DB>, subdivisionId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('blocks')
    .select('id')
    .where('subdivision_id', '=', subdivisionId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}

// ---------------------------------------------------------------------------------------------
// Lots
// ---------------------------------------------------------------------------------------------

/** Lots joined with their block, stage and subdivision currency. */
function lotsQuery(db: Kysely<DB>) {
  return db
    .selectFrom('lots')
    .innerJoin('blocks', 'blocks.id', 'lots.block_id')
    .leftJoin('stages', 'stages.id', 'blocks.stage_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id');
}

const LOT_COLUMNS = [
  'lots.id',
  'lots.subdivision_id',
  'lots.block_id',
  'blocks.name as block',
  'stages.name as stage',
  'lots.number',
  'lots.code',
  'lots.area_m2',
  'lots.perimeter_m',
  'lots.front_m',
  'lots.front_neighbour',
  'lots.back_m',
  'lots.back_neighbour',
  'lots.right_m',
  'lots.right_neighbour',
  'lots.left_m',
  'lots.left_neighbour',
  'subdivisions.currency',
  'lots.price_per_m2',
  'lots.list_price',
  'lots.list_price_reason',
  'lots.is_corner',
  'lots.facing_park',
  'lots.status',
  'lots.land_use',
  'lots.registry_entry',
  'lots.notes',
  'lots.updated_at',
  'lots.version',
] as const;

type LotJoinedRow = Omit<Lot, 'is_corner' | 'facing_park' | 'has_polygon'> & {
  is_corner: number;
  facing_park: number;
  has_polygon: number | boolean;
};

function toLot(row: LotJoinedRow): Lot {
  return {
    ...row,
    area_m2: Number(row.area_m2),
    is_corner: fromFlag(row.is_corner),
    facing_park: fromFlag(row.facing_park),
    has_polygon: Boolean(Number(row.has_polygon)),
  };
}

const hasPolygonColumn = sql<number>`case when lots.polygon is null then 0 else 1 end`.as('has_polygon');

/** A lot with its joined names (block, stage, currency), or undefined. */
export async function findLot(db: Kysely<DB>, id: number): Promise<Lot | undefined> {
  const row = await lotsQuery(db)
    .select([...LOT_COLUMNS, hasPolygonColumn])
    .where('lots.id', '=', id)
    .executeTakeFirst();
  return row ? toLot(row as LotJoinedRow) : undefined;
}

/** The raw lot row (change-history snapshot; the polygon stays out: it can be large). */
export async function lotSnapshot(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('lots')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
    .then((row) => (row ? { ...row, polygon: row.polygon === null ? null : '(polígono)' } : undefined));
}

/** Natural order of a text column: shorter first, then alphabetical ("2" < "10", "Z" < "AA"). */
const natural = (column: string, direction: 'asc' | 'desc') => [
  sql`length(${sql.ref(column)}) ${sql.raw(direction)}`,
  sql`${sql.ref(column)} ${sql.raw(direction)}`,
];

/**
 * One page of a subdivision's lots. `q` over code and notes; filters status, block (name), stage_id;
 * sort by code, block (then number, naturally), number, area, prices, status or updated_at.
 */
export async function listLots(db: Kysely<DB>, subdivisionId: number, query: LotsQuery): Promise<Page<Lot>> {
  let base = lotsQuery(db).where('lots.subdivision_id', '=', subdivisionId);
  if (query.q) {
    const pattern = searchPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb(sql<string>`lots.search_text`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(searchTextOf(db, `coalesce(lots.notes, '')`), 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (query.status) base = base.where('lots.status', '=', query.status);
  if (query.block) base = base.where('blocks.name', '=', query.block.toUpperCase());
  if (query.stage_id !== undefined) base = base.where('blocks.stage_id', '=', query.stage_id);
  type SortField = 'code' | 'block' | 'number' | 'area_m2' | 'price_per_m2' | 'list_price' | 'status' | 'updated_at';
  const { field, direction } = parseSort<SortField>(query.sort, 'block');
  const page = await paginate(base, query, (q) => {
    let ordered = q.select([...LOT_COLUMNS, hasPolygonColumn]);
    const orderings =
      field === 'block'
        ? [...natural('blocks.name', direction), ...natural('lots.number', direction)]
        : field === 'number'
          ? natural('lots.number', direction)
          : [sql`${sql.ref(`lots.${field}`)} ${sql.raw(direction)}`];
    for (const o of orderings) ordered = ordered.orderBy(o);
    return ordered.orderBy('lots.id', direction);
  });
  return { data: page.data.map((r) => toLot(r as LotJoinedRow)), meta: page.meta };
}

/** Whether another lot of the subdivision (other than `exceptId`) has this code. */
export async function lotCodeTaken(db: Kysely<DB>, subdivisionId: number, code: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('lots').select('id').where('subdivision_id', '=', subdivisionId).where('code', '=', code);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether the lot exists. */
export async function lotExists(db: Kysely<DB>, id: number): Promise<boolean> {
  return (await db.selectFrom('lots').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The fields an update of the lot starts from (its block's name included), or undefined. */
export async function findLotForUpdate(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('lots')
    .innerJoin('blocks', 'blocks.id', 'lots.block_id')
    .select([
      'lots.id',
      'lots.subdivision_id',
      'lots.number',
      'lots.area_m2',
      'lots.price_per_m2',
      'lots.list_price',
      'lots.list_price_reason',
      'lots.status',
      'lots.land_use',
      'blocks.name as block',
    ])
    .where('lots.id', '=', id)
    .executeTakeFirst();
}

/** One page of a lot's status history, newest first, with the staff user's "name surname". */
export async function statusHistoryPage(db: Kysely<DB>, lotId: number, page: PageRequest): Promise<Page<LotStatusChange>> {
  const base = db
    .selectFrom('lot_status_changes')
    .leftJoin('users', 'users.id', 'lot_status_changes.user_id')
    .where('lot_status_changes.lot_id', '=', lotId);
  return paginate(base, page, (q) =>
    q
      .select([
        'lot_status_changes.id',
        'lot_status_changes.from_status',
        'lot_status_changes.to_status',
        'lot_status_changes.reason',
        sql<string | null>`users.name || ' ' || users.surname`.as('user_name'),
        'lot_status_changes.changed_at',
      ])
      .orderBy('lot_status_changes.id', 'desc'),
  );
}

/**
 * The lots a bulk price change selects (blocks by name, statuses, ids; all given filters apply), by
 * code then id. Lots not for sale (NO_VENDIBLE) are never repriced: they have no price on offer.
 */
export async function lotsForPricing(db: Kysely<DB>, subdivisionId: number, selection: LotSelection) {
  let query = db
    .selectFrom('lots')
    .innerJoin('blocks', 'blocks.id', 'lots.block_id')
    .select(['lots.id', 'lots.code', 'lots.status', 'lots.area_m2', 'lots.price_per_m2', 'lots.list_price'])
    .where('lots.subdivision_id', '=', subdivisionId)
    .where('lots.status', '<>', 'NO_VENDIBLE');
  const { blocks, statuses, lot_ids } = selection;
  if (blocks?.length) query = query.where('blocks.name', 'in', blocks);
  if (statuses?.length) query = query.where('lots.status', 'in', statuses);
  if (lot_ids?.length) query = query.where('lots.id', 'in', lot_ids);
  return query.orderBy('lots.code').orderBy('lots.id').execute();
}

/** Whether a lot is held by a live (PENDIENTE_PAGO or VIGENTE) reservation (Comercial). */
export async function hasLiveReservation(db: Kysely<DB>, lotId: number): Promise<boolean> {
  const row = await db
    .selectFrom('reservations')
    .select('id')
    .where('lot_id', '=', lotId)
    .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
    .executeTakeFirst();
  return row !== undefined;
}
