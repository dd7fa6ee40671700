import { sql, type Kysely } from 'kysely';
import type { LocalRecord, LocalsQuery } from '../../../src/schemas/configuracion/company';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { fromFlag, toFlag } from '../../db/portable';
import { conflict, notFound } from '../../errors';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { findMainCompanyId } from './companies.repository';
import { insertLocal } from './locals.repository';

/** Configuración → Empresas → Locales (the active ones feed docs/product.md §7 row 9). */

/** Spanish messages of the locals screen. */
export const LOCAL_MESSAGES = {
  alreadyActive: 'El local ya está activo',
  alreadyInactive: 'El local ya está inactivo',
  noCompany: 'Registre primero los datos de la empresa',
} as const;

/** A local's row → wire (and change-history snapshot). */
async function findLocal(db: Kysely<DB>, id: number): Promise<LocalRecord | undefined> {
  const row = await db.selectFrom('locals').select(['id', 'name', 'address', 'active', 'version']).where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, name: row.name, address: row.address, active: fromFlag(row.active), version: row.version } : undefined;
}

/** One page of locals (`q` on name and address, `active` filter). */
export async function listLocalsPage(db: Kysely<DB>, query: LocalsQuery): Promise<Page<LocalRecord>> {
  let base = db.selectFrom('locals');
  if (query.q) {
    const pattern = searchPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb(searchTextOf(db, 'locals.name'), 'like', sql<string>`${pattern} escape '\\'`),
        eb(searchTextOf(db, 'locals.address'), 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (query.active) base = base.where('locals.active', '=', toFlag(query.active === 'true'));
  const { field, direction } = parseSort<'name' | 'id'>(query.sort, 'id');
  const page = await paginate(base, query, (q) =>
    q
      .select(['locals.id', 'locals.name', 'locals.address', 'locals.active', 'locals.version'])
      .orderBy(`locals.${field}`, direction)
      .orderBy('locals.id', direction),
  );
  return { data: page.data.map((r) => ({ ...r, active: fromFlag(r.active) })), meta: page.meta };
}

/** One local. @throws HttpError 404. */
export async function getLocal(db: Kysely<DB>, id: number): Promise<LocalRecord> {
  const local = await findLocal(db, id);
  if (!local) throw notFound();
  return local;
}

/** Creates an active local of the company (POST /api/locals). @throws HttpError 409 when there is no company yet. */
export async function createLocalRecord(deps: AppDeps, audit: AuditContext, body: { name: string; address: string }): Promise<LocalRecord> {
  const companyId = await findMainCompanyId(deps.db);
  if (companyId === undefined) throw conflict(LOCAL_MESSAGES.noCompany);
  const id = await deps.db.transaction().execute(async (trx) => {
    const localId = await insertLocal(trx, { companyId, name: body.name, address: body.address, active: true });
    await recordChange(trx, audit, { entity: 'locals', recordId: localId, action: 'CREATE', after: await findLocal(trx, localId) });
    return localId;
  });
  return getLocal(deps.db, id);
}

/**
 * Updates name/address or the active flag of a local, raising its version; with `version`, only
 * that version of it (server/db/versions.ts).
 * @throws HttpError 404; 409 when `active` already has that value, or when the local changed since
 *   `version` (STALE_RECORD_MESSAGE, nothing stored).
 */
export async function updateLocalRecord(
  deps: AppDeps,
  audit: AuditContext,
  id: number,
  body: { name?: string; address?: string; active?: boolean; version?: number },
): Promise<LocalRecord> {
  const current = await getLocal(deps.db, id);
  if (body.active !== undefined && body.active === current.active)
    throw conflict(body.active ? LOCAL_MESSAGES.alreadyActive : LOCAL_MESSAGES.alreadyInactive);
  await deps.db.transaction().execute(async (trx) => {
    const before = await findLocal(trx, id);
    const { active, version, ...rest } = body;
    const updated = await trx
      .updateTable('locals')
      .set({ ...rest, ...(active === undefined ? {} : { active: toFlag(active) }), version: nextVersion() })
      .where('id', '=', id)
      .$if(version !== undefined, (q) => q.where('version', '=', version!))
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'locals', id, updated, notFound);
    await recordChange(trx, audit, { entity: 'locals', recordId: id, action: 'UPDATE', before, after: await findLocal(trx, id) });
  });
  return getLocal(deps.db, id);
}
