import { daysBetween } from '../dates';
import { DUE_SOON_DAYS, PAYMENT_BUCKETS, type PaymentBucket } from '../../schemas/comercio/payment-map';

/**
 * The payment bucket of a sold lot (Mapa de Pagos, issue 16; docs/decisions.md "Mapa de Pagos") and
 * the days late the heat map shows — one rule for the server's answers and the browser.
 *
 * Days late follow src/lib/finanzas/late-fees.ts `daysLate` (docs/domain.md "Instalments, days late
 * and late fees": counted from the due date, as the SBS and collectors count them; the grace only
 * delays the late fee). For the oldest instalment still owed (paid < amount), days late on `today`
 * are `today − due date`, at least 0 — the same count Registro de Cuotas shows and filters by. (An
 * instalment owed today was owed on every earlier day, so every day since its due date is late.)
 */

/** Days late of a sale on `today` (YYYY-MM-DD) whose oldest owed instalment is due `oldestOwedDue` (null: nothing owed). */
export function saleDaysLate(oldestOwedDue: string | null, today: string): number {
  if (oldestOwedDue === null) return 0;
  return Math.max(0, daysBetween(oldestOwedDue, today));
}

/**
 * The bucket of a sold lot on `today`:
 * - CANCELADO when nothing is owed (`balance` 0, or no owed instalment);
 * - D1_30 / D31_60 / D61_90 / MAS_90 by {@link saleDaysLate} (1–30, 31–60, 61–90, ≥ 91);
 * - VENCE_7 when nothing is late yet and the oldest owed instalment is due within 7 days (today
 *   included);
 * - AL_DIA otherwise.
 * @param oldestOwedDue YYYY-MM-DD of the oldest instalment with paid < amount, null when none.
 * @param balance what is still owed, céntimos.
 */
export function paymentBucketOf(sale: { oldestOwedDue: string | null; balance: number }, today: string): PaymentBucket {
  if (sale.oldestOwedDue === null || sale.balance <= 0) return 'CANCELADO';
  const late = saleDaysLate(sale.oldestOwedDue, today);
  if (late > 90) return 'MAS_90';
  if (late > 60) return 'D61_90';
  if (late > 30) return 'D31_60';
  if (late > 0) return 'D1_30';
  return daysBetween(today, sale.oldestOwedDue) <= DUE_SOON_DAYS ? 'VENCE_7' : 'AL_DIA';
}

/** Sums per bucket (every bucket, legend order) of sold lots' overdue amounts and balances (céntimos). */
export function summariseBuckets(
  lots: ReadonlyArray<{ bucket: PaymentBucket; overdue: number; balance: number }>,
): Array<{ bucket: PaymentBucket; lots: number; overdue: number; balance: number }> {
  const sums = new Map(PAYMENT_BUCKETS.map((bucket) => [bucket, { bucket, lots: 0, overdue: 0, balance: 0 }]));
  for (const lot of lots) {
    const s = sums.get(lot.bucket)!;
    s.lots += 1;
    s.overdue += lot.overdue;
    s.balance += lot.balance;
  }
  return [...sums.values()];
}
