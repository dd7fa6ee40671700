import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  bulkPriceRequestSchema,
  computeListPrice,
  isLotTransitionAllowed,
  isSellableLandUse,
  LOT_STATUS_LABEL,
  lotCode,
  priceChangePreviewResponseSchema,
  type Block,
  type ChangeLotStatusRequest,
  type CreateLotRequest,
  type LandUse,
  type Lot,
  type LotStatus,
  type LotStatusChange,
  type PriceChange,
  type Stage,
  type UpdateLotRequest,
} from '../../../src/schemas/proyectos/projects';
import { LIMIT_MESSAGES, LIMITS, listPriceWithinLimit, withinLimit } from '../../../src/schemas/limits';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import type { DB } from '../../db/database';
import type { Page, PageRequest } from '../../db/paging';
import { isUniqueViolation, toFlag } from '../../db/portable';
import { conflict, fieldError, HttpError, validationError } from '../../errors';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { round2, subdivisionNotFound, type ProjectsDeps } from './subdivisions.service';
import { assertHoldUntil, getLotHold, hasPendingHold, insertLotHold, releaseLotHolds } from './lot-holds.service';
import { isHoldStatus, LOT_HOLD_MESSAGES, type LotHold } from '../../../src/schemas/proyectos/lot-holds';
import { todayInLimaBy } from '../../clock';
import {
  blockNameTaken,
  countBlockLots,
  findBlock,
  findBlockId,
  findLot,
  hasLiveReservation,
  findLotForUpdate,
  findStage,
  lastStagePosition,
  lotCodeTaken,
  lotExists,
  lotsForPricing,
  lotSnapshot,
  stageNameTaken,
  statusHistoryPage,
} from './lots.repository';

export { listBlocks, listLots, listStages } from './lots.repository';

/**
 * Proyectos → Lotes: stages (etapas), blocks (manzanas), lots, lot status changes with their
 * history, and bulk price changes (issue "Proyectos"; src/schemas/proyectos/projects.ts; docs/domain.md state
 * chart). Money in integer céntimos of the subdivision's currency, areas in m², lengths in metres.
 * The rules, messages, transactions and writes with their change records; the reads and lookups
 * are in lots.repository.ts.
 */

/** Spanish messages of the lots screen. */
export const LOT_MESSAGES = {
  lotNotFound: 'Lote no encontrado',
  heldByReservation: 'El lote tiene una separación pendiente o vigente: anúlela para liberarlo',
  stageNotFound: 'Etapa no encontrada',
  blockNotFound: 'Manzana no encontrada',
  duplicateLot: (code: string) => `Ya existe el lote ${code}`,
  duplicateStage: 'Ya existe una etapa con ese nombre',
  duplicateBlock: (name: string) => `Ya existe la manzana ${name}`,
  stageOfOtherSubdivision: 'La etapa no pertenece a esta lotización',
  blockHasLots: 'La manzana tiene lotes y no se puede eliminar',
  onlyAvailableDeletable: 'Solo se pueden eliminar lotes disponibles o no vendibles',
  notForSaleNeedsAvailable: (status: string) => `Un lote ${status.toLowerCase()} no puede pasar a un uso que no se vende`,
  reasonRequired: 'Indique el motivo del precio de lista distinto al calculado',
  sameStatus: (label: string) => `El lote ya está en estado ${label}`,
  transition: (from: string, to: string) => `No se puede cambiar el lote de ${from} a ${to}`,
  noLotsSelected: 'Ningún lote coincide con la selección',
  negativePrice: (code: string) => `El nuevo precio por m² de ${code} sería negativo`,
  priceOverLimit: (code: string) => `El nuevo precio de ${code} superaría el máximo permitido (10 000 000 000)`,
} as const;

const lotNotFound = () => new HttpError(404, LOT_MESSAGES.lotNotFound);
const stageNotFound = () => new HttpError(404, LOT_MESSAGES.stageNotFound);
const blockNotFound = () => new HttpError(404, LOT_MESSAGES.blockNotFound);

const now = (deps: Pick<ProjectsDeps, 'clock'>) => deps.clock.now().toISOString();
/** The staff user of an audit context (lot_status_changes.user_id), or null for the system/customers. */

// ---------------------------------------------------------------------------------------------
// Stages
// ---------------------------------------------------------------------------------------------

