import { Temporal } from 'temporal-polyfill';

/**
 * Rescission of a sale for unpaid instalments (resolución por incumplimiento; docs/domain.md
 * "Rescission") — the pure rules the preview, the confirmation and the tests share. Money in
 * integer céntimos; dates ISO `YYYY-MM-DD` (Lima).
 *
 * - Código Civil art. 1561: when the price is payable in instalments, the seller may resolve the
 *   contract for the non-payment of three or more of them, successive or not. The number is the
 *   subdivision's `rescission_overdue_instalments` (default 3). An instalment counts when it is
 *   **overdue and unpaid**: its due date is before today and something of its amount is unpaid —
 *   the project's VENCIDA (docs/domain.md "Instalments, days late and late fees"). Down-payment
 *   parts (INICIAL) are instalments of the price too and count the same.
 * - Art. 1562: once the buyer has paid a given share of the price, the seller can no longer
 *   resolve and may only claim the balance. `rescission_paid_share_limit_pct` (null = no limit):
 *   resolution is blocked when paid to the schedule's amounts ≥ that percent of the final price.
 * - Art. 1563: on resolution the seller returns what was paid, keeping the agreed penalty:
 *   penalty = `rescission_penalty_pct` % of the approved money paid, rounded half-up to the
 *   céntimo; refund = paid − penalty. So paid = penalty + refund exactly.
 */

/** A schedule row as the rescission reads it. */
export interface RescissionRow {
  kind: string;
  number: number;
  /** ISO `YYYY-MM-DD`. */
  dueDate: string;
  amountCents: number;
  paidCents: number;
}

/** An unpaid row with its days late on the day of the check. */
export interface UnpaidRow extends RescissionRow {
  unpaidCents: number;
  /** `today − dueDate` in days when overdue, else 0 (days late count from the due date). */
  daysLate: number;
  overdue: boolean;
}

/**
 * The rows with something unpaid on `today`, in schedule order, each with its days late — counted
 * from the due date, as everywhere in the project — and whether it is overdue (due before today).
 */
export function unpaidRows(rows: readonly RescissionRow[], today: string): UnpaidRow[] {
  const day = Temporal.PlainDate.from(today);
  return rows
    .filter((r) => r.paidCents < r.amountCents)
    .map((r) => {
      const due = Temporal.PlainDate.from(r.dueDate);
      const overdue = Temporal.PlainDate.compare(due, day) < 0;
      return {
        ...r,
        unpaidCents: r.amountCents - r.paidCents,
        daysLate: overdue ? due.until(day, { largestUnit: 'days' }).days : 0,
        overdue,
      };
    });
}

/**
 * The penalty kept on resolution (Código Civil art. 1563): `percent` % of `paidCents`, rounded
 * half-up to the céntimo (integer arithmetic: exact for any amount the schemas accept).
 * @throws RangeError when `paidCents` is not a non-negative safe integer or `percent` not an integer 0 … 100.
 */
export function rescissionPenalty(paidCents: number, percent: number): number {
  if (!Number.isSafeInteger(paidCents) || paidCents < 0) throw new RangeError('paidCents');
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new RangeError('percent');
  const product = BigInt(paidCents) * BigInt(percent);
  return Number((product + 50n) / 100n);
}

/** What was paid split into the penalty kept and the refund owed: paid = penalty + refund (art. 1563). */
export function splitPaid(paidCents: number, percent: number): { penaltyCents: number; refundCents: number } {
  const penaltyCents = rescissionPenalty(paidCents, percent);
  return { penaltyCents, refundCents: paidCents - penaltyCents };
}

/**
 * Whether art. 1562's limit blocks the resolution: `paidToPriceCents` (approved money applied to
 * the schedule's amounts, late fees apart) is at least `limitPct` % of `priceCents`. No limit
 * (null) never blocks.
 */
export function paidShareBlocks(paidToPriceCents: number, priceCents: number, limitPct: number | null): boolean {
  if (limitPct === null || priceCents <= 0) return false;
  return BigInt(paidToPriceCents) * 100n >= BigInt(limitPct) * BigInt(priceCents);
}

/** The paid share of the price in percent with two decimals, rounded down ("42.85"). */
export function paidSharePercent(paidToPriceCents: number, priceCents: number): string {
  if (priceCents <= 0) return '0.00';
  const hundredths = (BigInt(paidToPriceCents) * 10_000n) / BigInt(priceCents);
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}
