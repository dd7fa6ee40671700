import { sql, type Kysely, type Migration } from 'kysely';

/**
 * At most one portal payment of a sale waits for review (docs/security.md 30.4): a partial unique
 * index over `payments (sale_id)` where `source = 'PORTAL' and status = 'PENDIENTE'`, so of
 * concurrent PagoYape sends for one sale exactly one is stored (the others get the 409 of
 * server/modules/finanzas/payments.service.ts `refusePendingPortalPayment`). Portal payments
 * already pending twice or more for one sale (possible before this migration) keep the oldest
 * pending; the others are rejected with the reason below, so the index can be built. Both dialects.
 */
export function portalPendingMigration(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const reason = 'Duplicado: ya había otro pago del portal pendiente para esta compra';
      await sql`
        update payments set status = 'RECHAZADO', reject_reason = ${reason}
        where source = 'PORTAL' and status = 'PENDIENTE' and sale_id is not null
          and exists (select 1 from payments older where older.sale_id = payments.sale_id and older.source = 'PORTAL'
            and older.status = 'PENDIENTE' and older.id < payments.id)`.execute(db);
      await db.schema
        .createIndex('payments_portal_pending_uq')
        .on('payments')
        .column('sale_id')
        .unique()
        .where(sql.raw<boolean>(`source = 'PORTAL' and status = 'PENDIENTE' and sale_id is not null`))
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('payments_portal_pending_uq').execute();
    },
  };
}
