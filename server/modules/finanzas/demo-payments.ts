import type { Kysely } from 'kysely';
import { systemAuditContext, type AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import type { Broadcaster } from '../../realtime/broadcaster';
import { qrPng } from './demo-accounts';
import { addPaymentVoucher, approvePayment, openInstalmentsOn, registerPayment } from './payments.service';
import { refreshSaleLateFees } from './late-fees.service';
import { RECEIPT_SERIES } from '../../../src/schemas/finanzas/payments';
import { Temporal } from 'temporal-polyfill';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';

/** Methods of the past demo payments, in turn, with their destination kind. */
const HISTORY_METHODS = ['TRANSFERENCIA', 'YAPE', 'DEPOSITO', 'EFECTIVO', 'PLIN'] as const;

/**
 * The payments behind what the demo sales have paid (demo-sales.ts marks instalments paid): one
 * APROBADO payment per paid instalment, made on its due date by its first holder, methods in
 * turn (to the BCP or Interbank account, the Yape or Plin wallet, or cash), each with its
 * allocation and a receipt number in date order — so statements, receipts and the collections
 * figures agree with the schedules. Direct inserts in batches (thousands of rows).
 */
async function seedPaymentHistory(trx: Kysely<DB>, clock: Clock, adminId: number | null): Promise<number> {
  const paid = await trx
    .selectFrom('sale_instalments')
    .innerJoin('sales', 'sales.id', 'sale_instalments.sale_id')
    .innerJoin('sale_holders', (join) => join.onRef('sale_holders.sale_id', '=', 'sales.id').on('sale_holders.position', '=', 0))
    .select([
      'sale_instalments.id',
      'sale_instalments.sale_id',
      'sale_instalments.paid',
      'sale_instalments.due_date',
      'sales.currency',
      'sale_holders.customer_id',
    ])
    .where('sale_instalments.paid', '>', 0)
    .orderBy('sale_instalments.due_date')
    .orderBy('sale_instalments.id')
    .execute();
  if (paid.length === 0) return 0;
  const accounts = await trx.selectFrom('bank_accounts').select(['id', 'bank', 'currency']).where('active', '=', 1).execute();
  const wallets = await trx.selectFrom('wallets').select(['id', 'kind']).where('active', '=', 1).execute();
  const stamp = clock.now().toISOString();
  const counter = await trx
    .selectFrom('receipt_counters')
    .select('last_number')
    .where('series', '=', RECEIPT_SERIES)
    .executeTakeFirstOrThrow();
  let receipt = Number(counter.last_number);
  const rows = paid.map((p, i) => {
    let method: string = HISTORY_METHODS[i % HISTORY_METHODS.length]!;
    const account = method === 'TRANSFERENCIA' || method === 'DEPOSITO' ? accounts.find((a) => a.currency === p.currency) : undefined;
    const wallet =
      method === 'YAPE' || method === 'PLIN' ? (p.currency === 'PEN' ? wallets.find((w) => w.kind === method) : undefined) : undefined;
    if ((method === 'TRANSFERENCIA' || method === 'DEPOSITO') && !account) method = 'EFECTIVO';
    if ((method === 'YAPE' || method === 'PLIN') && !wallet) method = 'EFECTIVO';
    receipt += 1;
    const at = `${p.due_date}T15:00:00.000Z`;
    return {
      sale_id: p.sale_id,
      reservation_id: null,
      customer_id: p.customer_id,
      currency: p.currency,
      amount: Number(p.paid),
      method,
      bank_account_id: method === 'EFECTIVO' ? null : (account?.id ?? null),
      wallet_id: method === 'EFECTIVO' ? null : (wallet?.id ?? null),
      operation_number: method === 'EFECTIVO' ? null : `H${String(p.id).padStart(9, '0')}`,
      operation_date: p.due_date,
      note: null,
      source: method === 'YAPE' || method === 'PLIN' ? 'PORTAL' : 'OFICINA',
      registered_by_user_id: adminId,
      status: 'APROBADO',
      reviewed_by: adminId,
      reviewed_at: at < stamp ? at : stamp,
      receipt_series: RECEIPT_SERIES,
      receipt_number: receipt,
      created_at: at < stamp ? at : stamp,
      updated_at: at < stamp ? at : stamp,
    };
  });
  for (let k = 0; k < rows.length; k += CHUNK) {
    const ids = await trx
      .insertInto('payments')
      .values(rows.slice(k, k + CHUNK))
      .returning('id')
      .execute();
    await trx
      .insertInto('payment_allocations')
      .values(
        ids.map(({ id }, j) => ({ payment_id: id, instalment_id: paid[k + j]!.id, to_late_fee: 0, to_capital: Number(paid[k + j]!.paid) })),
      )
      .execute();
  }
  await trx.updateTable('receipt_counters').set({ last_number: receipt }).where('series', '=', RECEIPT_SERIES).execute();
  return rows.length;
}

/** Rows per insert statement. */
const CHUNK = 200;

/**
 * Demo payments (issue 16 "Demo seed"): the history behind every paid instalment
 * ({@link seedPaymentHistory}); the late fees and states of every sale figured as of today; for the
 * demo customer (DNI 45454545), a transfer made 20 days ago and approved through the payments
 * service — the late fee then owed and half the oldest overdue instalment — so their statement has
 * paid, partly paid, overdue (with its late fee) and pending instalments; and four payments to
 * review, each with its voucher image: a Yape capture sent from the portal and three office deposits
 * of late payers.
 * Called inside the demo seed's transaction.
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
  let made = await seedPaymentHistory(trx, clock, adminId);
  const overdue = await trx
    .selectFrom('sale_instalments')
    .select('sale_id')
    .distinct()
    .where('due_date', '<', today)
    .where((eb) => eb('paid', '<', eb.ref('amount')))
    .execute();
  for (const { sale_id } of overdue) await refreshSaleLateFees(trx, sale_id, today);

  const account = await trx.selectFrom('bank_accounts').select('id').where('bank', '=', 'BCP').where('active', '=', 1).executeTakeFirst();
  const deposits = await trx
    .selectFrom('bank_accounts')
    .select('id')
    .where('bank', '=', 'INTERBANK')
    .where('active', '=', 1)
    .executeTakeFirst();
  const yape = await trx.selectFrom('wallets').select('id').where('kind', '=', 'YAPE').where('active', '=', 1).executeTakeFirst();
  if (!account || !deposits || !yape) return made;

  const demoSale = await trx
    .selectFrom('sales')
    .innerJoin('sale_holders', 'sale_holders.sale_id', 'sales.id')
    .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
    .select(['sales.id'])
    .where('customers.document_number', '=', '45454545')
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES, 'CANCELADA'])
    .where('sales.currency', '=', 'PEN')
    .orderBy('sales.id')
    .executeTakeFirst();
  if (demoSale) {
    const paidOn = Temporal.PlainDate.from(today).subtract({ days: 20 }).toString();
    const [oldest] = await openInstalmentsOn(trx, demoSale.id, paidOn);
    if (oldest && oldest.dueDate < paidOn) {
      const fees = (await openInstalmentsOn(trx, demoSale.id, paidOn)).reduce((sum, i) => sum + i.lateFeeDueCents, 0);
      const transfer = await registerPayment(
        deps,
        { kind: 'STAFF', audit: staff },
        {
          sale_id: demoSale.id,
          amount: fees + Math.floor(oldest.amountDueCents / 2),
          method: 'TRANSFERENCIA',
          bank_account_id: account.id,
          operation_number: '00451230',
          operation_date: paidOn,
        },
      );
      // The administrator registered it too: their exception to the segregation of duties, with its reason.
      await approvePayment(deps, staff, transfer.id, {
        override_reason: 'Datos de demostración: registrado y aprobado por el administrador',
      });
      made += 1;
    }
  }

  // To review: late payers other than the demo customer — one sends a Yape capture, three deposit at the bank.
  const late = await trx
    .selectFrom('sales')
    .innerJoin('sale_instalments', 'sale_instalments.sale_id', 'sales.id')
    .innerJoin('sale_holders', (join) => join.onRef('sale_holders.sale_id', '=', 'sales.id').on('sale_holders.position', '=', 0))
    .select(['sales.id', 'sale_holders.customer_id'])
    .where('sales.status', 'in', ['EN_CUOTAS', 'INICIAL_PENDIENTE'])
    .where('sales.currency', '=', 'PEN')
    .where('sales.id', '<>', demoSale?.id ?? 0)
    .where('sale_instalments.due_date', '<', today)
    .where((eb) => eb('sale_instalments.paid', '<', eb.ref('sale_instalments.amount')))
    .groupBy(['sales.id', 'sale_holders.customer_id'])
    .orderBy('sales.id')
    .limit(4)
    .execute();
  for (const [i, sale] of late.entries()) {
    const [oldest] = await openInstalmentsOn(trx, sale.id, today);
    if (!oldest) continue;
    if (i === 0) {
      const customer: AuditContext = { ...systemAuditContext(clock), actor: { userType: 'CUSTOMER', accountId: sale.customer_id } };
      const actor = { kind: 'CUSTOMER' as const, customerId: sale.customer_id, audit: customer };
      const sent = await registerPayment(deps, actor, {
        sale_id: sale.id,
        amount: oldest.amountDueCents + oldest.lateFeeDueCents,
        method: 'YAPE',
        wallet_id: yape.id,
        operation_number: '18273645',
        operation_date: today,
      });
      await addPaymentVoucher(deps, actor, sent.id, qrPng(`Yape · operación 18273645 · ${today}`, 320));
    } else {
      const operation = `77${String(1000 + i)}`;
      const deposit = await registerPayment(
        deps,
        { kind: 'STAFF', audit: staff },
        {
          sale_id: sale.id,
          amount: oldest.amountDueCents,
          method: 'DEPOSITO',
          bank_account_id: deposits.id,
          operation_number: operation,
          operation_date: today,
        },
      );
      // The deposit slip, scanned at the office (a QR image stands in for the photo).
      await addPaymentVoucher(
        deps,
        { kind: 'STAFF', audit: staff },
        deposit.id,
        qrPng(`Depósito Interbank · operación ${operation} · ${today}`, 320),
      );
    }
    made += 1;
  }
  return made;
}