async function assertStageNameFree(db: Kysely<DB>, subdivisionId: number, name: string, exceptId: number | null) {
  if (await stageNameTaken(db, subdivisionId, name, exceptId)) throw fieldError('name', LOT_MESSAGES.duplicateStage);
}

/** Creates a stage (position default: after the last one). @throws HttpError 422 on a duplicate `name`. */
export async function createStage(
  deps: ProjectsDeps,
  audit: AuditContext,
  subdivisionId: number,
  body: { name: string; position?: number },
): Promise<Stage> {
  await assertStageNameFree(deps.db, subdivisionId, body.name, null);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const last = await lastStagePosition(trx, subdivisionId);
      const position = body.position ?? (last === null ? 0 : last + 1);
      const { id } = await trx
        .insertInto('stages')
        .values({ subdivision_id: subdivisionId, name: body.name, position })
        .returning('id')
        .executeTakeFirstOrThrow();
      const after = await findStage(trx, id);
      await recordChange(trx, audit, { entity: 'stages', recordId: id, action: 'CREATE', after });
      return { id, name: body.name, position, version: after?.version ?? 1 };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('name', LOT_MESSAGES.duplicateStage);
    throw error;
  }
}

/**
 * Renames / moves a stage; with `version`, only that version of it (server/db/versions.ts).
 * @throws HttpError 404; 422 on a duplicate `name`; 409 when it changed since `version`.
 */
export async function updateStage(
  deps: ProjectsDeps,
  audit: AuditContext,
  id: number,
  body: { name: string; position?: number; version?: number },
): Promise<Stage> {
  const current = await findStage(deps.db, id);
  if (!current) throw stageNotFound();
  await assertStageNameFree(deps.db, current.subdivision_id, body.name, id);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('stages')
        .set({ name: body.name, ...(body.position === undefined ? {} : { position: body.position }), version: nextVersion() })
        .where('id', '=', id)
        .$if(body.version !== undefined, (q) => q.where('version', '=', body.version!))
        .executeTakeFirst();
      await assertVersionedUpdate(trx, 'stages', id, updated, stageNotFound);
      const after = (await findStage(trx, id))!;
      await recordChange(trx, audit, { entity: 'stages', recordId: id, action: 'UPDATE', before: current, after });
      return { id, name: after.name, position: after.position, version: after.version };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('name', LOT_MESSAGES.duplicateStage);
    throw error;
  }
}

/** Deletes a stage; its blocks stay, without stage. @throws HttpError 404. */
export async function deleteStage(deps: ProjectsDeps, audit: AuditContext, id: number): Promise<void> {
  const current = await findStage(deps.db, id);
  if (!current) throw stageNotFound();
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('blocks').set({ stage_id: null, version: nextVersion() }).where('stage_id', '=', id).execute();
    await trx.deleteFrom('stages').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'stages', recordId: id, action: 'DELETE', before: current });
  });
}

// ---------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------

async function blockWithCount(db: Kysely<DB>, id: number): Promise<Block> {
  const block = await findBlock(db, id);
  if (!block) throw blockNotFound();
  return { id: block.id, name: block.name, stage_id: block.stage_id, lots_count: await countBlockLots(db, id), version: block.version };
}

async function assertStageOf(db: Kysely<DB>, subdivisionId: number, stageId: number | null | undefined) {
  if (stageId === null || stageId === undefined) return;
  const stage = await findStage(db, stageId);
  if (!stage || stage.subdivision_id !== subdivisionId) throw fieldError('stage_id', LOT_MESSAGES.stageOfOtherSubdivision);
}

async function assertBlockNameFree(db: Kysely<DB>, subdivisionId: number, name: string, exceptId: number | null) {
  if (await blockNameTaken(db, subdivisionId, name, exceptId)) throw fieldError('name', LOT_MESSAGES.duplicateBlock(name));
}

