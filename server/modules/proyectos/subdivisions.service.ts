import type { Kysely } from 'kysely';
import {
  LOT_STATUSES,
  type CreateSubdivisionRequest,
  type LotCounts,
  type LotStatus,
  type Subdivision,
  type SubdivisionsQuery,
  type UpdateSubdivisionRequest,
} from '../../../src/schemas/proyectos/projects';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { fromFlag, isUniqueViolation, toFlag } from '../../db/portable';
import { conflict, fieldError, HttpError } from '../../errors';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { MAIN_BASE, PUBLIC_BASE } from '../../platform/bases';
import { PLAN_MESSAGES, planSizeAllowed, readPlanImage } from './plan-image';
import {
  findRow,
  hasLotIn,
  lotCountsByStatus,
  subdivisionCodeTaken,
  subdivisionExists,
  subdivisionsPage,
  type SubdivisionRow,
} from './subdivisions.repository';

export { findPlan, type StoredPlan } from './subdivisions.repository';

/**
 * Proyectos → Lotizaciones: subdivisions with their computed lot figures and their plan image
 * (issue "Proyectos"; src/schemas/proyectos/projects.ts). Areas in m²; keys are `deps.ids` sqids.
 * The rules, messages, transactions and writes; the reads and lookups are in subdivisions.repository.ts.
 */

/** What the projects services need (the route plugins pass AppDeps; fixtures build their own). */
export type ProjectsDeps = Pick<AppDeps, 'db' | 'clock' | 'ids'>;

/** Spanish messages of the subdivisions screen. */
export const SUBDIVISION_MESSAGES = {
  notFound: 'Lotización no encontrada',
  duplicateCode: 'Ya existe una lotización con ese código',
  hasCommittedLots: 'No se puede eliminar la lotización: tiene lotes separados, vendidos o en canje',
} as const;

/** 404 "Lotización no encontrada". */
export const subdivisionNotFound = () => new HttpError(404, SUBDIVISION_MESSAGES.notFound);

/** Lot statuses that block deleting a subdivision (a customer holds or owns the lot). */
const COMMITTED_STATUSES: readonly LotStatus[] = ['SEPARADO', 'VENDIDO', 'CANJE'];
/** Statuses whose area counts as sold (docs/domain.md: VENDIDO + CANJE). */
const SOLD_STATUSES: readonly LotStatus[] = ['VENDIDO', 'CANJE'];

/** Rounds m² or metres to 2 decimals. */
export const round2 = (value: number) => Math.round(value * 100) / 100;

/** Lot figures of one subdivision. */
interface LotStats {
  counts: LotCounts;
  total: number;
  soldArea: number;
}

const emptyCounts = (): LotCounts => Object.fromEntries(LOT_STATUSES.map((s) => [s, 0])) as LotCounts;

