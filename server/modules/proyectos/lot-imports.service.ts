import type { Insertable, Kysely } from 'kysely';
import {
  computeListPrice,
  isSellableLandUse,
  LAND_USE_LABEL,
  LAND_USES,
  LOT_STATUS_LABEL,
  type ImportIssue,
  type ImportLotRow,
  type ImportPreview,
  type ImportStage,
  type ImportUse,
  type LandUse,
  type LotStatus,
} from '../../../src/schemas/proyectos/projects';
import { recordChange, recordChanges, type AuditContext, type ChangeInput } from '../../audit/audit';
import type { DB, LotsTable } from '../../db/database';
import { canTakeUse, statusAfterUseChange, statusForUse } from './lots.service';
import { HttpError } from '../../errors';
import { nextVersion } from '../../db/versions';
import type { LandUseChoices, ParsedLot, ParseResult } from './lot-import';
import { fileUseValues } from './lot-import/land-uses';
import { issue } from './lot-import/types';
import { rememberChosenUses, unmappedIssues, USE_VALUE_MESSAGES } from './lot-import-uses.service';
import { blocksOf, findImportTarget, hasDrawnLot, lotIdsByCode, lotsByCode, lotStatesByCode, stagesOf } from './lot-imports.repository';

/**
 * Lot import against a subdivision (issue "Proyectos" → Import; docs/import.md): the preview
 * (nothing stored) and the all-or-nothing commit. Lots match by code: an existing code is
 * UPDATEd, a new one CREATEd (its block created when missing, status DISPONIBLE — NO_VENDIBLE for
 * a land use not for sale —, a creation row in
 * the status history, audit rows for 'lots' and 'blocks'). The reads are in
 * lot-imports.repository.ts; this file keeps the rules, the messages, the transaction and the writes.
 */

/** Spanish messages of the import routes. */
export const IMPORT_MESSAGES = {
  subdivisionNotFound: 'Lotización no encontrada',
  rejected: (errors: number) => `El archivo tiene ${errors} ${errors === 1 ? 'error' : 'errores'}; no se importó ningún lote`,
  creationReason: 'Creado por importación de archivo',
  useReason: 'Cambio de uso por importación de archivo',
} as const;

/** What the import needs of a subdivision. */
export interface ImportSubdivision {
  id: number;
  coordinate_system: 'PLAN' | 'GEO';
  /** Area two lots of the file may share before it is an error, m² (issue 13 item 2). */
  overlap_limit_m2: number;
}

/** The subdivision with `id`. @throws HttpError 404 "Lotización no encontrada". */
export async function findImportSubdivision(db: Kysely<DB>, id: number | null): Promise<ImportSubdivision> {
  const row = id === null ? undefined : await findImportTarget(db, id);
  if (!row) throw new HttpError(404, IMPORT_MESSAGES.subdivisionNotFound);
  return { ...row, overlap_limit_m2: Number(row.overlap_limit_m2) };
}

/** Issues that depend on the subdivision: coordinate system mismatch, new lots without price. */
async function subdivisionIssues(
  db: Kysely<DB>,
  subdivision: ImportSubdivision,
  parsed: ParseResult,
  existing: ReadonlyMap<string, { status: LotStatus; land_use: LandUse }>,
): Promise<ImportIssue[]> {
  const issues: ImportIssue[] = [];
  if (parsed.coordinateSystem && parsed.coordinateSystem !== subdivision.coordinate_system) {
    if (await hasDrawnLot(db, subdivision.id)) {
      const name = (s: string) => (s === 'GEO' ? 'geográficas (longitud/latitud)' : 'de plano (metros)');
      issues.push(
        issue(
          'ERROR',
          'archivo',
          `El archivo usa coordenadas ${name(parsed.coordinateSystem)} pero los lotes de la lotización tienen coordenadas ${name(subdivision.coordinate_system)}`,
          {
            field: 'file',
            kind: 'COORDINATES',
          },
        ),
      );
    }
  }
  // Lots not for sale need no price, nor do lots whose value has no use yet (the user chooses it).
  const unpriced = parsed.lots.filter(
    (l) =>
      l.price_per_m2 === null &&
      !existing.has(l.code) &&
      !(l.land_use === null && l.land_use_label !== null) &&
      isSellableLandUse(l.land_use ?? 'VIVIENDA'),
  ).length;
  if (unpriced > 0) {
    issues.push(
      issue(
        'WARNING',
        'archivo',
        `${unpriced} ${unpriced === 1 ? 'lote nuevo no tiene' : 'lotes nuevos no tienen'} precio: se crearán con precio 0 por m²; fíjelo luego con el cambio masivo de precios`,
        {
          field: 'price_per_m2',
          kind: 'PRICE',
        },
      ),
    );
  }
  for (const lot of parsed.lots) {
    const current = existing.get(lot.code);
    if (!current || lot.land_use === null || canTakeUse(current.status, lot.land_use)) continue;
    issues.push(
      issue(
        'ERROR',
        lot.location,
        `El lote ${lot.code} está ${LOT_STATUS_LABEL[current.status].toLowerCase()} y no puede pasar al uso ${LAND_USE_LABEL[lot.land_use]}, que no se vende`,
        { lot_code: lot.code, field: 'land_use', kind: 'USE' },
      ),
    );
  }
  return issues;
}

