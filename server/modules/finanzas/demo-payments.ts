import type { Kysely } from 'kysely';
import { systemAuditContext, type AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import type { Broadcaster } from '../../realtime/broadcaster';
import { qrPng } from './demo-accounts';
import { addPaymentVoucher, approvePayment, openInstalmentsOn, registerPayment } from './payments.service';

/**
 * Demo payments (issue 16, demo seed), made through the payments service itself so every figure
 * is what the app would store: for the demo customer (DNI 45454545), one transfer approved at the
 * office (its receipt R001-00000001) and one Yape payment sent from the portal with its capture,
 * PENDIENTE; for three late payers, a deposit registered at the office, PENDIENTE. The review queue
 * (/FINANZAS/Pagos) opens with four payments to review. Called inside the demo seed's transaction.
 */
export async function seedDemoPayments(trx: Kysely<DB>, clock: Clock, adminId: number | null): Promise<number> {
  const today = todayInLimaBy(clock);
  // Seed data: nobody is connected to hear the notifications' events.
  const broadcaster: Broadcaster = { publish: () => undefined, settled: async () => undefined };
  const deps = { db: trx, clock, broadcaster };
  const staff: AuditContext = {
    ...systemAuditContext(clock),
    actor: adminId === null ? null : { userType: 'COLLABORATOR', accountId: adminId },
  };
  const account = await trx.selectFrom('bank_accounts').select('id').where('bank', '=', 'BCP').where('active', '=', 1).executeTakeFirst();
  const deposits = await trx
    .selectFrom('bank_accounts')
    .select('id')
    .where('bank', '=', 'INTERBANK')
    .where('active', '=', 1)
    .executeTakeFirst();
  const yape = await trx.selectFrom('wallets').select('id').where('kind', '=', 'YAPE').where('active', '=', 1).executeTakeFirst();
  if (!account || !deposits || !yape) return 0;
  const open = async (saleId: number) => openInstalmentsOn(trx, saleId, today);
  let made = 0;

  const demoSale = await trx
    .selectFrom('sales')
    .innerJoin('sale_holders', 'sale_holders.sale_id', 'sales.id')
    .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
    .select(['sales.id', 'customers.id as customer_id'])
    .where('customers.document_number', '=', '45454545')
    .where('sales.status', 'not in', ['ANULADA', 'CANCELADA'])
    .where('sales.currency', '=', 'PEN')
    .orderBy('sales.id')
    .executeTakeFirst();
  if (demoSale) {
    const [first, second] = await open(demoSale.id);
    if (first) {
      const approved = await registerPayment(
        deps,
        { kind: 'STAFF', audit: staff },
        {
          sale_id: demoSale.id,
          amount: first.amountDueCents + first.lateFeeDueCents,
          method: 'TRANSFERENCIA',
          bank_account_id: account.id,
          operation_number: '00451230',
          operation_date: today,
        },
      );
      await approvePayment(deps, staff, approved.id, {});
      made += 1;
    }
    if (second) {
      const customer: AuditContext = { ...systemAuditContext(clock), actor: { userType: 'CUSTOMER', accountId: demoSale.customer_id } };
      const actor = { kind: 'CUSTOMER' as const, customerId: demoSale.customer_id, audit: customer };
      const pending = await registerPayment(deps, actor, {
        sale_id: demoSale.id,
        amount: second.amountDueCents,
        method: 'YAPE',
        wallet_id: yape.id,
        operation_number: '18273645',
        operation_date: today,
      });
      await addPaymentVoucher(deps, actor, pending.id, qrPng(`Yape · operación 18273645 · ${today}`, 320));
      made += 1;
    }
  }

  // Three late payers (an instalment overdue) each deposit one instalment at the bank.
  const late = await trx
    .selectFrom('sales')
    .innerJoin('sale_instalments', 'sale_instalments.sale_id', 'sales.id')
    .select('sales.id')
    .where('sales.status', 'in', ['EN_CUOTAS', 'INICIAL_PENDIENTE'])
    .where('sales.currency', '=', 'PEN')
    .where('sale_instalments.due_date', '<', today)
    .where((eb) => eb('sale_instalments.paid', '<', eb.ref('sale_instalments.amount')))
    .groupBy('sales.id')
    .orderBy('sales.id')
    .limit(3)
    .execute();
  for (const [i, sale] of late.entries()) {
    const [oldest] = await open(sale.id);
    if (!oldest) continue;
    await registerPayment(
      deps,
      { kind: 'STAFF', audit: staff },
      {
        sale_id: sale.id,
        amount: oldest.amountDueCents,
        method: 'DEPOSITO',
        bank_account_id: deposits.id,
        operation_number: `77${String(1000 + i)}`,
        operation_date: today,
      },
    );
    made += 1;
  }
  return made;
}
