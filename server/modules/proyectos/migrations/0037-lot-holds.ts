import { sql, type Kysely, type Migration } from 'kysely';
import { ACTION } from '../../../../src/schemas/permissions';
import { LOT_HOLD_STATES } from '../../../../src/schemas/proyectos/lot-holds';
import type { DialectName } from '../../../db/connection';
import { columnTypes, quotedList } from '../../../db/migrations/column-types';

/**
 * Lot holds (docs/domain.md "Lot holds"): a hand-made hold of a lot (SEPARADO without reservation,
 * BLOQUEADO, RESERVA_COMERCIAL) with its end date, who asked, who decided and its state
 * (src/schemas/proyectos/lot-holds.ts). 'Aprobar bloqueos de lotes' goes to the Administrador and
 * to the roles that hold 'Supervisar leads' (the sales supervisors), so an installation keeps a
 * user who can hold lots at once. Lots held before this migration have no hold row: they stay as
 * they are until changed by hand.
 */
export function lotHoldsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('lot_holds')
        .addColumn('id', 'integer', t.id)
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('until', t.date, (c) => c.notNull())
        .addColumn('requested_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('requested_at', t.instant, (c) => c.notNull())
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('decided_at', t.instant)
        .addColumn('decision_reason', 'text')
        .addCheckConstraint('lot_holds_state_check', sql.raw(`state in (${quotedList(LOT_HOLD_STATES)})`))
        .execute();
      await db.schema.createIndex('lot_holds_state_until_idx').on('lot_holds').columns(['state', 'until']).execute();
      await db.schema.createIndex('lot_holds_lot_idx').on('lot_holds').columns(['lot_id', 'state']).execute();
      await sql`insert into role_permissions (role_id, permission)
        select r.id, ${ACTION.aprobarBloqueos} from roles r
        where (r.name = 'Administrador' or exists (select 1 from role_permissions s where s.role_id = r.id and s.permission = ${ACTION.supervisarLeads}))
        and exists (select 1 from role_permissions g where g.role_id = r.id and g.permission = 'Acceso submódulo lotizaciones')
        and not exists (select 1 from role_permissions p where p.role_id = r.id and p.permission = ${ACTION.aprobarBloqueos})`.execute(db);
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await sql`delete from role_permissions where permission = ${ACTION.aprobarBloqueos}`.execute(db);
      await db.schema.dropTable('lot_holds').execute();
    },
  };
}
