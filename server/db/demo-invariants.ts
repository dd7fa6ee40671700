import type { Kysely } from 'kysely';
import type { DB } from './database';
import { saleStatusFor } from '../../src/lib/finanzas/sale-ledger';
import { isEndedSale } from '../../src/schemas/comercio/sales';

/**
 * The money invariants of a database's payments and schedules (docs/testing.md "The demo seed"):
 * what the demo seed must leave, and what any database should hold. Checked by `npm run check:demo`
 * (scripts/check-demo.ts) and by tests/server/demo-invariants.test.ts on both dialects.
 *
 * Rules (docs/domain.md, payments and late fees):
 * - `fee-over-paid`: an instalment's late fee paid ≤ its fee accrued + waived;
 * - `instalment-over-paid`: 0 ≤ paid ≤ amount per instalment;
 * - `instalment-status`: PAGADA exactly when paid = amount;
 * - `allocations-unbalanced`: an APROBADO payment of a sale allocates exactly its amount;
 * - `allocation-not-approved`: no allocation belongs to a payment that is not APROBADO (or ANULADO:
 *   its allocations are the record of what was released, and give nothing);
 * - `instalment-allocations`: an instalment's paid and fee paid are what the approved allocations gave it;
 * - `sale-paid`: a sale's `paid` is the sum of its instalments';
 * - `sale-status`: a sale's status (other than REGISTRADA or ANULADA) is the one its instalments put it in
 *   (`saleStatusFor`, src/lib/finanzas/sale-ledger.ts);
 * - `receipts`: per series the receipt numbers run 1…n without gaps or repeats, n is the series'
 *   counter, and only APROBADO payments (or ANULADO ones, which keep theirs) hold one.
 */

/** One broken rule: its name (above), the row it was found on (`table#id`), what was found. */
export interface DemoViolation {
  rule: string;
  subject: string;
  detail: string;
}

/**
 * Checks every rule above over the whole database (reads only; loads the schedules and allocations
 * into memory, a few MB for the demo).
 * @returns the violations found, by rule then row; empty when all hold.
 */
