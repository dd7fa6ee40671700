import { sql, type Kysely, type Migration } from 'kysely';
import { MARITAL_STATUSES, PERSON_TYPES } from '../../../../src/schemas/crm/customers';
import { quotedList } from '../../../db/migrations/column-types';
import type { DialectName } from '../../../db/connection';
import { rebuildSqliteTable } from '../../../db/sqlite-rebuild';

/** Columns this migration adds, with their DDL (same text on both dialects). */
const NEW_COLUMNS = [
  `"person_type" text default 'NATURAL' not null`,
  `"legal_representative" text`,
  `"marital_status" text`,
  `"spouse_id" integer references "customers" ("id") on delete set null`,
  `"alternate_phone" text`,
  `"address" text`,
  `"ubigeo" text`,
  `"agent_id" integer references "users" ("id") on delete set null`,
  `"collector_id" integer references "users" ("id") on delete set null`,
  `"version" integer default 1 not null`,
];

/** Columns that become nullable: a customer staff enter has no password yet, and may lack the rest. */
const NOW_NULLABLE = ['surname', 'birthday_date', 'email', 'phone', 'password_hash'] as const;

const CONSTRAINTS = [
  `constraint "customers_person_type_check" check (person_type in (${quotedList(PERSON_TYPES)}))`,
  `constraint "customers_marital_status_check" check (marital_status is null or marital_status in (${quotedList(MARITAL_STATUSES)}))`,
  `constraint "customers_surname_check" check (person_type = 'JURIDICA' or surname is not null)`,
  `constraint "customers_spouse_check" check (spouse_id is null or spouse_id <> id)`,
];

/**
 * CRM customers (issue "CRM and sales"; docs/decisions.md "CRM customers and portal accounts: one
 * table"): the self-registered portal accounts become the CRM's customers. Adds person type
 * (NATURAL | JURIDICA; for JURIDICA `name` holds the business name and `surname` is null), legal
 * representative, marital status, spouse (a customer), alternate phone, address, ubigeo (INEI
 * district code), agent and collector (staff users) and the record `version`; makes surname,
 * birthday, e-mail, phone and password hash nullable (a customer entered by staff has no portal
 * login until they get one). Existing rows are NATURAL at version 1.
 *
 * PostgreSQL alters the table in place; SQLite cannot drop NOT NULL, so `customers` is rebuilt by
 * {@link rebuildSqliteTable} (rows, ids and the lower(email) unique index kept).
 */
export function crmCustomersMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      if (postgres) {
        await sql
          .raw(
            `alter table customers ` +
              [
                ...NOW_NULLABLE.map((c) => `alter column ${c} drop not null`),
                ...NEW_COLUMNS.map((c) => `add column ${c}`),
                ...CONSTRAINTS.map((c) => `add ${c}`),
              ].join(', '),
          )
          .execute(db);
      } else {
        await rebuildSqliteTable(db, 'customers', (create) => {
          let rewritten = create;
          for (const column of NOW_NULLABLE) rewritten = rewritten.replace(`"${column}" text not null`, `"${column}" text`);
          // Columns go before the table constraints (SQLite's grammar), the new constraints at the end.
          return rewritten
            .replace(`, constraint "customers_status_check"`, `, ${NEW_COLUMNS.join(', ')}, constraint "customers_status_check"`)
            .replace(/\)$/, `, ${CONSTRAINTS.join(', ')})`);
        });
      }
      await db.schema.createIndex('customers_agent_idx').on('customers').column('agent_id').execute();
      await db.schema.createIndex('customers_collector_idx').on('customers').column('collector_id').execute();
      await db.schema.createIndex('customers_spouse_idx').on('customers').column('spouse_id').execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      // Customers without the columns the old table requires cannot go back: they are removed.
      await sql`update customers set spouse_id = null`.execute(db);
      await sql`delete from customers where ${sql.join(
        NOW_NULLABLE.map((c) => sql`${sql.ref(c)} is null`),
        sql` or `,
      )}`.execute(db);
      for (const index of ['customers_agent_idx', 'customers_collector_idx', 'customers_spouse_idx']) {
        await db.schema.dropIndex(index).execute();
      }
      if (postgres) {
        await sql
          .raw(
            `alter table customers ` +
              [
                ...CONSTRAINTS.map((c) => `drop constraint ${/"([^"]+)"/.exec(c)?.[1] ?? ''}`),
                ...NEW_COLUMNS.map((c) => `drop column ${/"([^"]+)"/.exec(c)?.[1] ?? ''}`),
                ...NOW_NULLABLE.map((c) => `alter column ${c} set not null`),
              ].join(', '),
          )
          .execute(db);
        return;
      }
      await rebuildSqliteTable(db, 'customers', (create) => {
        let rewritten = create.replace(`, ${NEW_COLUMNS.join(', ')}`, '').replace(`, ${CONSTRAINTS.join(', ')})`, ')');
        for (const column of NOW_NULLABLE) rewritten = rewritten.replace(`"${column}" text,`, `"${column}" text not null,`);
        return rewritten;
      });
    },
  };
}