/** Lots per land use the file gives, in LAND_USES order (uses with no lot left out; issue 13 item 4). */
function fileUses(parsed: ParseResult): ImportUse[] {
  const counts = new Map<LandUse, number>();
  for (const lot of parsed.lots) if (lot.land_use) counts.set(lot.land_use, (counts.get(lot.land_use) ?? 0) + 1);
  return LAND_USES.filter((use) => counts.has(use)).map((use) => ({ use, lots: counts.get(use)! }));
}

/**
 * The stages the file names, in order of first appearance, with their lot counts and whether the
 * subdivision has them already (names compared case-insensitively).
 */
async function fileStages(db: Kysely<DB>, subdivisionId: number, parsed: ParseResult): Promise<ImportStage[]> {
  const counts = new Map<string, number>();
  for (const lot of parsed.lots) if (lot.stage) counts.set(lot.stage, (counts.get(lot.stage) ?? 0) + 1);
  if (counts.size === 0) return [];
  const existing = new Set((await stagesOf(db, subdivisionId)).map((s) => s.name.toLowerCase()));
  return [...counts].map(([name, lots]) => ({ name, lots, action: existing.has(name.toLowerCase()) ? 'EXISTING' : 'CREATE' }));
}

/**
 * A block belongs to one stage (docs/domain.md "Projects and lots"): when the file puts lots of one
 * block in several stages, the block takes the stage with most of its lots and a WARNING says so.
 * @returns the stage of each block that has one, and the warnings
 */
function blockStages(parsed: ParseResult): { stageOf: Map<string, string>; issues: ImportIssue[] } {
  const byBlock = new Map<string, Map<string, number>>();
  for (const lot of parsed.lots) {
    if (!lot.stage) continue;
    const counts = byBlock.get(lot.block) ?? new Map<string, number>();
    counts.set(lot.stage, (counts.get(lot.stage) ?? 0) + 1);
    byBlock.set(lot.block, counts);
  }
  const stageOf = new Map<string, string>();
  const issues: ImportIssue[] = [];
  for (const [block, counts] of byBlock) {
    const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    stageOf.set(block, ranked[0]![0]);
    if (ranked.length > 1) {
      issues.push(
        issue(
          'WARNING',
          `manzana ${block}`,
          `La manzana ${block} tiene lotes en ${ranked.map(([name]) => name).join(', ')}; se asignará a ${ranked[0]![0]}, la de más lotes`,
          {
            field: 'stage',
            kind: 'STAGE',
          },
        ),
      );
    }
  }
  return { stageOf, issues };
}

/**
 * The preview: every parsed lot with its action, every issue (errors first), the counts.
 * Nothing is stored.
 */