export async function checkDemoInvariants(db: Kysely<DB>): Promise<DemoViolation[]> {
  const found: DemoViolation[] = [];
  const report = (rule: string, subject: string, detail: string) => found.push({ rule, subject, detail });

  const instalments = await db
    .selectFrom('sale_instalments')
    .select(['id', 'sale_id', 'kind', 'amount', 'paid', 'status', 'late_fee_accrued', 'late_fee_paid', 'late_fee_waived'])
    .orderBy('id')
    .execute();
  const payments = await db
    .selectFrom('payments')
    .select(['id', 'sale_id', 'amount', 'status', 'receipt_series', 'receipt_number'])
    .orderBy('id')
    .execute();
  const allocations = await db
    .selectFrom('payment_allocations')
    .select(['payment_id', 'instalment_id', 'to_capital', 'to_late_fee'])
    .execute();
  const sales = await db.selectFrom('sales').select(['id', 'status', 'paid']).orderBy('id').execute();
  const counters = await db.selectFrom('receipt_counters').select(['series', 'last_number']).execute();

  for (const i of instalments) {
    const [amount, paid] = [Number(i.amount), Number(i.paid)];
    const [accrued, feePaid, waived] = [Number(i.late_fee_accrued), Number(i.late_fee_paid), Number(i.late_fee_waived)];
    if (feePaid > accrued + waived)
      report('fee-over-paid', `sale_instalments#${i.id}`, `late fee paid ${feePaid} > accrued ${accrued} + waived ${waived}`);
    if (paid < 0 || paid > amount) report('instalment-over-paid', `sale_instalments#${i.id}`, `paid ${paid} of ${amount}`);
    if ((i.status === 'PAGADA') !== (paid === amount))
      report('instalment-status', `sale_instalments#${i.id}`, `status ${i.status} with paid ${paid} of ${amount}`);
  }

  const paymentById = new Map(payments.map((p) => [p.id, p]));
  const allocatedByPayment = new Map<number, number>();
  const givenByInstalment = new Map<number, { capital: number; fee: number }>();
  for (const a of allocations) {
    const payment = paymentById.get(a.payment_id);
    // An ANULADO payment's allocations stay as the record of what was released (an annulled or
    // resolved sale's settlement, an annulled payment: docs/domain.md "Annulling a sale", "Rescission").
    if (payment?.status === 'ANULADO') continue;
    if (payment?.status !== 'APROBADO') {
      report(
        'allocation-not-approved',
        `payments#${a.payment_id}`,
        `allocation to instalment ${a.instalment_id} of a ${payment?.status ?? 'missing'} payment`,
      );
      continue;
    }
    allocatedByPayment.set(a.payment_id, (allocatedByPayment.get(a.payment_id) ?? 0) + Number(a.to_capital) + Number(a.to_late_fee));
    const given = givenByInstalment.get(a.instalment_id) ?? { capital: 0, fee: 0 };
    givenByInstalment.set(a.instalment_id, { capital: given.capital + Number(a.to_capital), fee: given.fee + Number(a.to_late_fee) });
  }
  for (const p of payments) {
    if (p.status !== 'APROBADO' || p.sale_id === null) continue;
    const allocated = allocatedByPayment.get(p.id) ?? 0;
    if (allocated !== Number(p.amount))
      report('allocations-unbalanced', `payments#${p.id}`, `allocated ${allocated} of ${Number(p.amount)}`);
  }
  for (const i of instalments) {
    const given = givenByInstalment.get(i.id) ?? { capital: 0, fee: 0 };
    if (given.capital !== Number(i.paid) || given.fee !== Number(i.late_fee_paid))
      report(
        'instalment-allocations',
        `sale_instalments#${i.id}`,
        `paid ${Number(i.paid)} and fee paid ${Number(i.late_fee_paid)}, allocations give ${given.capital} and ${given.fee}`,
      );
  }

  const rowsBySale = new Map<number, typeof instalments>();
  for (const i of instalments) rowsBySale.set(i.sale_id, [...(rowsBySale.get(i.sale_id) ?? []), i]);
  for (const s of sales) {
    const rows = rowsBySale.get(s.id) ?? [];
    const sum = rows.reduce((total, r) => total + Number(r.paid), 0);
    if (sum !== Number(s.paid)) report('sale-paid', `sales#${s.id}`, `paid ${Number(s.paid)}, its instalments ${sum}`);
    if (isEndedSale(s.status) || s.status === 'REGISTRADA' || rows.length === 0) continue;
    const expected = saleStatusFor(rows.map((r) => ({ kind: r.kind, amountCents: Number(r.amount), paidCents: Number(r.paid) })));
    if (expected !== s.status) report('sale-status', `sales#${s.id}`, `status ${s.status}, its instalments say ${expected}`);
  }

  for (const p of payments)
    // An annulled payment keeps its number (no gaps; the reprint says ANULADO).
    if (p.receipt_number !== null && p.status !== 'APROBADO' && p.status !== 'ANULADO')
      report('receipts', `payments#${p.id}`, `receipt ${p.receipt_series}-${p.receipt_number} on a ${p.status} payment`);
  for (const { series, last_number } of counters) {
    const numbers = payments
      .filter((p) => p.receipt_series === series && p.receipt_number !== null)
      .map((p) => Number(p.receipt_number))
      .sort((a, b) => a - b);
    const gap = numbers.findIndex((n, k) => n !== k + 1);
    if (gap >= 0 || numbers.length !== Number(last_number))
      report(
        'receipts',
        `receipt_counters#${series}`,
        `${numbers.length} numbers, counter ${Number(last_number)}${gap >= 0 ? `, number ${gap + 1} missing or repeated` : ''}`,
      );
  }
  return found;
}