/** Lot counts per status, total and sold area of `ids`, in ONE grouped query. */
export async function lotStatsFor(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, LotStats>> {
  const stats = new Map<number, LotStats>(ids.map((id) => [id, { counts: emptyCounts(), total: 0, soldArea: 0 }]));
  if (ids.length === 0) return stats;
  const rows = await lotCountsByStatus(db, ids);
  for (const row of rows) {
    const entry = stats.get(row.subdivision_id);
    if (!entry) continue;
    const n = Number(row.n);
    entry.counts[row.status] = n;
    entry.total += n;
    if (SOLD_STATUSES.includes(row.status)) entry.soldArea += Number(row.area ?? 0);
  }
  for (const entry of stats.values()) entry.soldArea = round2(entry.soldArea);
  return stats;
}

/** Versioned plan image path of a subdivision on `base` (staff: /api, public: /public), or null. */
export function planUrl(base: string, key: string, planUpdatedAt: string | null): string | null {
  return planUpdatedAt ? `${base}/subdivisions/${key}/plan?v=${new Date(planUpdatedAt).getTime()}` : null;
}

function toSubdivision(deps: Pick<ProjectsDeps, 'ids'>, row: SubdivisionRow, stats: LotStats | undefined): Subdivision {
  const key = deps.ids.encode(row.id);
  return {
    id: row.id,
    key,
    code: row.code,
    name: row.name,
    department: row.department,
    province: row.province,
    district: row.district,
    ubigeo: row.ubigeo,
    address: row.address,
    currency: row.currency,
    total_area_m2: Number(row.total_area_m2),
    registry_entry: row.registry_entry,
    licence_number: row.licence_number,
    licence_date: row.licence_date,
    status: row.status,
    published: fromFlag(row.published),
    public_prices: fromFlag(row.public_prices),
    coordinate_system: row.coordinate_system,
    overlap_limit_m2: Number(row.overlap_limit_m2),
    late_fee_grace_days: row.late_fee_grace_days,
    late_fee_kind: row.late_fee_kind,
    late_fee_daily_amount: Number(row.late_fee_daily_amount),
    late_fee_monthly_percent: row.late_fee_monthly_percent,
    late_fee_cap: row.late_fee_cap === null ? null : Number(row.late_fee_cap),
    rescission_overdue_instalments: Number(row.rescission_overdue_instalments),
    rescission_paid_share_limit_pct: row.rescission_paid_share_limit_pct === null ? null : Number(row.rescission_paid_share_limit_pct),
    rescission_penalty_pct: Number(row.rescission_penalty_pct),
    plan_url: planUrl(MAIN_BASE, key, row.plan_updated_at),
    lot_counts: stats?.counts ?? emptyCounts(),
    lots_total: stats?.total ?? 0,
    sold_area_m2: stats?.soldArea ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

/**
 * The id of the subdivision whose opaque key is `key`.
 * @throws HttpError 404 "Lotización no encontrada" when the key does not decode or no row has it.
 */
export async function resolveSubdivisionId(deps: Pick<ProjectsDeps, 'db' | 'ids'>, key: string): Promise<number> {
  const id = deps.ids.decode(key);
  if (id === null) throw subdivisionNotFound();
  if (!(await subdivisionExists(deps.db, id))) throw subdivisionNotFound();
  return id;
}

/** One subdivision with its figures. @throws HttpError 404. */
export async function getSubdivision(deps: ProjectsDeps, id: number): Promise<Subdivision> {
  const row = await findRow(deps.db, id);
  if (!row) throw subdivisionNotFound();
  return toSubdivision(deps, row, (await lotStatsFor(deps.db, [id])).get(id));
}

/** One page of subdivisions (`q` over code, name and district; filters status, currency; one stats query per page). */
export async function listSubdivisions(deps: ProjectsDeps, query: SubdivisionsQuery): Promise<Page<Subdivision>> {
  const page = await subdivisionsPage(deps.db, query);
  const stats = await lotStatsFor(
    deps.db,
    page.data.map((r) => r.id),
  );
  return { data: page.data.map((row) => toSubdivision(deps, row, stats.get(row.id))), meta: page.meta };
}

/** Column values of a create/update body (booleans → flags, blanks → null). */
function columnValues(body: Partial<CreateSubdivisionRequest>) {
  const { published, public_prices, total_area_m2, ...rest } = body;
  return {
    ...rest,
    ...(total_area_m2 === undefined ? {} : { total_area_m2: round2(total_area_m2) }),
    ...(published === undefined ? {} : { published: toFlag(published) }),
    ...(public_prices === undefined ? {} : { public_prices: toFlag(public_prices) }),
  };
}

async function assertCodeFree(db: Kysely<DB>, code: string, exceptId: number | null): Promise<void> {
  if (await subdivisionCodeTaken(db, code, exceptId)) throw fieldError('code', SUBDIVISION_MESSAGES.duplicateCode);
}

/**
 * Creates a subdivision (POST /api/subdivisions; body already parsed by createSubdivisionRequestSchema).
 * @throws HttpError 422 on `code` when another subdivision has it.
 */
export async function createSubdivision(deps: ProjectsDeps, audit: AuditContext, body: CreateSubdivisionRequest): Promise<Subdivision> {
  await assertCodeFree(deps.db, body.code, null);
  const now = deps.clock.now().toISOString();
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      const { id: newId } = await trx
        .insertInto('subdivisions')
        .values({
          currency: 'PEN',
          status: 'EN_PREVENTA',
          ...(columnValues(body) as Required<Pick<CreateSubdivisionRequest, 'code' | 'name' | 'department' | 'province' | 'district'>> & {
            total_area_m2: number;
          }),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordChange(trx, audit, { entity: 'subdivisions', recordId: newId, action: 'CREATE', after: await findRow(trx, newId) });
      return newId;
    });
    return getSubdivision(deps, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('code', SUBDIVISION_MESSAGES.duplicateCode);
    throw error;
  }
}

/**
 * Updates a subdivision (PATCH /api/subdivisions/{key}); with `version`, only that version of it
 * (server/db/versions.ts).
 * @throws HttpError 404; 422 on a duplicate `code`; 409 when it changed since `version`
 *   (STALE_RECORD_MESSAGE, nothing stored).
 */
export async function updateSubdivision(
  deps: ProjectsDeps,
  audit: AuditContext,
  id: number,
  request: UpdateSubdivisionRequest,
): Promise<Subdivision> {
  const { version, ...body } = request;
  if (body.code !== undefined) await assertCodeFree(deps.db, body.code.trim().toUpperCase(), id);
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = await findRow(trx, id);
      if (!before) throw subdivisionNotFound();
      const updated = await trx
        .updateTable('subdivisions')
        .set({
          ...columnValues(body as Partial<CreateSubdivisionRequest>),
          updated_at: deps.clock.now().toISOString(),
          version: nextVersion(),
        })
        .where('id', '=', id)
        .$if(version !== undefined, (q) => q.where('version', '=', version!))
        .executeTakeFirst();
      await assertVersionedUpdate(trx, 'subdivisions', id, updated, subdivisionNotFound);
      await recordChange(trx, audit, { entity: 'subdivisions', recordId: id, action: 'UPDATE', before, after: await findRow(trx, id) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('code', SUBDIVISION_MESSAGES.duplicateCode);
    throw error;
  }
  return getSubdivision(deps, id);
}

/**
 * Deletes a subdivision with its stages, blocks, lots and status history (one transaction; the
 * change history keeps the subdivision's snapshot and how many lots went with it).
 * @throws HttpError 404; 409 when a lot is SEPARADO, VENDIDO or CANJE.
 */
export async function deleteSubdivision(deps: ProjectsDeps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await findRow(trx, id);
    if (!before) throw subdivisionNotFound();
    if (await hasLotIn(trx, id, COMMITTED_STATUSES)) throw conflict(SUBDIVISION_MESSAGES.hasCommittedLots);
    const stats = (await lotStatsFor(trx, [id])).get(id);
    const lotIds = trx.selectFrom('lots').select('id').where('subdivision_id', '=', id);
    await trx.deleteFrom('lot_status_changes').where('lot_id', 'in', lotIds).execute();
    await trx.deleteFrom('lots').where('subdivision_id', '=', id).execute();
    await trx.deleteFrom('blocks').where('subdivision_id', '=', id).execute();
    await trx.deleteFrom('stages').where('subdivision_id', '=', id).execute();
    await trx.deleteFrom('subdivisions').where('id', '=', id).execute();
    await recordChange(trx, audit, {
      entity: 'subdivisions',
      recordId: id,
      action: 'DELETE',
      before: { ...before, lots_deleted: stats?.total ?? 0 },
    });
  });
}

/**
 * Stores the plan image (bytes already limited to PLAN_MAX_BYTES by the route): type sniffed from
 * the bytes, size in pixels read from the header.
 * @throws HttpError 404; 422 on `file` when it is not a readable PNG/JPEG, or its real size passes
 *   PLAN_MAX_SIDE_PX per side or PLAN_MAX_PIXELS in all.
 */
export async function savePlan(deps: ProjectsDeps, audit: AuditContext, id: number, bytes: Buffer): Promise<Subdivision> {
  const info = readPlanImage(bytes);
  if (!info) throw fieldError('file', PLAN_MESSAGES.notImage);
  if (!planSizeAllowed(info)) throw fieldError('file', PLAN_MESSAGES.tooManyPixels(info.width, info.height));
  await deps.db.transaction().execute(async (trx) => {
    const before = await findRow(trx, id);
    if (!before) throw subdivisionNotFound();
    const now = deps.clock.now().toISOString();
    await trx
      .updateTable('subdivisions')
      .set({
        plan_content_type: info.contentType,
        plan_data: bytes,
        plan_width: info.width,
        plan_height: info.height,
        plan_updated_at: now,
        updated_at: now,
        version: nextVersion(),
      })
      .where('id', '=', id)
      .execute();
    await recordChange(trx, audit, { entity: 'subdivisions', recordId: id, action: 'UPDATE', before, after: await findRow(trx, id) });
  });
  return getSubdivision(deps, id);
}

/** Public plan path of a subdivision (the public map's `plan_url`). */
export const publicPlanUrl = (key: string, planUpdatedAt: string | null) => planUrl(PUBLIC_BASE, key, planUpdatedAt);
