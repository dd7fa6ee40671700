import { Temporal } from 'temporal-polyfill';
import { allocatePayment, oldestFirst, type Allocation, type OpenInstalment } from './allocation';
import { accruedLateFee, instalmentStatus, type InstalmentStatus, type LateFeePolicy } from './late-fees';

/**
 * A sale's account as the money rules see it — one module for what is asked (the customer's
 * PagoYape amount, the registration's check), what is previewed (the allocation a reviewer sees
 * before "Aprobar") and what is applied (approval, the daily job), so all of them figure the same
 * thing on the same date (docs/domain.md "Instalments, days late and late fees", "Payments").
 * Pure: the server reads the rows from the database and stores what these functions return; the
 * fast-check properties of tests/unit/lib/finanzas/sale-ledger.test.ts drive the same functions
 * through random sequences of payments, annulments, waivers and days.
 *
 * All amounts are integer céntimos of the sale's currency; dates are ISO `YYYY-MM-DD` (Lima).
 */

/** One schedule row of a sale, with what was applied to it. */
export interface LedgerRow {
  id: number;
  /** INICIAL (a part of the down payment) or CUOTA. */
  kind: string;
  number: number;
  /** ISO `YYYY-MM-DD`. */
  dueDate: string;
  /** The instalment's amount (capital and interest). */
  amountCents: number;
  /** Paid towards the amount: the sum of `payments`. */
  paidCents: number;
  /** Paid towards its late fee. */
  lateFeePaidCents: number;
  /** Late fee waived by staff (with a reason). */
  lateFeeWaivedCents: number;
  /** The approved payments to its amount, each dated by its operation date. */
  payments: ReadonlyArray<{ date: string; amountCents: number }>;
}

/** The figures of one row on a date. */
export interface RowFigures {
  id: number;
  /**
   * The late fee accrued, as stored and shown: the rules' figure, or what was already paid towards it
   * when that is more (a fee paid under the policy in force when it was paid is never taken back by a
   * later change of the subdivision's policy).
   */
  accruedCents: number;
  /** The rules' figure alone (src/lib/finanzas/late-fees.ts). */
  figureCents: number;
  status: InstalmentStatus;
}

const plain = (iso: string) => Temporal.PlainDate.from(iso);

/** The figures of every row on `asOf`, in the order of `rows`. */
export function figuresOn(policy: LateFeePolicy, rows: readonly LedgerRow[], asOf: string): RowFigures[] {
  const day = plain(asOf);
  return rows.map((row) => {
    const instalment = {
      dueDate: plain(row.dueDate),
      amountCents: row.amountCents,
      payments: row.payments.map((p) => ({ date: plain(p.date), amountCents: p.amountCents })),
    };
    const figureCents = accruedLateFee(policy, instalment, day);
    return {
      id: row.id,
      figureCents,
      accruedCents: Math.max(figureCents, row.lateFeePaidCents),
      status: instalmentStatus({ dueDate: instalment.dueDate, amountCents: row.amountCents, paidCents: row.paidCents }, day),
    };
  });
}

/** A row with something owed, as {@link allocatePayment} takes it, with its kind and number. */
export type OwedRow = OpenInstalment & { kind: string; number: number };

/**
 * What is owed on each row on `date`: its amount less what was paid, and its late fee figured up
 * to `date` less what was paid or waived (never below 0). Rows owing nothing are left out; the
 * schedule order (`rows`' order) is kept in `order`.
 */
export function owedOn(policy: LateFeePolicy, rows: readonly LedgerRow[], date: string): OwedRow[] {
  const figures = figuresOn(policy, rows, date);
  return rows
    .map((row, order) => ({
      id: row.id,
      kind: row.kind,
      number: row.number,
      dueDate: row.dueDate,
      order,
      amountDueCents: Math.max(0, row.amountCents - row.paidCents),
      lateFeeDueCents: Math.max(0, figures[order]!.figureCents - row.lateFeePaidCents - row.lateFeeWaivedCents),
    }))
    .filter((r) => r.amountDueCents > 0 || r.lateFeeDueCents > 0);
}

/** Everything owed on `date` (amounts and late fees). */
export function debtOn(policy: LateFeePolicy, rows: readonly LedgerRow[], date: string): number {
  return owedOn(policy, rows, date).reduce((sum, r) => sum + r.amountDueCents + r.lateFeeDueCents, 0);
}

/** `rows` with `allocations` applied by a payment dated `date`. */
export function withAllocations(rows: readonly LedgerRow[], allocations: readonly Allocation[], date: string): LedgerRow[] {
  const byId = new Map(allocations.map((a) => [a.instalmentId, a]));
  return rows.map((row) => {
    const a = byId.get(row.id);
    if (!a) return row;
    return {
      ...row,
      paidCents: row.paidCents + a.toAmountCents,
      lateFeePaidCents: row.lateFeePaidCents + a.toLateFeeCents,
      payments: a.toAmountCents > 0 ? [...row.payments, { date, amountCents: a.toAmountCents }] : row.payments,
    };
  });
}

/** A row whose late fee on today a payment changes: its figure before and after the payment. */
export interface FeeChange {
  instalmentId: number;
  kind: string;
  number: number;
  beforeCents: number;
  afterCents: number;
}

/** What applying a payment would do: see {@link planPayment}. */
export type PaymentPlan =
  | { ok: true; allocations: Allocation[]; feeChanges: FeeChange[]; after: LedgerRow[] }
  /** NOT_POSITIVE / EXCEEDS_DEBT: as {@link allocatePayment} (the debt is the one on the payment's date). */
  | { ok: false; error: 'NOT_POSITIVE' | 'EXCEEDS_DEBT'; debtCents: number }
  /**
   * The payment's date is earlier than payments already approved and it would lower a late fee
   * below what was already paid towards it: money collected as a fee that the rules no longer owe.
   */
  | {
      ok: false;
      error: 'TAKES_BACK_PAID_FEE';
      instalment: { id: number; kind: string; number: number };
      feePaidCents: number;
      afterCents: number;
    };

