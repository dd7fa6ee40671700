import type { Kysely } from 'kysely';
import { synonymLandUse } from '../../../src/lib/proyectos/land-use-words';
import type { ImportIssue, LandUse } from '../../../src/schemas/proyectos/projects';
import { recordChanges, type AuditContext, type ChangeInput } from '../../audit/audit';
import type { DB } from '../../db/database';
import { MAX_ISSUES_PER_KIND } from './lot-import';
import type { FileUseValue, LandUseChoices } from './lot-import/land-uses';
import { issue } from './lot-import/types';
import { rememberedLandUses } from './lot-imports.repository';

/**
 * The land-use values of an imported file (docs/import.md "Land use"): what the subdivision
 * remembers of earlier imports, the refusal of a commit with values that have no use, and what a
 * commit remembers. The values themselves are read and listed by ./lot-import/land-uses.ts.
 */

/** "3 lotes" / "1 lote". */
const lotsText = (n: number) => (n === 1 ? '1 lote' : `${n.toLocaleString('es-PE')} lotes`);

/** Spanish messages of the land-use values. */
export const USE_VALUE_MESSAGES = {
  unmapped: (value: FileUseValue) => `Elija el uso de "${value.label}" (${lotsText(value.lots)}): no es un uso conocido`,
  more: (n: number) => `y ${n.toLocaleString('es-PE')} ${n === 1 ? 'valor' : 'valores'} más sin uso`,
  /** The 422's message when the only errors are values without a use: names the first three. */
  rejected: (values: readonly FileUseValue[]) => {
    const named = values.slice(0, 3).map((v) => `"${v.label}" (${lotsText(v.lots)})`);
    const rest = values.length - named.length;
    const list = rest > 0 ? `${named.join(', ')} y ${rest} más` : named.join(named.length === 2 ? ' y ' : ', ');
    return `Falta elegir el uso de ${list}; no se importó ningún lote`;
  },
} as const;

/** The choices a file is checked with: the request's and the subdivision's remembered ones, by key. */
export async function landUseChoicesFor(
  db: Kysely<DB>,
  subdivisionId: number,
  chosen: Readonly<Record<string, LandUse>>,
): Promise<Required<LandUseChoices>> {
  const rows = await rememberedLandUses(db, subdivisionId);
  return { chosen, remembered: Object.fromEntries(rows.map((r) => [r.label, r.land_use])) };
}

/**
 * One ERROR (kind USE, field `land_uses`) per value without a use, at most
 * {@link MAX_ISSUES_PER_KIND}, then one "y N valores más sin uso".
 */
export function unmappedIssues(values: readonly FileUseValue[]): ImportIssue[] {
  const unmapped = values.filter((v) => v.use === null);
  const issues = unmapped
    .slice(0, MAX_ISSUES_PER_KIND)
    .map((v) => issue('ERROR', 'archivo', USE_VALUE_MESSAGES.unmapped(v), { field: 'land_uses', kind: 'USE' }));
  const more = unmapped.length - MAX_ISSUES_PER_KIND;
  if (more > 0) issues.push(issue('ERROR', 'archivo', USE_VALUE_MESSAGES.more(more), { field: 'land_uses', kind: 'USE', more }));
  return issues;
}

/**
 * Remembers, for the subdivision, the uses the user chose for values of the stored file (source
 * CHOSEN): a new value is inserted, a changed one updated, and one chosen back to what the
 * synonyms say is forgotten (deleted); each with a change-history row (entity
 * `lot_import_land_uses`). Values the file does not have are kept. Runs in the import's transaction.
 * @returns how many rows were written.
 */
export async function rememberChosenUses(
  trx: Kysely<DB>,
  audit: AuditContext,
  subdivisionId: number,
  values: readonly FileUseValue[],
): Promise<number> {
  const chosen = values.filter((v) => v.source === 'CHOSEN' && v.use !== null);
  if (chosen.length === 0) return 0;
  const now = audit.clock.now().toISOString();
  const stored = new Map((await rememberedLandUses(trx, subdivisionId)).map((r) => [r.label, r]));
  const changes: ChangeInput[] = [];
  for (const value of chosen) {
    const use = value.use!;
    const row = stored.get(value.key);
    const snapshot = { subdivision_id: subdivisionId, label: value.key, land_use: use };
    if (synonymLandUse(value.key) === use) {
      if (!row) continue;
      await trx.deleteFrom('lot_import_land_uses').where('id', '=', row.id).execute();
      changes.push({ entity: 'lot_import_land_uses', recordId: row.id, action: 'DELETE', before: { ...snapshot, land_use: row.land_use } });
    } else if (!row) {
      const { id } = await trx
        .insertInto('lot_import_land_uses')
        .values({ ...snapshot, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      changes.push({ entity: 'lot_import_land_uses', recordId: id, action: 'CREATE', after: { id, ...snapshot } });
    } else if (row.land_use !== use) {
      await trx.updateTable('lot_import_land_uses').set({ land_use: use, updated_at: now }).where('id', '=', row.id).execute();
      changes.push({
        entity: 'lot_import_land_uses',
        recordId: row.id,
        action: 'UPDATE',
        before: { land_use: row.land_use },
        after: { land_use: use },
      });
    }
  }
  await recordChanges(trx, audit, changes);
  return changes.length;
}