export async function previewImport(db: Kysely<DB>, subdivision: ImportSubdivision, parsed: ParseResult): Promise<ImportPreview> {
  const existing = await lotStatesByCode(db, subdivision.id);
  const issues = [...parsed.issues, ...(await subdivisionIssues(db, subdivision, parsed, existing)), ...blockStages(parsed).issues];
  issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'ERROR' ? -1 : 1));
  const lots: ImportLotRow[] = parsed.lots.map((lot) => ({
    block: lot.block,
    number: lot.number,
    code: lot.code,
    area_m2: lot.area_m2 ?? 0,
    drawn_area_m2: lot.drawn_area_m2,
    perimeter_m: lot.perimeter_m,
    price_per_m2: lot.price_per_m2,
    has_polygon: lot.polygon !== null,
    action: existing.has(lot.code) ? 'UPDATE' : 'CREATE',
    stage: lot.stage,
    land_use: lot.land_use,
    polygon: lot.polygon,
  }));
  const errors = issues.filter((i) => i.severity === 'ERROR').length;
  return {
    format: parsed.format,
    layers: parsed.layers,
    layer: parsed.layer,
    lots,
    issues,
    summary: {
      create: lots.filter((l) => l.action === 'CREATE').length,
      update: lots.filter((l) => l.action === 'UPDATE').length,
      errors,
      warnings: issues.length - errors,
    },
    can_import: errors === 0 && lots.length > 0,
    stages: await fileStages(db, subdivision.id, parsed),
    uses: fileUses(parsed),
    duplicates: parsed.duplicates ?? [],
    coordinate_system: parsed.coordinateSystem,
    use_values: parsed.useValues ?? [],
    use_values_more: parsed.useValuesMore ?? 0,
    use_values_unmapped: parsed.useValuesUnmapped ?? 0,
  };
}

/**
 * The import was refused: the 422 body carries every issue. `errors.file` lists the first 50 errors
 * ("location: message"), but those about values without a land use go to `errors.land_uses`.
 * @param message the 422's message (default: how many errors the file has).
 */
export class ImportRejectedError extends HttpError {
  constructor(
    readonly issues: ImportIssue[],
    message?: string,
  ) {
    const errors = issues.filter((i) => i.severity === 'ERROR').slice(0, 50);
    const uses = errors.filter((i) => i.field === 'land_uses').map((i) => i.message);
    super(422, message ?? IMPORT_MESSAGES.rejected(issues.filter((i) => i.severity === 'ERROR').length), {
      file: errors.filter((i) => i.field !== 'land_uses').map((i) => `${i.location}: ${i.message}`),
      ...(uses.length ? { land_uses: uses } : {}),
    });
  }

  /** `{ message, errors: { file }, issues }`. */
  override toBody() {
    return { ...super.toBody(), issues: this.issues };
  }
}

/** Columns an import may set on an existing lot when the file gives them. */
const UPDATABLE = [
  'area_m2',
  'perimeter_m',
  'front_m',
  'front_neighbour',
  'back_m',
  'back_neighbour',
  'right_m',
  'right_neighbour',
  'left_m',
  'left_neighbour',
  'price_per_m2',
] as const;

const flag = (value: boolean | null, fallback: 0 | 1): 0 | 1 => (value === null ? fallback : value ? 1 : 0);

/** Rows inserted per statement (keeps SQLite and PostgreSQL under their parameter limits). */
const CHUNK = 250;

/** Who imports: the staff user id for the status history (null for the system, e.g. the seed). */
function actorUserId(audit: AuditContext): number | null {
  return audit.actor?.userType === 'COLLABORATOR' ? audit.actor.accountId : null;
}

/**
 * Stores a checked file in ONE transaction (all or nothing): the stages the file names created
 * when missing and its blocks put in them (a block in several stages takes the one with most of
 * its lots), blocks created when missing, lots
 * matched by code UPDATEd (area, perimeter, boundaries, price when given, flags, polygon; the list
 * price recomputed and its reason cleared when area or price change; a new land use, moving the
 * status between DISPONIBLE and NO_VENDIBLE with a history row) or CREATEd (price 0 when the
 * file has none, use VIVIENDA when none given, status DISPONIBLE or NO_VENDIBLE by the use, a
 * creation row in the status history). The subdivision's
 * `coordinate_system` follows the file's when none of its lots has a polygon yet. The uses the
 * user chose for the file's land-use values are remembered for the subdivision
 * (lot-import-uses.service.ts). Audit rows: 'subdivisions', 'blocks', 'lots', 'lot_import_land_uses'.
 * @param landUses the uses the file was checked with (the request's and the remembered ones).
 * @throws ImportRejectedError (422) when the file or the comparison has any ERROR, or a land-use
 *   value of the file has no use (its message names them).
 */
