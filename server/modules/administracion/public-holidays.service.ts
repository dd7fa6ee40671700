import type { Kysely } from 'kysely';
import {
  TITLE_MESSAGES,
  type CreatePublicHolidayRequest,
  type PublicHoliday,
  type PublicHolidaysQuery,
  type UpdatePublicHolidayRequest,
} from '../../../src/schemas/administracion/titles';
import type { HolidaySet } from '../../../src/lib/administracion/working-days';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { Clock } from '../../clock';
import type { DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { isUniqueViolation } from '../../db/portable';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { fieldError, notFound } from '../../errors';

/**
 * Public holidays (migration 0040; docs/domain.md "Titles at SUNARP"): the days the working-day
 * counts skip besides weekends, edited by the administrator through /api/public-holidays, each
 * change with its change-history row.
 */

type Deps = { db: Kysely<DB>; clock: Clock };

/** Every public holiday as a set of `YYYY-MM-DD` (a few dozen rows: read whole for each count). */
export async function holidaySet(db: Kysely<DB>): Promise<HolidaySet> {
  const rows = await db.selectFrom('public_holidays').select('date').execute();
  return new Set(rows.map((r) => String(r.date).slice(0, 10)));
}

const toHoliday = (r: { id: number; date: string; name: string; version: number }): PublicHoliday => ({
  id: r.id,
  date: String(r.date).slice(0, 10),
  name: r.name,
  version: r.version,
});

/** One holiday. @throws HttpError 404. */
export async function getPublicHoliday(db: Kysely<DB>, id: number): Promise<PublicHoliday> {
  const row = await db.selectFrom('public_holidays').select(['id', 'date', 'name', 'version']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toHoliday(row);
}

/** GET /api/public-holidays: by date, optionally of one year. */
export async function listPublicHolidays(db: Kysely<DB>, query: PublicHolidaysQuery): Promise<Page<PublicHoliday>> {
  let filtered = db.selectFrom('public_holidays');
  if (query.year !== undefined) filtered = filtered.where('date', '>=', `${query.year}-01-01`).where('date', '<=', `${query.year}-12-31`);
  const page = await paginate(filtered, query, (q) => q.select(['id', 'date', 'name', 'version']).orderBy('date').orderBy('id'));
  return { data: page.data.map(toHoliday), meta: page.meta };
}

/** Runs `write`, turning the unique date's violation into the 422 on `date`. */
async function uniqueDate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('date', TITLE_MESSAGES.holidayDuplicate);
    throw error;
  }
}

/** POST /api/public-holidays. @throws HttpError 422 on a date that already has one. */
export async function createPublicHoliday(deps: Deps, audit: AuditContext, body: CreatePublicHolidayRequest): Promise<PublicHoliday> {
  const stamp = deps.clock.now().toISOString();
  const id = await uniqueDate(() =>
    deps.db.transaction().execute(async (trx) => {
      const { id: created } = await trx
        .insertInto('public_holidays')
        .values({ date: body.date, name: body.name, created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordChange(trx, audit, {
        entity: 'public_holidays',
        recordId: created,
        action: 'CREATE',
        after: { date: body.date, name: body.name },
      });
      return created;
    }),
  );
  return getPublicHoliday(deps.db, id);
}

/** PATCH /api/public-holidays/{id}. @throws HttpError 404, 409 stale, 422 duplicate date. */
export async function updatePublicHoliday(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: UpdatePublicHolidayRequest,
): Promise<PublicHoliday> {
  const stamp = deps.clock.now().toISOString();
  await uniqueDate(() =>
    deps.db.transaction().execute(async (trx) => {
      const before = await getPublicHoliday(trx, id);
      const result = await trx
        .updateTable('public_holidays')
        .set({
          ...(body.date !== undefined ? { date: body.date } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
          updated_at: stamp,
          version: nextVersion(),
        })
        .where('id', '=', id)
        .where('version', '=', body.version)
        .executeTakeFirst();
      await assertVersionedUpdate(trx, 'public_holidays', id, result, notFound);
      const after = await getPublicHoliday(trx, id);
      await recordChange(trx, audit, {
        entity: 'public_holidays',
        recordId: id,
        action: 'UPDATE',
        before: { date: before.date, name: before.name },
        after: { date: after.date, name: after.name },
      });
    }),
  );
  return getPublicHoliday(deps.db, id);
}

/** DELETE /api/public-holidays/{id}. @throws HttpError 404. */
export async function deletePublicHoliday(deps: Deps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await getPublicHoliday(trx, id);
    await trx.deleteFrom('public_holidays').where('id', '=', id).execute();
    await recordChange(trx, audit, {
      entity: 'public_holidays',
      recordId: id,
      action: 'DELETE',
      before: { date: before.date, name: before.name },
    });
  });
}
