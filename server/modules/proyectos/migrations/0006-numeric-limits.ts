import { sql, type Kysely, type Migration } from 'kysely';
import { LIMITS } from '../../../../src/schemas/limits';
import type { DialectName } from '../../../db/connection';

/**
 * Numeric limits as database rules (issue 11 items 2–3; the same numbers as the zod schemas:
 * src/schemas/limits.ts). Lots: 0 < area_m2 ≤ LIMITS.maxAreaM2; 0 ≤ price_per_m2, list_price ≤
 * LIMITS.maxCents; perimeter and boundary lengths null or 0 … LIMITS.maxLengthM. Subdivisions:
 * 0 ≤ total_area_m2 ≤ LIMITS.maxAreaM2. Infinity and NaN fail every one of them.
 *
 * - PostgreSQL: `price_per_m2` and `list_price` become `bigint` (as `integer` they overflowed at
 *   2^31 céntimos, S/ 21 474 836, a 500 for a legitimate price; the pool reads int8 as a number,
 *   exact below 2^53), then CHECK constraints added `NOT VALID`: every new or changed row is
 *   checked, rows stored before this migration are not, so an installation that already holds an
 *   out-of-range row still starts (docs/security.md gives the query that finds such rows).
 * - SQLite cannot `ALTER TABLE … ADD CONSTRAINT`, and rebuilding `lots` would mean copying it with
 *   every foreign key pointing at it; BEFORE INSERT and BEFORE UPDATE triggers raise the same
 *   "CHECK constraint failed: <name>" error instead, with the same reach (new and changed rows).
 */
export function numericLimitsMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  /** The rules, with `c(column)` spelling a column (`new.column` inside a SQLite trigger). */
  const rules = {
    lots_limits_check: {
      table: 'lots',
      condition: (c: (column: string) => string) =>
        [
          `${c('area_m2')} > 0 and ${c('area_m2')} <= ${LIMITS.maxAreaM2}`,
          `${c('price_per_m2')} >= 0 and ${c('price_per_m2')} <= ${LIMITS.maxCents}`,
          `${c('list_price')} >= 0 and ${c('list_price')} <= ${LIMITS.maxCents}`,
          ...['perimeter_m', 'front_m', 'back_m', 'right_m', 'left_m'].map(
            (column) => `(${c(column)} is null or (${c(column)} >= 0 and ${c(column)} <= ${LIMITS.maxLengthM}))`,
          ),
        ].join(' and '),
    },
    subdivisions_limits_check: {
      table: 'subdivisions',
      condition: (c: (column: string) => string) => `${c('total_area_m2')} >= 0 and ${c('total_area_m2')} <= ${LIMITS.maxAreaM2}`,
    },
  };
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      if (postgres) {
        await sql`alter table lots alter column price_per_m2 type bigint, alter column list_price type bigint`.execute(db);
        for (const [name, { table, condition }] of Object.entries(rules)) {
          await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} check (${sql.raw(condition((column) => column))}) not valid`.execute(
            db,
          );
        }
        return;
      }
      for (const [name, { table, condition }] of Object.entries(rules)) {
        for (const event of ['insert', 'update']) {
          await sql
            .raw(
              `create trigger ${name}_${event} before ${event} on ${table} for each row when not (${condition((column) => `new.${column}`)}) begin select raise(abort, 'CHECK constraint failed: ${name}'); end`,
            )
            .execute(db);
        }
      }
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const [name, { table }] of Object.entries(rules)) {
        if (postgres) await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.id(name)}`.execute(db);
        else for (const event of ['insert', 'update']) await sql.raw(`drop trigger if exists ${name}_${event}`).execute(db);
      }
      if (postgres) await sql`alter table lots alter column price_per_m2 type integer, alter column list_price type integer`.execute(db);
    },
  };
}