export async function commitImport(
  db: Kysely<DB>,
  audit: AuditContext,
  subdivision: ImportSubdivision,
  parsed: ParseResult,
  landUses: LandUseChoices = {},
): Promise<{ created: number; updated: number }> {
  const preview = await previewImport(db, subdivision, parsed);
  const useValues = fileUseValues(parsed.lots, landUses);
  const unmapped = unmappedIssues(useValues);
  if (!preview.can_import || unmapped.length > 0) {
    const issues = [...unmapped, ...preview.issues];
    if (issues.length === 0) issues.push(issue('ERROR', 'archivo', 'El archivo no tiene lotes', { field: 'file' }));
    const onlyUses = unmapped.length > 0 && preview.summary.errors === 0;
    throw new ImportRejectedError(issues, onlyUses ? USE_VALUE_MESSAGES.rejected(useValues.filter((v) => v.use === null)) : undefined);
  }
  const run = async (trx: Kysely<DB>) => {
    const now = audit.clock.now().toISOString();
    const subdivisionId = subdivision.id;
    const current = (await findImportTarget(trx, subdivisionId))!;
    if (parsed.coordinateSystem && parsed.coordinateSystem !== current.coordinate_system) {
      // previewImport refused a mismatch with drawn lots, so none of the lots has a polygon yet.
      await trx
        .updateTable('subdivisions')
        .set({ coordinate_system: parsed.coordinateSystem, updated_at: now, version: nextVersion() })
        .where('id', '=', subdivisionId)
        .execute();
      await recordChange(trx, audit, {
        entity: 'subdivisions',
        recordId: subdivisionId,
        action: 'UPDATE',
        before: { coordinate_system: current.coordinate_system },
        after: { coordinate_system: parsed.coordinateSystem },
      });
    }

    // Stages the file names that the subdivision lacks (issue 13 item 3), after its existing ones.
    const stageRows = await stagesOf(trx, subdivisionId);
    const stageIds = new Map(stageRows.map((s) => [s.name.toLowerCase(), s.id]));
    let position = stageRows.reduce((max, s) => Math.max(max, s.position), 0);
    for (const stage of preview.stages ?? []) {
      if (stageIds.has(stage.name.toLowerCase())) continue;
      position += 1;
      const { id } = await trx
        .insertInto('stages')
        .values({ subdivision_id: subdivisionId, name: stage.name, position })
        .returning('id')
        .executeTakeFirstOrThrow();
      stageIds.set(stage.name.toLowerCase(), id);
      await recordChange(trx, audit, {
        entity: 'stages',
        recordId: id,
        action: 'CREATE',
        after: { id, subdivision_id: subdivisionId, name: stage.name, position },
      });
    }
    const { stageOf } = blockStages(parsed);
    const stageIdOf = (block: string): number | null => {
      const name = stageOf.get(block);
      return name ? (stageIds.get(name.toLowerCase()) ?? null) : null;
    };

    // Blocks: created when missing; an existing block takes the stage the file gives it.
    const blockRows = await blocksOf(trx, subdivisionId);
    const blocks = new Map(blockRows.map((b) => [b.name, b.id]));
    for (const row of blockRows) {
      const stageId = stageIdOf(row.name);
      if (stageId === null || stageId === row.stage_id) continue;
      await trx.updateTable('blocks').set({ stage_id: stageId, version: nextVersion() }).where('id', '=', row.id).execute();
      await recordChange(trx, audit, {
        entity: 'blocks',
        recordId: row.id,
        action: 'UPDATE',
        before: { stage_id: row.stage_id },
        after: { stage_id: stageId },
      });
    }
    for (const name of [...new Set(parsed.lots.map((l) => l.block))].sort()) {
      if (blocks.has(name)) continue;
      const stageId = stageIdOf(name);
      const { id } = await trx
        .insertInto('blocks')
        .values({ subdivision_id: subdivisionId, stage_id: stageId, name })
        .returning('id')
        .executeTakeFirstOrThrow();
      blocks.set(name, id);
      await recordChange(trx, audit, {
        entity: 'blocks',
        recordId: id,
        action: 'CREATE',
        after: { id, subdivision_id: subdivisionId, stage_id: stageId, name },
      });
    }

    // Updates.
    const existing = await lotsByCode(trx, subdivisionId);
    const creates: ParsedLot[] = [];
    let updated = 0;
    const changes: ChangeInput[] = [];
    const userId = actorUserId(audit);
    const statusChanges: Array<{ lot_id: number; from_status: LotStatus; to_status: LotStatus }> = [];
    for (const lot of parsed.lots) {
      const row = existing.get(lot.code);
      if (!row) {
        creates.push(lot);
        continue;
      }
      const patch: Record<string, unknown> = {};
      for (const column of UPDATABLE) {
        const value = lot[column];
        if (value !== null && value !== row[column]) patch[column] = value;
      }
      if (lot.is_corner !== null && flag(lot.is_corner, 0) !== row.is_corner) patch.is_corner = flag(lot.is_corner, 0);
      if (lot.facing_park !== null && flag(lot.facing_park, 0) !== row.facing_park) patch.facing_park = flag(lot.facing_park, 0);
      if (lot.land_use !== null && lot.land_use !== row.land_use) {
        patch.land_use = lot.land_use;
        // previewImport refused a use not for sale on a lot that is not DISPONIBLE.
        const status = statusAfterUseChange(row.status, lot.land_use);
        if (status !== null) {
          patch.status = status;
          statusChanges.push({ lot_id: row.id, from_status: row.status, to_status: status });
        }
      }
      if (lot.polygon) {
        const polygon = JSON.stringify(lot.polygon);
        if (polygon !== row.polygon) patch.polygon = polygon;
      }
      if ('area_m2' in patch || 'price_per_m2' in patch) {
        const listPrice = computeListPrice(
          (patch.area_m2 as number | undefined) ?? row.area_m2,
          (patch.price_per_m2 as number | undefined) ?? row.price_per_m2,
        );
        if (listPrice !== row.list_price || row.list_price_reason !== null) {
          patch.list_price = listPrice;
          patch.list_price_reason = null;
        }
      }
      if (Object.keys(patch).length === 0) continue;
      patch.updated_at = now;
      await trx
        .updateTable('lots')
        .set({ ...patch, version: nextVersion() })
        .where('id', '=', row.id)
        .execute();
      const before = Object.fromEntries(Object.keys(patch).map((k) => [k, row[k as keyof typeof row]]));
      changes.push({ entity: 'lots', recordId: row.id, action: 'UPDATE', before, after: patch });
      updated += 1;
    }

    // Creates, in chunks.
    const values: Array<Insertable<LotsTable>> = creates.map((lot) => {
      const price = lot.price_per_m2 ?? 0;
      const area = lot.area_m2!;
      return {
        subdivision_id: subdivisionId,
        block_id: blocks.get(lot.block)!,
        number: lot.number,
        code: lot.code,
        area_m2: area,
        perimeter_m: lot.perimeter_m,
        front_m: lot.front_m,
        front_neighbour: lot.front_neighbour,
        back_m: lot.back_m,
        back_neighbour: lot.back_neighbour,
        right_m: lot.right_m,
        right_neighbour: lot.right_neighbour,
        left_m: lot.left_m,
        left_neighbour: lot.left_neighbour,
        price_per_m2: price,
        list_price: computeListPrice(area, price),
        list_price_reason: null,
        is_corner: flag(lot.is_corner, 0),
        facing_park: flag(lot.facing_park, 0),
        land_use: lot.land_use ?? 'VIVIENDA',
        status: statusForUse(lot.land_use ?? 'VIVIENDA'),
        polygon: lot.polygon ? JSON.stringify(lot.polygon) : null,
        registry_entry: null,
        notes: null,
        created_at: now,
        updated_at: now,
      };
    });
    for (let i = 0; i < values.length; i += CHUNK)
      await trx
        .insertInto('lots')
        .values(values.slice(i, i + CHUNK))
        .execute();
    if (values.length > 0) {
      const idOf = await lotIdsByCode(trx, subdivisionId, new Set(creates.map((l) => l.code)));
      const history = values.map((v) => ({
        lot_id: idOf.get(v.code)!,
        from_status: null,
        to_status: v.status!,
        reason: IMPORT_MESSAGES.creationReason,
        user_id: userId,
        changed_at: now,
      }));
      for (let i = 0; i < history.length; i += CHUNK)
        await trx
          .insertInto('lot_status_changes')
          .values(history.slice(i, i + CHUNK))
          .execute();
      for (const v of values) {
        const id = idOf.get(v.code)!;
        changes.push({ entity: 'lots', recordId: id, action: 'CREATE', after: { id, ...v } });
      }
    }
    const useHistory = statusChanges.map((c) => ({ ...c, reason: IMPORT_MESSAGES.useReason, user_id: userId, changed_at: now }));
    for (let i = 0; i < useHistory.length; i += CHUNK)
      await trx
        .insertInto('lot_status_changes')
        .values(useHistory.slice(i, i + CHUNK))
        .execute();
    await recordChanges(trx, audit, changes);
    await rememberChosenUses(trx, audit, subdivisionId, useValues);
    return { created: values.length, updated };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