/** Inserts a block and records it (inside the caller's transaction). @returns its id. */
async function insertBlock(
  trx: Kysely<DB>,
  audit: AuditContext,
  subdivisionId: number,
  name: string,
  stageId: number | null,
): Promise<number> {
  const { id } = await trx
    .insertInto('blocks')
    .values({ subdivision_id: subdivisionId, name, stage_id: stageId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordChange(trx, audit, { entity: 'blocks', recordId: id, action: 'CREATE', after: await findBlock(trx, id) });
  return id;
}

/** Creates a block (name already upper-cased by blockNameSchema). @throws HttpError 422 on `name` or `stage_id`. */
export async function createBlock(
  deps: ProjectsDeps,
  audit: AuditContext,
  subdivisionId: number,
  body: { name: string; stage_id?: number | null },
): Promise<Block> {
  await assertBlockNameFree(deps.db, subdivisionId, body.name, null);
  await assertStageOf(deps.db, subdivisionId, body.stage_id);
  try {
    const id = await deps.db.transaction().execute((trx) => insertBlock(trx, audit, subdivisionId, body.name, body.stage_id ?? null));
    return blockWithCount(deps.db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('name', LOT_MESSAGES.duplicateBlock(body.name));
    throw error;
  }
}

/**
 * Renames a block or moves it to another stage; a rename recomputes the codes of its lots (each
 * lot's change recorded too). With `version`, only that version of the block (server/db/versions.ts).
 * @throws HttpError 404; 422 on `name` or `stage_id`; 409 when it changed since `version`.
 */
export async function updateBlock(
  deps: ProjectsDeps,
  audit: AuditContext,
  id: number,
  patch: { name?: string; stage_id?: number | null; version?: number },
): Promise<Block> {
  const current = await findBlock(deps.db, id);
  if (!current) throw blockNotFound();
  const body = { ...patch, name: patch.name ?? current.name };
  await assertBlockNameFree(deps.db, current.subdivision_id, body.name, id);
  await assertStageOf(deps.db, current.subdivision_id, body.stage_id);
  try {
    await deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('blocks')
        .set({ name: body.name, ...(body.stage_id === undefined ? {} : { stage_id: body.stage_id }), version: nextVersion() })
        .where('id', '=', id)
        .$if(patch.version !== undefined, (q) => q.where('version', '=', patch.version!))
        .executeTakeFirst();
      await assertVersionedUpdate(trx, 'blocks', id, updated, blockNotFound);
      await recordChange(trx, audit, {
        entity: 'blocks',
        recordId: id,
        action: 'UPDATE',
        before: current,
        after: await findBlock(trx, id),
      });
      if (body.name !== current.name) {
        const lots = await trx.selectFrom('lots').select(['id', 'number', 'code']).where('block_id', '=', id).orderBy('id').execute();
        const stamp = now(deps);
        for (const lot of lots) {
          const code = lotCode(body.name, lot.number);
          await trx.updateTable('lots').set({ code, updated_at: stamp, version: nextVersion() }).where('id', '=', lot.id).execute();
          await recordChange(trx, audit, {
            entity: 'lots',
            recordId: lot.id,
            action: 'UPDATE',
            before: { code: lot.code },
            after: { code },
          });
        }
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('name', LOT_MESSAGES.duplicateBlock(body.name));
    throw error;
  }
  return blockWithCount(deps.db, id);
}

/** Deletes a block without lots. @throws HttpError 404; 409 when it has lots. */
export async function deleteBlock(deps: ProjectsDeps, audit: AuditContext, id: number): Promise<void> {
  const current = await findBlock(deps.db, id);
  if (!current) throw blockNotFound();
  await deps.db.transaction().execute(async (trx) => {
    const lot = await trx.selectFrom('lots').select('id').where('block_id', '=', id).limit(1).executeTakeFirst();
    if (lot) throw conflict(LOT_MESSAGES.blockHasLots);
    await trx.deleteFrom('blocks').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'blocks', recordId: id, action: 'DELETE', before: current });
  });
}

// ---------------------------------------------------------------------------------------------
// Lots
// ---------------------------------------------------------------------------------------------

/** The id of block `name` of the subdivision, creating it (and recording it) when missing. */
async function blockIdFor(trx: Kysely<DB>, audit: AuditContext, subdivisionId: number, name: string): Promise<number> {
  return (await findBlockId(trx, subdivisionId, name)) ?? insertBlock(trx, audit, subdivisionId, name, null);
}

async function assertLotCodeFree(db: Kysely<DB>, subdivisionId: number, code: string, exceptId: number | null) {
  if (await lotCodeTaken(db, subdivisionId, code, exceptId)) throw fieldError('number', LOT_MESSAGES.duplicateLot(code));
}

/** A lot with its joined names. @throws HttpError 404. */
export async function getLot(db: Kysely<DB>, id: number): Promise<Lot> {
  const lot = await findLot(db, id);
  if (!lot) throw lotNotFound();
  return lot;
}

/** Rounds the optional metres of a body. */
function measures<T extends Partial<Record<'perimeter_m' | 'front_m' | 'back_m' | 'right_m' | 'left_m', number | null | undefined>>>(
  body: T,
): T {
  const out = { ...body };
  for (const key of ['perimeter_m', 'front_m', 'back_m', 'right_m', 'left_m'] as const) {
    const value = out[key];
    if (typeof value === 'number') (out as Record<string, unknown>)[key] = round2(value);
  }
  return out;
}

/** Lot columns from a body (booleans → flags; block handled by the caller). */
function lotColumns(body: Omit<UpdateLotRequest, 'block'>) {
  const { is_corner, facing_park, area_m2, ...rest } = measures(body);
  return {
    ...rest,
    ...(area_m2 === undefined ? {} : { area_m2: round2(area_m2) }),
    ...(is_corner === undefined ? {} : { is_corner: toFlag(is_corner) }),
    ...(facing_park === undefined ? {} : { facing_park: toFlag(facing_park) }),
  };
}

/** The status a new lot of `use` starts in: DISPONIBLE, or NO_VENDIBLE for a use not for sale. */
export function statusForUse(use: LandUse): 'DISPONIBLE' | 'NO_VENDIBLE' {
  return isSellableLandUse(use) ? 'DISPONIBLE' : 'NO_VENDIBLE';
}

/**
 * The status a lot moves to when its use changes (docs/domain.md "Projects and lots"): a use not
 * for sale takes a DISPONIBLE lot to NO_VENDIBLE, a use for sale takes a NO_VENDIBLE lot back to
 * DISPONIBLE; otherwise the status stays (null).
 * @throws HttpError 409 when a lot that is not DISPONIBLE (separado, vendido…) is given a use not for sale.
 */
export function statusAfterUseChange(status: LotStatus, use: LandUse): 'DISPONIBLE' | 'NO_VENDIBLE' | null {
  if (!canTakeUse(status, use)) throw conflict(LOT_MESSAGES.notForSaleNeedsAvailable(LOT_STATUS_LABEL[status]));
  const target = statusForUse(use);
  if (target === 'NO_VENDIBLE') return status === 'NO_VENDIBLE' ? null : 'NO_VENDIBLE';
  return status === 'NO_VENDIBLE' ? 'DISPONIBLE' : null;
}

/** Whether a lot in `status` may take `use`: a use not for sale only on a DISPONIBLE or NO_VENDIBLE lot. */
export function canTakeUse(status: LotStatus, use: LandUse): boolean {
  return isSellableLandUse(use) || status === 'DISPONIBLE' || status === 'NO_VENDIBLE';
}

/** Inserts a lot with its creation history row and change record (inside `trx`). @returns its id. */
export async function insertLot(
  trx: Kysely<DB>,
  audit: AuditContext,
  stamp: string,
  subdivisionId: number,
  body: Omit<CreateLotRequest, 'block' | 'number'> & { block: string; number: string; polygon?: string | null },
): Promise<number> {
  const blockId = await blockIdFor(trx, audit, subdivisionId, body.block);
  const code = lotCode(body.block, body.number);
  const computed = computeListPrice(round2(body.area_m2), body.price_per_m2);
  const listPrice = body.list_price ?? computed;
  const { block: _block, list_price: _lp, list_price_reason: reason, ...rest } = body;
  const landUse = body.land_use ?? 'VIVIENDA';
  const status = statusForUse(landUse);
  const { id } = await trx
    .insertInto('lots')
    .values({
      ...lotColumns(rest),
      area_m2: round2(body.area_m2),
      subdivision_id: subdivisionId,
      block_id: blockId,
      number: body.number,
      code,
      price_per_m2: body.price_per_m2,
      list_price: listPrice,
      list_price_reason: listPrice === computed ? null : (reason ?? null),
      land_use: landUse,
      status,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('lot_status_changes')
    .values({ lot_id: id, from_status: null, to_status: status, reason: null, user_id: staffActorId(audit), changed_at: stamp })
    .execute();
  await recordChange(trx, audit, { entity: 'lots', recordId: id, action: 'CREATE', after: await lotSnapshot(trx, id) });
  return id;
}

/**
 * Creates a lot (POST /api/subdivisions/{key}/lots): block by name (created when missing), code
 * from lotCode(), list price computeListPrice() unless given (with a reason), use VIVIENDA unless
 * given, status DISPONIBLE (NO_VENDIBLE for a use not for sale) with its first history row. @throws HttpError 422 on `number` when the code exists.
 */
export async function createLot(
  deps: ProjectsDeps,
  audit: AuditContext,
  subdivisionId: number,
  body: CreateLotRequest & { polygon?: string | null },
): Promise<Lot> {
  const code = lotCode(body.block, body.number);
  await assertLotCodeFree(deps.db, subdivisionId, code, null);
  try {
    const id = await deps.db.transaction().execute((trx) => insertLot(trx, audit, now(deps), subdivisionId, body));
    return getLot(deps.db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('number', LOT_MESSAGES.duplicateLot(code));
    throw error;
  }
}

/**
 * Updates a lot (PATCH /api/lots/{id}): a new block name moves it (block created when missing);
 * the code is recomputed; the list price is recomputed when area or price per m² change and no
 * `list_price` is sent; a list price differing from the computed one needs a reason (checked on
 * the merged record). @throws HttpError 404; 422 on `number` (duplicate), `list_price_reason`, or
 * `price_per_m2` when area × price per m² passes LIMITS.maxCents; 409 when a lot that is not
 * DISPONIBLE is given a use not for sale (statusAfterUseChange; a use change moves the status with a
 * history row), or when `version` is sent and the
 * lot changed since (STALE_RECORD_MESSAGE, nothing stored; server/db/versions.ts).
 */
export async function updateLot(deps: ProjectsDeps, audit: AuditContext, id: number, body: UpdateLotRequest): Promise<Lot> {
  const current = await findLotForUpdate(deps.db, id);
  if (!current) throw lotNotFound();
  const block = (body.block as string | undefined) ?? current.block;
  const number = (body.number as string | undefined) ?? current.number;
  const code = lotCode(block, number);
  await assertLotCodeFree(deps.db, current.subdivision_id, code, id);

  const area = body.area_m2 === undefined ? Number(current.area_m2) : round2(body.area_m2);
  const pricePerM2 = body.price_per_m2 ?? current.price_per_m2;
  if (!listPriceWithinLimit(area, pricePerM2)) throw fieldError('price_per_m2', LIMIT_MESSAGES.listPriceTooLarge);
  const computed = computeListPrice(area, pricePerM2);
  const pricingChanged = body.area_m2 !== undefined || body.price_per_m2 !== undefined;
  let listPrice: number;
  let reason: string | null;
  if (body.list_price !== undefined && body.list_price !== null) {
    listPrice = body.list_price;
    reason = body.list_price_reason === undefined ? current.list_price_reason : body.list_price_reason;
  } else if (body.list_price === null || pricingChanged) {
    listPrice = computed;
    reason = null;
  } else {
    listPrice = current.list_price;
    reason = body.list_price_reason === undefined ? current.list_price_reason : body.list_price_reason;
  }
  if (listPrice === computed) reason = null;
  else if (!reason) throw fieldError('list_price_reason', LOT_MESSAGES.reasonRequired);

  const { block: _b, number: _n, list_price: _lp, list_price_reason: _r, version, ...rest } = body;
  const newStatus = body.land_use === undefined ? null : statusAfterUseChange(current.status, body.land_use);
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = await lotSnapshot(trx, id);
      const stamp = now(deps);
      const blockId = block === current.block ? undefined : await blockIdFor(trx, audit, current.subdivision_id, block);
      const updated = await trx
        .updateTable('lots')
        .set({
          ...lotColumns(rest),
          ...(blockId === undefined ? {} : { block_id: blockId }),
          number,
          code,
          list_price: listPrice,
          list_price_reason: reason,
          ...(newStatus === null ? {} : { status: newStatus }),
          updated_at: stamp,
          version: nextVersion(),
        })
        .where('id', '=', id)
        .$if(version !== undefined, (q) => q.where('version', '=', version!))
        .$if(newStatus !== null, (q) => q.where('status', '=', current.status))
        .executeTakeFirst();
      await assertVersionedUpdate(trx, 'lots', id, updated, lotNotFound);
      if (newStatus !== null) {
        await trx
          .insertInto('lot_status_changes')
          .values({
            lot_id: id,
            from_status: current.status,
            to_status: newStatus,
            reason: null,
            user_id: staffActorId(audit),
            changed_at: stamp,
          })
          .execute();
      }
      await recordChange(trx, audit, { entity: 'lots', recordId: id, action: 'UPDATE', before, after: await lotSnapshot(trx, id) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('number', LOT_MESSAGES.duplicateLot(code));
    throw error;
  }
  return getLot(deps.db, id);
}

/** Deletes a DISPONIBLE or NO_VENDIBLE (never sold) lot with its history. @throws HttpError 404; 409 for any other status. */
export async function deleteLot(deps: ProjectsDeps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await lotSnapshot(trx, id);
    if (!before) throw lotNotFound();
    if (before.status !== 'DISPONIBLE' && before.status !== 'NO_VENDIBLE') throw conflict(LOT_MESSAGES.onlyAvailableDeletable);
    await trx.deleteFrom('lot_status_changes').where('lot_id', '=', id).execute();
    await trx.deleteFrom('lots').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'lots', recordId: id, action: 'DELETE', before });
  });
}

/**
 * Changes a lot's status (POST /api/lots/{id}/status) following docs/domain.md's state chart, in one
 * transaction with its history row (user = caller) and change record. The reason rule of
 * REASON_REQUIRED_STATUSES is enforced by changeLotStatusRequestSchema (422 on `reason`). A hold
 * (src/schemas/proyectos/lot-holds.ts HOLD_STATUSES) needs `until` within today … 90 days (422 on
 * `until`) and is stored in `lot_holds`: applied at once when `approver` (the caller holds 'Aprobar
 * bloqueos de lotes'), otherwise a PENDIENTE request that leaves the lot as it is (`pending`). Any
 * status change by hand releases the lot's approved holds (docs/domain.md "Lot holds").
 * @throws HttpError 404; 409 when the status is the same, the transition is not allowed, or the lot
 * already has a pending request; 422 on `until`.
 */
export async function changeLotStatus(
  deps: ProjectsDeps,
  audit: AuditContext,
  id: number,
  body: ChangeLotStatusRequest,
  approver = true,
): Promise<{ lot: Lot; hold: LotHold | null; pending: boolean }> {
  const hold = isHoldStatus(body.status);
  if (hold) assertHoldUntil(body.until ?? '', todayInLimaBy(deps.clock));
  let holdId: number | null = null;
  const pending = hold && !approver;
  await deps.db.transaction().execute(async (trx) => {
    const before = await lotSnapshot(trx, id);
    if (!before) throw lotNotFound();
    const from = before.status;
    const to = body.status;
    if (from === to) throw conflict(LOT_MESSAGES.sameStatus(LOT_STATUS_LABEL[to]));
    if (!isLotTransitionAllowed(from, to)) throw conflict(LOT_MESSAGES.transition(LOT_STATUS_LABEL[from], LOT_STATUS_LABEL[to]));
    // A lot held by a live reservation is freed by annulling the reservation (its history and refund), not here.
    if (from === 'SEPARADO' && (await hasLiveReservation(trx, id))) throw conflict(LOT_MESSAGES.heldByReservation);
    const stamp = now(deps);
    const reason = body.reason?.trim() ? body.reason.trim() : null;
    if (pending) {
      if (await hasPendingHold(trx, id)) throw conflict(LOT_HOLD_MESSAGES.alreadyPending);
      holdId = await insertLotHold(trx, audit, { lotId: id, status: to, reason, until: body.until ?? '', approved: false, stamp });
      return;
    }
    await releaseLotHolds(trx, id, stamp);
    if (hold) holdId = await insertLotHold(trx, audit, { lotId: id, status: to, reason, until: body.until ?? '', approved: true, stamp });
    await trx.updateTable('lots').set({ status: to, updated_at: stamp, version: nextVersion() }).where('id', '=', id).execute();
    await trx
      .insertInto('lot_status_changes')
      .values({ lot_id: id, from_status: from, to_status: to, reason, user_id: staffActorId(audit), changed_at: stamp })
      .execute();
    await recordChange(trx, audit, {
      entity: 'lots',
      recordId: id,
      action: 'UPDATE',
      before,
      after: { ...(await lotSnapshot(trx, id)), status_reason: reason },
    });
  });
  return { lot: await getLot(deps.db, id), hold: holdId === null ? null : await getLotHold(deps.db, holdId), pending };
}

/** A lot's status history, newest first, with the staff user's "name surname". @throws HttpError 404. */
export async function listStatusHistory(db: Kysely<DB>, lotId: number, page: PageRequest): Promise<Page<LotStatusChange>> {
  if (!(await lotExists(db, lotId))) throw lotNotFound();
  return statusHistoryPage(db, lotId, page);
}

// ---------------------------------------------------------------------------------------------
// Bulk prices
// ---------------------------------------------------------------------------------------------

type BulkPriceRequest = z.infer<typeof bulkPriceRequestSchema>;
type PricePreview = z.infer<typeof priceChangePreviewResponseSchema>['data'];

/** The new price per m² (céntimos) of a lot under `change`; may be negative (the caller rejects it). */
export function newPricePerM2(old: number, change: PriceChange): number {
  switch (change.kind) {
    case 'SET_PRICE_PER_M2':
      return change.price_per_m2;
    case 'PERCENT':
      return Math.round(old * (1 + change.percent / 100));
    case 'AMOUNT_PER_M2':
      return old + change.amount_per_m2;
  }
}

/**
 * Every selected lot with its new prices, ordered by code.
 * @throws HttpError 422 when none, or a price would be negative or past LIMITS.maxCents (per m² or list).
 */
async function pricedSelection(db: Kysely<DB>, subdivisionId: number, request: BulkPriceRequest) {
  const lots = await lotsForPricing(db, subdivisionId, request.selection);
  if (lots.length === 0) throw validationError({ selection: [LOT_MESSAGES.noLotsSelected] }, LOT_MESSAGES.noLotsSelected);
  return lots.map((lot) => {
    const price = newPricePerM2(lot.price_per_m2, request.change);
    if (price < 0) throw fieldError('change', LOT_MESSAGES.negativePrice(lot.code));
    const area = Number(lot.area_m2);
    // Shared limits (issue 11 items 2–3): nine +500 % changes in a row once passed 2^53.
    if (!withinLimit(price, LIMITS.maxCents) || !listPriceWithinLimit(area, price))
      throw fieldError('change', LOT_MESSAGES.priceOverLimit(lot.code));
    return {
      id: lot.id,
      code: lot.code,
      status: lot.status,
      area_m2: area,
      old_price_per_m2: lot.price_per_m2,
      new_price_per_m2: price,
      old_list_price: lot.list_price,
      new_list_price: computeListPrice(area, price),
    };
  });
}

/** Previews a bulk price change: totals over every selected lot, the first 100 rows by code. Nothing stored. */
export async function previewPriceChange(db: Kysely<DB>, subdivisionId: number, request: BulkPriceRequest): Promise<PricePreview> {
  const subdivision = await db.selectFrom('subdivisions').select('currency').where('id', '=', subdivisionId).executeTakeFirst();
  if (!subdivision) throw subdivisionNotFound();
  const rows = await pricedSelection(db, subdivisionId, request);
  return {
    count: rows.length,
    currency: subdivision.currency,
    total_before: rows.reduce((sum, r) => sum + r.old_list_price, 0),
    total_after: rows.reduce((sum, r) => sum + r.new_list_price, 0),
    rows: rows.slice(0, 100),
  };
}

/**
 * Applies a bulk price change in one transaction: every selected lot gets its new price per m²,
 * the recomputed list price and no list-price reason; each lot's change is recorded with the
 * request's reason as `price_change_reason`. @throws HttpError 422 as {@link previewPriceChange}.
 */
export async function applyPriceChange(
  deps: ProjectsDeps,
  audit: AuditContext,
  subdivisionId: number,
  request: BulkPriceRequest,
): Promise<{ updated: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const rows = await pricedSelection(trx, subdivisionId, request);
    const stamp = now(deps);
    for (const row of rows) {
      const before = await lotSnapshot(trx, row.id);
      await trx
        .updateTable('lots')
        .set({
          price_per_m2: row.new_price_per_m2,
          list_price: row.new_list_price,
          list_price_reason: null,
          updated_at: stamp,
          version: nextVersion(),
        })
        .where('id', '=', row.id)
        .execute();
      await recordChange(trx, audit, {
        entity: 'lots',
        recordId: row.id,
        action: 'UPDATE',
        before,
        after: { ...(await lotSnapshot(trx, row.id)), price_change_reason: request.reason },
      });
    }
    return { updated: rows.length };
  });
}