/**
 * Plans applying a payment of `amountCents` dated `date` to a sale's `rows`, as approval applies it
 * and the preview shows it: the allocation (src/lib/finanzas/allocation.ts: late fees first, then
 * amounts, oldest first) of what is owed **on the payment's date** ({@link owedOn}), the rows after
 * it, and the late fees on `today` that it changes. A payment dated today changes no fee (it counts
 * from tomorrow); one dated earlier lowers the fees of the days since (the customer had paid by
 * then), which the preview lists. It is refused when it would take back a fee already paid
 * (TAKES_BACK_PAID_FEE): approve the payments of a sale in the order of their dates, or annul the
 * later one first.
 * @param date the payment's operation date, ISO; not after `today`.
 */
export function planPayment(
  policy: LateFeePolicy,
  rows: readonly LedgerRow[],
  amountCents: number,
  date: string,
  today: string,
): PaymentPlan {
  const result = allocatePayment(owedOn(policy, rows, date), amountCents);
  if (!result.ok) return result;
  const after = withAllocations(rows, result.allocations, date);
  const before = figuresOn(policy, rows, today);
  const figured = figuresOn(policy, after, today);
  const feeChanges: FeeChange[] = [];
  for (const [i, row] of after.entries()) {
    const was = before[i]!.figureCents;
    const now = figured[i]!.figureCents;
    if (now === was) continue;
    if (now < was && now < row.lateFeePaidCents)
      return {
        ok: false,
        error: 'TAKES_BACK_PAID_FEE',
        instalment: { id: row.id, kind: row.kind, number: row.number },
        feePaidCents: row.lateFeePaidCents,
        afterCents: now,
      };
    feeChanges.push({ instalmentId: row.id, kind: row.kind, number: row.number, beforeCents: was, afterCents: now });
  }
  return { ok: true, allocations: result.allocations, feeChanges, after };
}

/** `rows` with a payment's `allocations` taken back (its annulment). */
export function withoutAllocations(rows: readonly LedgerRow[], allocations: readonly Allocation[], date: string): LedgerRow[] {
  const byId = new Map(allocations.map((a) => [a.instalmentId, a]));
  return rows.map((row) => {
    const a = byId.get(row.id);
    if (!a) return row;
    const payments = [...row.payments];
    const index = a.toAmountCents > 0 ? payments.findIndex((p) => p.date === date && p.amountCents === a.toAmountCents) : -1;
    if (index >= 0) payments.splice(index, 1);
    return {
      ...row,
      paidCents: row.paidCents - a.toAmountCents,
      lateFeePaidCents: row.lateFeePaidCents - a.toLateFeeCents,
      payments,
    };
  });
}

/** Sale states that follow from what is paid (docs/decisions.md "Payments: sale states"). */
export type PaidSaleStatus = 'REGISTRADA' | 'INICIAL_PENDIENTE' | 'EN_CUOTAS' | 'CANCELADA';

/**
 * The state a sale's payments put it in: everything paid → CANCELADA; the down payment (INICIAL
 * rows) paid with instalments left → EN_CUOTAS; something paid → INICIAL_PENDIENTE; nothing →
 * REGISTRADA.
 */
export function saleStatusFor(rows: ReadonlyArray<Pick<LedgerRow, 'kind' | 'amountCents' | 'paidCents'>>): PaidSaleStatus {
  const owed = (kind?: string) => rows.some((r) => (kind === undefined || r.kind === kind) && r.paidCents < r.amountCents);
  if (!owed()) return 'CANCELADA';
  if (!owed('INICIAL') && rows.some((r) => r.kind === 'CUOTA')) return 'EN_CUOTAS';
  return rows.some((r) => r.paidCents > 0) ? 'INICIAL_PENDIENTE' : 'REGISTRADA';
}

/** An approved payment of a reservation, credited when the reservation becomes a sale. */
export interface ReservationPayment {
  id: number;
  /** Operation date, ISO. */
  date: string;
  amountCents: number;
}

/** The allocations of one reservation payment to the new sale's rows. */
export interface CreditAllocation {
  paymentId: number;
  allocations: Allocation[];
}

/**
 * Credits a reservation's approved payments to a new sale's down payment (DOMAIN.md "Reservation":
 * only approved money is credited): each payment, oldest first, goes to the INICIAL rows oldest
 * first, as an allocation to their amounts (no late fee: the sale is new). Returns null when the
 * payments add up to more than the down payment (the caller refuses the sale).
 */
export function allocateReservationCredit(rows: readonly LedgerRow[], payments: readonly ReservationPayment[]): CreditAllocation[] | null {
  const open = oldestFirst(
    rows
      .map((r, order) => ({ id: r.id, dueDate: r.dueDate, order, kind: r.kind, left: r.amountCents - r.paidCents }))
      .filter((r) => r.kind === 'INICIAL' && r.left > 0),
  );
  const credits: CreditAllocation[] = [];
  for (const payment of [...payments].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id))) {
    let left = payment.amountCents;
    const allocations: Allocation[] = [];
    for (const row of open) {
      if (left === 0) break;
      const amount = Math.min(left, row.left);
      if (amount <= 0) continue;
      row.left -= amount;
      left -= amount;
      allocations.push({ instalmentId: row.id, toLateFeeCents: 0, toAmountCents: amount });
    }
    if (left > 0) return null;
    credits.push({ paymentId: payment.id, allocations });
  }
  return credits;
}
