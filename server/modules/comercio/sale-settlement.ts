import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { debtOn, planPayment } from '../../../src/lib/finanzas/sale-ledger';
import { formatMoney } from '../../../src/lib/money';
import { SALE_MESSAGES, type SaleAnnulment, type saleSettlementRequestSchema } from '../../../src/schemas/comercio/sales';
import { RECEIPT_SERIES } from '../../../src/schemas/finanzas/payments';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { nextVersion } from '../../db/versions';
import { conflict, fieldError, notFound } from '../../errors';
import { saleAccount } from '../finanzas/late-fees.service';
import { applyToSale, nextReceiptNumber } from '../finanzas/payments.service';
import { receiptLabel } from '../finanzas/payments.repository';
import { saleNumber } from './sales.service';

/**
 * The money of an annulled sale (docs/domain.md "Annulling a sale"): what approved money is on it,
 * which sales it may be credited to, the checks of the settlement the annul request carries, and
 * its effects, run inside the annulment's transaction.
 */

/** Parsed settlement of POST /api/sales/{id}/annul. */
export type SettlementBody = z.output<typeof saleSettlementRequestSchema>;

/** Sale states that still take money (a CANCELADA sale owes nothing; an ANULADA one is gone). */
const LIVE_SALE_STATUSES = ['REGISTRADA', 'INICIAL_PENDIENTE', 'EN_CUOTAS'] as const;

/** One approved payment with money applied to a sale, and how much (céntimos, late fees included). */
export interface PaidPayment {
  id: number;
  amount: number;
  method: string;
  bankAccountId: number | null;
  walletId: number | null;
  operationDate: string;
  receipt: string | null;
}

/** The approved money on a sale: the sum and each payment's part, oldest first. */
export interface SalePaid {
  total: number;
  payments: PaidPayment[];
}

/**
 * The approved money on sale `saleId`: Σ (to_capital + to_late_fee) of the allocations on its
 * instalments of APROBADO payments (its own payments and its reservation's, credited when it was
 * sold), per payment, oldest operation date first.
 */
export async function approvedPaidOn(db: Kysely<DB>, saleId: number): Promise<SalePaid> {
  const rows = await db
    .selectFrom('payment_allocations')
    .innerJoin('sale_instalments', 'sale_instalments.id', 'payment_allocations.instalment_id')
    .innerJoin('payments', 'payments.id', 'payment_allocations.payment_id')
    .select([
      'payments.id',
      'payments.method',
      'payments.bank_account_id',
      'payments.wallet_id',
      'payments.operation_date',
      'payments.receipt_series',
      'payments.receipt_number',
      'payment_allocations.to_capital',
      'payment_allocations.to_late_fee',
    ])
    .where('sale_instalments.sale_id', '=', saleId)
    .where('payments.status', '=', 'APROBADO')
    .orderBy('payments.operation_date')
    .orderBy('payments.id')
    .execute();
  const byId = new Map<number, PaidPayment>();
  for (const r of rows) {
    const applied = Number(r.to_capital) + Number(r.to_late_fee);
    const seen = byId.get(r.id);
    if (seen) seen.amount += applied;
    else
      byId.set(r.id, {
        id: r.id,
        amount: applied,
        method: r.method,
        bankAccountId: r.bank_account_id,
        walletId: r.wallet_id,
        operationDate: r.operation_date,
        receipt: r.receipt_series !== null && r.receipt_number !== null ? receiptLabel(r.receipt_series, r.receipt_number) : null,
      });
  }
  const payments = [...byId.values()];
  return { total: payments.reduce((sum, p) => sum + p.amount, 0), payments };
}

/** The TITULAR of a sale (the customer a settlement's credit stays with). */
async function titularOf(db: Kysely<DB>, saleId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('sale_holders')
    .select('customer_id')
    .where('sale_id', '=', saleId)
    .where('role', '=', 'TITULAR')
    .orderBy('position')
    .executeTakeFirst();
  return row?.customer_id;
}

/**
 * GET /api/sales/{id}/annulment: the approved money on the sale and the sales it may be credited
 * to — the live sales (REGISTRADA, INICIAL_PENDIENTE, EN_CUOTAS) of the same TITULAR in the same
 * currency, other than itself, with what each owes today.
 * @throws HttpError 404 unknown sale.
 */
