import { sql, type Kysely, type Migration } from 'kysely';
import { LAND_USES, UNSELLABLE_LAND_USES } from '../../../../src/schemas/proyectos/projects';
import { quotedList } from '../../../db/migrations/column-types';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** The lot statuses before this migration, as 0005 wrote its CHECK. */
const OLD_STATUSES = `'DISPONIBLE', 'SEPARADO', 'VENDIDO', 'BLOQUEADO', 'RESERVA_COMERCIAL', 'CANJE'`;
const NEW_STATUSES = `${OLD_STATUSES}, 'NO_VENDIBLE'`;
const LAND_USE_CHECK = `land_use in (${quotedList(LAND_USES)})`;
/** A lot is NO_VENDIBLE exactly when its use is not for sale. */
const STATUS_FOLLOWS_USE = `(status = 'NO_VENDIBLE') = (land_use in (${quotedList(UNSELLABLE_LAND_USES)}))`;

/**
 * Land use of lots (issue 13 item 4; docs/domain.md "Projects and lots"): `lots.land_use`
 * (VIVIENDA by default; one of {@link LAND_USES}) and the status NO_VENDIBLE, which a lot has
 * exactly when its use is not for sale (parks, equipment, club house, aportes), as database rules:
 * `lots_status_check` widened, `lots_land_use_check` and `lots_land_use_status_check` added.
 * Every existing lot becomes VIVIENDA, which keeps the rule (none of them is NO_VENDIBLE).
 *
 * PostgreSQL alters the constraints in place; SQLite cannot alter a CHECK, so `lots` is rebuilt by
 * {@link rebuildSqliteTable} (rows, ids, indexes and the 0006 limit triggers kept).
 */
export function landUseMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      if (postgres) {
        await sql
          .raw(
            `alter table lots add column land_use text not null default 'VIVIENDA', drop constraint lots_status_check, ` +
              `add constraint lots_status_check check (status in (${NEW_STATUSES})), ` +
              `add constraint lots_land_use_check check (${LAND_USE_CHECK}), ` +
              `add constraint lots_land_use_status_check check (${STATUS_FOLLOWS_USE})`,
          )
          .execute(db);
        return;
      }
      await rebuildSqliteTable(db, 'lots', (create) =>
        create
          .replace(`check (status in (${OLD_STATUSES}))`, `check (status in (${NEW_STATUSES}))`)
          .replace(
            `"status" text default 'DISPONIBLE' not null,`,
            `"status" text default 'DISPONIBLE' not null, "land_use" text default 'VIVIENDA' not null,`,
          )
          .replace(
            /\)$/,
            `, constraint "lots_land_use_check" check (${LAND_USE_CHECK}), constraint "lots_land_use_status_check" check (${STATUS_FOLLOWS_USE}))`,
          ),
      );
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      // Lots not for sale have no status nor use before this migration: they go back to DISPONIBLE.
      if (postgres) {
        await sql
          .raw(
            `alter table lots drop constraint lots_land_use_status_check, drop constraint lots_land_use_check, drop column land_use, ` +
              `drop constraint lots_status_check`,
          )
          .execute(db);
        await sql`update lots set status = 'DISPONIBLE' where status = 'NO_VENDIBLE'`.execute(db);
        await sql.raw(`alter table lots add constraint lots_status_check check (status in (${OLD_STATUSES}))`).execute(db);
        return;
      }
      await sql`update lots set status = 'DISPONIBLE', land_use = 'VIVIENDA' where status = 'NO_VENDIBLE'`.execute(db);
      await rebuildSqliteTable(db, 'lots', (create) =>
        create
          .replace(`check (status in (${NEW_STATUSES}))`, `check (status in (${OLD_STATUSES}))`)
          .replace(` "land_use" text default 'VIVIENDA' not null,`, '')
          .replace(
            `, constraint "lots_land_use_check" check (${LAND_USE_CHECK}), constraint "lots_land_use_status_check" check (${STATUS_FOLLOWS_USE}))`,
            ')',
          ),
      );
    },
  };
}
