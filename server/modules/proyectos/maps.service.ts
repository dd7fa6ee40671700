import type { Kysely } from 'kysely';
import {
  publicLotStatus,
  type LotMap,
  type MapSubdivision,
  type Polygon,
  type PublicLotMap,
} from '../../../src/schemas/proyectos/projects';
import { saleDaysLate } from '../../../src/lib/finanzas/payment-buckets';
import { todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { fromFlag } from '../../db/portable';
import { MAIN_BASE } from '../../platform/bases';
import { planUrl, publicPlanUrl, subdivisionNotFound, type ProjectsDeps } from './subdivisions.service';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';

/**
 * The lot maps (issue "Proyectos" → Maps; docs/domain.md "Maps"): the staff/sales map with every lot and
 * its polygon, and the public/customer map (published subdivisions only; public statuses; prices
 * only when `public_prices`; no ids, no personal data). One query for the subdivision and one for
 * its lots; per lot only a JSON.parse of the polygon.
 */

/** Parses a stored polygon (JSON `[[x, y], …]`), null when absent or unreadable. */
function parsePolygon(text: string | null): Polygon | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) && value.length >= 3 ? (value as Polygon) : null;
  } catch {
    return null;
  }
}

/** [minX, minY, maxX, maxY] over every vertex of `polygons`, or null when there is none. */
export function boundsOf(polygons: Iterable<Polygon | null>): [number, number, number, number] | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const polygon of polygons) {
    if (!polygon) continue;
    for (const [x, y] of polygon) {
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return minX === Infinity ? null : [minX, minY, maxX, maxY];
}

async function subdivisionHead(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('subdivisions')
    .select([
      'id',
      'code',
      'name',
      'currency',
      'coordinate_system',
      'plan_width',
      'plan_height',
      'plan_updated_at',
      'published',
      'public_prices',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The lots of a subdivision for a map, in one query, by block then number. */
function mapLots(db: Kysely<DB>, subdivisionId: number) {
  return db
    .selectFrom('lots')
    .innerJoin('blocks', 'blocks.id', 'lots.block_id')
    .select([
      'lots.id',
      'lots.code',
      'blocks.name as block',
      'lots.number',
      'lots.area_m2',
      'lots.price_per_m2',
      'lots.list_price',
      'lots.status',
      'lots.land_use',
      'lots.polygon',
    ])
    .where('lots.subdivision_id', '=', subdivisionId)
    .orderBy('lots.id')
    .execute();
}

/** What the heat map knows of a sold lot: its live sale's date and its days late. */
export interface LotSaleFacts {
  /** The live sale's date, YYYY-MM-DD (Lima). */
  sale_date: string;
  /**
   * Days late (src/lib/finanzas/payment-buckets.ts `saleDaysLate`; counted from the due date,
   * docs/domain.md): today − the due date of the oldest instalment still owed (paid < amount); 0
   * when none is late.
   */
  days_late: number;
}

/**
 * The live sale (not ANULADA; at most one per lot, `sales_live_lot_uq`) of every lot of a
 * subdivision, with the due date of its oldest instalment with `paid < amount` due before `today`
 * — one grouped query per map (lots → the partial unique index on sales.lot_id → the sale's
 * instalments by `sale_instalments_sale_uq`), never one per lot (docs/decisions.md "Heat map metrics").
 * Days late count from the due date (docs/domain.md "Instalments, days late and late fees"), as
 * Registro de Cuotas and the payment map's buckets.
 * @param today YYYY-MM-DD in America/Lima (the injected clock's).
 * @returns lot id → facts; lots without a live sale are absent.
 */
export async function lotSaleFacts(db: Kysely<DB>, subdivisionId: number, today: string): Promise<Map<number, LotSaleFacts>> {
  const rows = await db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .leftJoin('sale_instalments', (join) =>
      join
        .onRef('sale_instalments.sale_id', '=', 'sales.id')
        .on((eb) =>
          eb.and([eb('sale_instalments.due_date', '<', today), eb('sale_instalments.paid', '<', eb.ref('sale_instalments.amount'))]),
        ),
    )
    .select((eb) => ['sales.lot_id', 'sales.sale_date', eb.fn.min('sale_instalments.due_date').as('oldest_due')])
    .where('lots.subdivision_id', '=', subdivisionId)
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .groupBy(['sales.id', 'sales.lot_id', 'sales.sale_date'])
    .execute();
  const facts = new Map<number, LotSaleFacts>();
  for (const r of rows) {
    const oldest = r.oldest_due === null ? null : String(r.oldest_due);
    facts.set(r.lot_id, { sale_date: r.sale_date, days_late: saleDaysLate(oldest, today) });
  }
  return facts;
}

/**
 * The staff / sales map of subdivision `id` (GET /api/subdivisions/{key}/map): every lot, and for
 * lots with a live sale its `sale_date` and `days_late` (null otherwise; today by the injected clock;
 * days since the due date, see {@link lotSaleFacts}).
 * @throws HttpError 404.
 */
export async function getStaffMap(deps: ProjectsDeps, id: number): Promise<LotMap> {
  const head = await subdivisionHead(deps.db, id);
  if (!head) throw subdivisionNotFound();
  const [rows, sales] = await Promise.all([mapLots(deps.db, id), lotSaleFacts(deps.db, id, todayInLimaBy(deps.clock))]);
  const lots = rows.map((r) => ({
    id: r.id,
    code: r.code,
    block: r.block,
    number: r.number,
    area_m2: Number(r.area_m2),
    price_per_m2: r.price_per_m2,
    list_price: r.list_price,
    status: r.status,
    land_use: r.land_use,
    polygon: parsePolygon(r.polygon),
    sale_date: sales.get(r.id)?.sale_date ?? null,
    days_late: sales.get(r.id)?.days_late ?? null,
  }));
  const key = deps.ids.encode(id);
  const subdivision: MapSubdivision = {
    key,
    code: head.code,
    name: head.name,
    currency: head.currency,
    coordinate_system: head.coordinate_system,
    plan_url: planUrl(MAIN_BASE, key, head.plan_updated_at),
    plan_width: head.plan_width,
    plan_height: head.plan_height,
    bounds: boundsOf(lots.map((l) => l.polygon)),
  };
  return { subdivision, lots };
}

/**
 * The public / customer map of the subdivision whose key is `key` (GET /public/subdivisions/{key}/map).
 * @throws HttpError 404 when the key does not decode, the subdivision does not exist or is not published.
 */
export async function getPublicMap(deps: ProjectsDeps, key: string): Promise<PublicLotMap> {
  const id = deps.ids.decode(key);
  if (id === null) throw subdivisionNotFound();
  const head = await subdivisionHead(deps.db, id);
  if (!head || !fromFlag(head.published)) throw subdivisionNotFound();
  const prices = fromFlag(head.public_prices);
  const rows = await mapLots(deps.db, id);
  const lots = rows.map((r) => ({
    code: r.code,
    block: r.block,
    number: r.number,
    area_m2: Number(r.area_m2),
    // A lot not for sale (park, club house…) has no price to show.
    list_price: prices && r.status !== 'NO_VENDIBLE' ? r.list_price : null,
    price_per_m2: prices && r.status !== 'NO_VENDIBLE' ? r.price_per_m2 : null,
    status: publicLotStatus(r.status),
    land_use: r.land_use,
    polygon: parsePolygon(r.polygon),
  }));
  return {
    subdivision: {
      key,
      code: head.code,
      name: head.name,
      currency: head.currency,
      coordinate_system: head.coordinate_system,
      plan_url: publicPlanUrl(key, head.plan_updated_at),
      plan_width: head.plan_width,
      plan_height: head.plan_height,
      bounds: boundsOf(lots.map((l) => l.polygon)),
    },
    lots,
  };
}