export async function saleAnnulment(deps: Pick<AppDeps, 'db' | 'clock'>, saleId: number): Promise<SaleAnnulment> {
  const sale = await deps.db.selectFrom('sales').select(['id', 'currency']).where('id', '=', saleId).executeTakeFirst();
  if (!sale) throw notFound();
  const paid = await approvedPaidOn(deps.db, saleId);
  const titular = await titularOf(deps.db, saleId);
  const targets =
    titular === undefined
      ? []
      : await deps.db
          .selectFrom('sales')
          .innerJoin('lots', 'lots.id', 'sales.lot_id')
          .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
          .select(['sales.id', 'lots.code', 'subdivisions.name'])
          .where('sales.id', '!=', saleId)
          .where('sales.currency', '=', sale.currency)
          .where('sales.status', 'in', [...LIVE_SALE_STATUSES])
          .where('sales.id', 'in', (eb) =>
            eb
              .selectFrom('sale_holders')
              .select('sale_holders.sale_id')
              .where('sale_holders.customer_id', '=', titular)
              .where('sale_holders.role', '=', 'TITULAR'),
          )
          .orderBy('sales.sale_date')
          .orderBy('sales.id')
          .limit(50)
          .execute();
  const today = todayInLimaBy(deps.clock);
  const credit_targets = [];
  for (const t of targets) {
    const account = await saleAccount(deps.db, t.id);
    credit_targets.push({
      id: t.id,
      number: saleNumber(t.id),
      lot_code: t.code,
      subdivision_name: t.name,
      debt: account ? debtOn(account.policy, account.ledger, today) : 0,
    });
  }
  return { sale_id: saleId, currency: sale.currency, paid: paid.total, credit_targets };
}

/** A checked settlement: its amounts (céntimos) and, for CREDITO, the target sale. */
export interface CheckedSettlement {
  mode: 'REEMBOLSO' | 'CREDITO';
  paid: number;
  penalty: number;
  refund: number;
  credited: number;
  targetSaleId: number | null;
}

/**
 * Checks an annulment's settlement against the sale's approved money `paid` (docs/domain.md
 * "Annulling a sale"): required when `paid` > 0 and refused when it is 0; penalty ≤ paid; a
 * refund of exactly paid − penalty; a target that is another live sale of the same TITULAR in the
 * same currency, owing at least what is credited (debt today, late fees included).
 * @returns null when nothing was paid (the annulment carries no settlement).
 * @throws HttpError 422 with the field (`settlement`, `settlement.penalty`, `settlement.refund`,
 *   `settlement.target_sale_id`) and the Spanish {@link SALE_MESSAGES} reason.
 */
export async function checkSettlement(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  sale: { id: number; currency: string },
  paid: number,
  settlement: SettlementBody | undefined,
): Promise<CheckedSettlement | null> {
  const refuse = fieldError;
  if (paid === 0) {
    if (settlement) throw refuse('settlement', SALE_MESSAGES.nothingPaid);
    return null;
  }
  if (!settlement) throw refuse('settlement', SALE_MESSAGES.settlementRequired);
  if (settlement.penalty > paid) throw refuse('settlement.penalty', SALE_MESSAGES.penaltyTooHigh);
  const net = paid - settlement.penalty;
  if (settlement.mode === 'REEMBOLSO') {
    if (settlement.refund !== net) throw refuse('settlement.refund', SALE_MESSAGES.refundMismatch);
    return { mode: 'REEMBOLSO', paid, penalty: settlement.penalty, refund: net, credited: 0, targetSaleId: null };
  }
  const targetId = settlement.target_sale_id;
  const field = 'settlement.target_sale_id';
  if (targetId === sale.id) throw refuse(field, SALE_MESSAGES.targetSelf);
  const target = await deps.db.selectFrom('sales').select(['id', 'status', 'currency']).where('id', '=', targetId).executeTakeFirst();
  if (!target || !(LIVE_SALE_STATUSES as readonly string[]).includes(target.status)) throw refuse(field, SALE_MESSAGES.targetNotLive);
  const titular = await titularOf(deps.db, sale.id);
  if (titular === undefined || titular !== (await titularOf(deps.db, targetId))) throw refuse(field, SALE_MESSAGES.targetOtherCustomer);
  if (target.currency !== sale.currency) throw refuse(field, SALE_MESSAGES.targetCurrency);
  if (net > 0) {
    const account = await saleAccount(deps.db, targetId);
    const today = todayInLimaBy(deps.clock);
    const plan = account ? planPayment(account.policy, account.ledger, net, today, today) : null;
    if (!plan?.ok) {
      const debt = account ? debtOn(account.policy, account.ledger, today) : 0;
      throw refuse(field, `${SALE_MESSAGES.creditExceedsDebt} (${formatMoney(debt, target.currency)})`);
    }
  }
  return { mode: 'CREDITO', paid, penalty: settlement.penalty, refund: 0, credited: net, targetSaleId: targetId };
}

/**
 * The effects of a checked settlement, inside the annulment's transaction (after the sale was
 * claimed ANULADA): each approved payment on the sale becomes ANULADO with a reason that says where
 * its money went (its allocations stay as the record of what was released), the instalments'
 * paid amounts are released; for CREDITO a new APROBADO payment of paid − penalty (its own receipt,
 * dated today, the method and destination of the oldest payment) is applied to the target sale as
 * any approval applies money (late fees first, then amounts, oldest first); the settlement and its
 * trace to the payments are stored. Money is kept whole: paid = refund + penalty + credited
 * (also a CHECK of the table).
 * @returns the id of the stored `sale_settlements` row.
 * @throws HttpError 409 when the money on the sale changed since it was checked, or the target's
 *   debt did (the transaction rolls back).
 */
