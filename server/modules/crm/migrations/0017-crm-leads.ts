import { sql, type Kysely, type Migration } from 'kysely';
import { LEAD_ACTIVITY_KINDS, LEAD_CHANNELS, LEAD_STATUSES } from '../../../../src/schemas/crm/leads';
import { ACTION } from '../../../../src/schemas/permissions';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Leads (issue "CRM and sales"; docs/domain.md "CRM", docs/decisions.md "Leads"): `leads` with
 * their subdivisions of interest (`lead_subdivisions`) and activity log (`lead_activities`).
 * `phone` is stored normalised (src/schemas/crm/leads.ts normalizePhone) so duplicates are found
 * by equality on an index. A lead converted into a customer points at it (`customer_id`).
 *
 * Also grants the new action permission 'Supervisar leads' to the Administrador role, which holds
 * every staff permission (docs/decisions.md "Roles").
 */
export function leadsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('leads')
        .addColumn('id', 'integer', t.id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn('email', 'text')
        .addColumn('id_document_type', 'text')
        .addColumn('document_number', 'text')
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('campaign', 'text')
        .addColumn('notes', 'text')
        .addColumn('agent_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('POR_ATENDER'))
        .addColumn('lost_reason', 'text')
        .addColumn('next_follow_up_at', t.instant)
        .addColumn('customer_id', 'integer', (c) => c.references('customers.id').onDelete('set null'))
        .addColumn('last_activity_at', t.instant)
        .addColumn('received_at', t.instant, (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addColumn('updated_at', t.instant, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('leads_status_check', sql.raw(`status in (${quotedList(LEAD_STATUSES)})`))
        .addCheckConstraint('leads_channel_check', sql.raw(`channel in (${quotedList(LEAD_CHANNELS)})`))
        .addCheckConstraint('leads_contact_check', sql`phone is not null or email is not null`)
        .addCheckConstraint('leads_lost_reason_check', sql`status <> 'NO_CONCRETADO' or lost_reason is not null`)
        .execute();
      await db.schema.createIndex('leads_agent_status_idx').on('leads').columns(['agent_id', 'status']).execute();
      await db.schema.createIndex('leads_status_follow_up_idx').on('leads').columns(['status', 'next_follow_up_at']).execute();
      await db.schema.createIndex('leads_received_idx').on('leads').column('received_at').execute();
      await db.schema.createIndex('leads_phone_idx').on('leads').column('phone').execute();
      await db.schema.createIndex('leads_document_idx').on('leads').column('document_number').execute();
      await db.schema.createIndex('leads_customer_idx').on('leads').column('customer_id').execute();

      await db.schema
        .createTable('lead_subdivisions')
        .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('subdivision_id', 'integer', (c) => c.notNull().references('subdivisions.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('lead_subdivisions_pk', ['lead_id', 'subdivision_id'])
        .execute();
      await db.schema.createIndex('lead_subdivisions_subdivision_idx').on('lead_subdivisions').column('subdivision_id').execute();

      await db.schema
        .createTable('lead_activities')
        .addColumn('id', 'integer', t.id)
        .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('occurred_at', t.instant, (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.instant, (c) => c.notNull())
        .addCheckConstraint('lead_activities_kind_check', sql.raw(`kind in (${quotedList(LEAD_ACTIVITY_KINDS)})`))
        .execute();
      await db.schema.createIndex('lead_activities_lead_idx').on('lead_activities').columns(['lead_id', 'occurred_at']).execute();

      await sql`insert into role_permissions (role_id, permission)
        select id, ${ACTION.supervisarLeads} from roles r where r.name = 'Administrador'
        and not exists (select 1 from role_permissions p where p.role_id = r.id and p.permission = ${ACTION.supervisarLeads})`.execute(db);
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await sql`delete from role_permissions where permission = ${ACTION.supervisarLeads}`.execute(db);
      await db.schema.dropTable('lead_activities').execute();
      await db.schema.dropTable('lead_subdivisions').execute();
      await db.schema.dropTable('leads').execute();
    },
  };
}
