import { sql, type Kysely, type Migration } from 'kysely';
import { CONTRACT_KINDS, TEMPLATE_STATES } from '../../../../src/schemas/administracion/contract-templates';
import { CONTRACT_STATES } from '../../../../src/schemas/administracion/contracts';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Contract templates and contracts (docs/domain.md "Contract templates", "Contracts"):
 * - `contract_templates`: one row per version of a family (subdivision, kind); `version_number`
 *   1, 2… unique per family; `state` BORRADOR | PUBLICADA; `content` the editor's JSON document as
 *   text; at most one BORRADOR per family (a partial unique index, so two "new version" requests
 *   at once cannot both open one);
 * - `contracts`: one per sale and kind while not ANULADO (partial unique index); the template
 *   version it was made from; `number` 'C-YYYY-NNNNNN' unique, taken at issue; `overrides` (JSON
 *   text, key → text the user supplied); at issue the resolved document (`rendered_doc`), its
 *   values and the PDF bytes are stored and never rebuilt; the signed scan's bytes;
 * - `contract_counters (company_id, year, last_number)`: the gapless correlative per company and
 *   year, raised inside the issuing transaction (the row lock orders concurrent issues, as
 *   `receipt_counters`);
 * - `contract_events`: the history of state changes (from, to, user, note, instant).
 */
export function administracionContractsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('contract_templates')
        .addColumn('id', 'integer', t.id)
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version_number', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('published_at', t.instant)
        .addColumn('published_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addUniqueConstraint('contract_templates_family_version_unique', ['subdivision_id', 'kind', 'version_number'])
        .addCheckConstraint('contract_templates_kind_check', sql.raw(`kind in (${quotedList(CONTRACT_KINDS)})`))
        .addCheckConstraint('contract_templates_state_check', sql.raw(`state in (${quotedList(TEMPLATE_STATES)})`))
        .addCheckConstraint('contract_templates_version_number_check', sql`version_number >= 1`)
        .execute();
      await db.schema
        .createIndex('contract_templates_one_draft_idx')
        .on('contract_templates')
        .columns(['subdivision_id', 'kind'])
        .unique()
        .where(sql.ref('state'), '=', 'BORRADOR')
        .execute();

      await db.schema
        .createTable('contracts')
        .addColumn('id', 'integer', t.id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
        .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
        .addColumn('template_id', 'integer', (c) => c.notNull().references('contract_templates.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('number', 'text', (c) => c.unique())
        .addColumn('year', 'integer')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('overrides', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('rendered_doc', 'text')
        .addColumn('rendered_values', 'text')
        .addColumn('pdf_data', blob)
        .addColumn('signed_scan_data', blob)
        .addColumn('signed_scan_content_type', 'text')
        .addColumn('signed_scan_name', 'text')
        .addColumn('issued_at', t.instant)
        .addColumn('issued_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('signed_at', t.instant)
        .addColumn('annul_reason', 'text')
        .addColumn('signature_notice_at', t.instant)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('contracts_kind_check', sql.raw(`kind in (${quotedList(CONTRACT_KINDS)})`))
        .addCheckConstraint('contracts_state_check', sql.raw(`state in (${quotedList(CONTRACT_STATES)})`))
        .addCheckConstraint(
          'contracts_issued_check',
          sql`state = 'BORRADOR' or state = 'ANULADO' or (number is not null and pdf_data is not null)`,
        )
        .execute();
      await db.schema
        .createIndex('contracts_live_per_sale_idx')
        .on('contracts')
        .columns(['sale_id', 'kind'])
        .unique()
        .where(sql.ref('state'), '<>', 'ANULADO')
        .execute();
      await db.schema.createIndex('contracts_state_idx').on('contracts').columns(['state', 'issued_at']).execute();
      await db.schema.createIndex('contracts_template_idx').on('contracts').column('template_id').execute();

      await db.schema
        .createTable('contract_counters')
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('last_number', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('contract_counters_pk', ['company_id', 'year'])
        .addCheckConstraint('contract_counters_number_check', sql`last_number >= 0`)
        .execute();

      await db.schema
        .createTable('contract_events')
        .addColumn('id', 'integer', t.id)
        .addColumn('contract_id', 'integer', (c) => c.notNull().references('contracts.id').onDelete('cascade'))
        .addColumn('from_state', 'text')
        .addColumn('to_state', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('contract_events_contract_idx').on('contract_events').columns(['contract_id', 'id']).execute();
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('contract_events').execute();
      await db.schema.dropTable('contract_counters').execute();
      await db.schema.dropTable('contracts').execute();
      await db.schema.dropTable('contract_templates').execute();
    },
  };
}