export async function applySettlement(
  trx: Kysely<DB>,
  deps: Pick<AppDeps, 'clock'>,
  audit: AuditContext,
  sale: { id: number; number: string; currency: 'PEN' | 'USD' },
  settlement: CheckedSettlement,
  reason: string,
  /** How the sale ended, in the payments' annulment reason: 'anulada', or 'resuelta' (docs/domain.md "Rescission"). */
  ended: 'anulada' | 'resuelta' = 'anulada',
): Promise<number> {
  const paid = await approvedPaidOn(trx, sale.id);
  if (paid.total !== settlement.paid) throw conflict(SALE_MESSAGES.paidChanged);
  const stamp = deps.clock.now().toISOString();
  const today = todayInLimaBy(deps.clock);
  const actor = staffActorId(audit);
  let creditPaymentId: number | null = null;
  let targetNumber = '';
  if (settlement.targetSaleId !== null) {
    targetNumber = saleNumber(settlement.targetSaleId);
  }
  const where =
    settlement.mode === 'REEMBOLSO'
      ? `reembolso de ${formatMoney(settlement.refund, sale.currency)}`
      : `acreditado a la venta ${targetNumber}`;
  const penalty = settlement.penalty > 0 ? `, penalidad ${formatMoney(settlement.penalty, sale.currency)}` : '';
  const annulReason = `Venta ${sale.number} ${ended} (${where}${penalty}): ${reason}`;

  for (const payment of paid.payments) {
    const before = await trx.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
    const result = await trx
      .updateTable('payments')
      .set({
        status: 'ANULADO',
        annul_reason: annulReason,
        annulled_by: actor,
        annulled_at: stamp,
        updated_at: stamp,
        version: nextVersion(),
      })
      .where('id', '=', payment.id)
      .where('status', '=', 'APROBADO')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw conflict(SALE_MESSAGES.paidChanged);
    const allocations = await trx
      .selectFrom('payment_allocations')
      .innerJoin('sale_instalments', 'sale_instalments.id', 'payment_allocations.instalment_id')
      .select(['payment_allocations.instalment_id', 'payment_allocations.to_capital', 'payment_allocations.to_late_fee'])
      .where('payment_allocations.payment_id', '=', payment.id)
      .where('sale_instalments.sale_id', '=', sale.id)
      .execute();
    for (const a of allocations)
      await trx
        .updateTable('sale_instalments')
        .set((eb) => ({ paid: eb('paid', '-', Number(a.to_capital)), late_fee_paid: eb('late_fee_paid', '-', Number(a.to_late_fee)) }))
        .where('id', '=', a.instalment_id)
        .execute();
    await recordChange(trx, audit, {
      entity: 'payments',
      recordId: payment.id,
      action: 'UPDATE',
      before,
      after: await trx.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirst(),
    });
  }

  if (settlement.mode === 'CREDITO' && settlement.credited > 0 && settlement.targetSaleId !== null) {
    const source = paid.payments[0]!;
    const customerId = await titularOf(trx, sale.id);
    if (customerId === undefined) throw conflict(SALE_MESSAGES.targetOtherCustomer);
    const receipt = await nextReceiptNumber(trx);
    const receipts = paid.payments.flatMap((p) => (p.receipt ? [p.receipt] : [])).join(', ');
    const inserted = await trx
      .insertInto('payments')
      .values({
        sale_id: settlement.targetSaleId,
        reservation_id: null,
        customer_id: customerId,
        currency: sale.currency,
        amount: settlement.credited,
        method: source.method,
        bank_account_id: source.bankAccountId,
        wallet_id: source.walletId,
        operation_number: null,
        operation_date: today,
        note: `Crédito de la venta ${sale.number} anulada${receipts ? ` (recibos ${receipts})` : ''}`,
        source: 'OFICINA',
        registered_by_user_id: actor,
        status: 'APROBADO',
        reviewed_by: actor,
        reviewed_at: stamp,
        receipt_series: RECEIPT_SERIES,
        receipt_number: receipt,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    creditPaymentId = inserted.id;
    await applyToSale(trx, audit, deps, settlement.targetSaleId, creditPaymentId, settlement.credited, today, sale.currency);
    await recordChange(trx, audit, {
      entity: 'payments',
      recordId: creditPaymentId,
      action: 'CREATE',
      after: await trx.selectFrom('payments').selectAll().where('id', '=', creditPaymentId).executeTakeFirst(),
    });
  }

  const stored = await trx
    .insertInto('sale_settlements')
    .values({
      sale_id: sale.id,
      mode: settlement.mode,
      currency: sale.currency,
      paid: settlement.paid,
      penalty: settlement.penalty,
      refund: settlement.refund,
      credited: settlement.credited,
      target_sale_id: settlement.targetSaleId,
      credit_payment_id: creditPaymentId,
      reason,
      created_by: actor,
      created_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('sale_settlement_payments')
    .values(paid.payments.map((p) => ({ settlement_id: stored.id, payment_id: p.id, amount: p.amount })))
    .execute();
  await recordChange(trx, audit, {
    entity: 'sale_settlements',
    recordId: stored.id,
    action: 'CREATE',
    after: await trx.selectFrom('sale_settlements').selectAll().where('id', '=', stored.id).executeTakeFirst(),
  });
  return stored.id;
}
