import { Decimal } from 'decimal.js';
import { Temporal } from 'temporal-polyfill';
import { MAX_DAILY_AMOUNT_CENTS, MAX_GRACE_DAYS, MAX_MONTHLY_PERCENT, type LateFeePolicy } from '../../schemas/finanzas/late-fees';

export {
  DEFAULT_LATE_FEE_POLICY,
  LATE_FEE_KINDS,
  MAX_DAILY_AMOUNT_CENTS,
  MAX_GRACE_DAYS,
  MAX_MONTHLY_PERCENT,
  type LateFeeKind,
  type LateFeePolicy,
} from '../../schemas/finanzas/late-fees';

/**
 * Late fees (moras) of instalments — one module for the server's daily job (what is stored) and the
 * browser (the statement). Rules: ../shared/design/DOMAIN.md "Sales cycle" → "Late fee" (policy per
 * subdivision: grace days, default 3; MONTO_DIARIO, default S/ 5.00 a day, or PORCENTAJE_MENSUAL;
 * a cap) and docs/decisions.md "Payments: late fees":
 *
 * - A day is late once the grace has passed: the days after `dueDate + graceDays`, up to the day
 *   the fee is figured (`asOf`, inclusive). The grace is a tolerance that is not charged afterwards:
 *   paid on day 3 of 3, nothing; paid on day 5, two days.
 * - A late day accrues while the instalment's amount is not fully paid by the end of that day (a
 *   payment dated that day covers it).
 * - MONTO_DIARIO: `dailyAmountCents` per late day. PORCENTAJE_MENSUAL: each late day accrues
 *   `monthlyPercent` / 30 of what was still unpaid that day (decimal.js, rounded half-up to the
 *   céntimo once, on the total).
 * - The total never exceeds `capCents` (when set).
 *
 * The figure is a pure function of the policy, the instalment, the payments to its amount and the
 * date: the daily job can run twice, or after days of downtime, and store the same figures. The BCRP
 * caps moratory rates between parties outside the financial system and updates the cap every six
 * months (Circular 0008-2021-BCRP): the company keeps its policy under it; the software bounds it
 * at {@link MAX_MONTHLY_PERCENT}.
 */

/** decimal.js with 40 significant digits, half-up (as src/lib/comercio/schedule.ts). */
const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** What an instalment's late fee is figured from. */
export interface LateFeeInstalment {
  dueDate: Temporal.PlainDate;
  /** The instalment's amount (capital and interest), céntimos. */
  amountCents: number;
  /** Approved payments to its amount (not to its fee): the date each was made and how much. Any order. */
  payments: ReadonlyArray<{ date: Temporal.PlainDate; amountCents: number }>;
}

/** The first day that can be late: the day after the grace ends. */
export function firstLateDay(dueDate: Temporal.PlainDate, graceDays: number): Temporal.PlainDate {
  return dueDate.add({ days: graceDays + 1 });
}

/**
 * Days late of an instalment on `asOf`: late days so far (0 within the grace, and 0 once fully paid
 * before the grace ended); what the heat map and the ageing buckets count.
 */
export function daysLate(policy: Pick<LateFeePolicy, 'graceDays'>, instalment: LateFeeInstalment, asOf: Temporal.PlainDate): number {
  return lateSegments(policy.graceDays, instalment, asOf).reduce((days, s) => days + s.days, 0);
}

/**
 * The late fee accrued by `instalment` up to `asOf` (inclusive), in céntimos.
 * @throws RangeError when the policy is out of its bounds (a caller's bug: policies are validated when saved).
 */
export function accruedLateFee(policy: LateFeePolicy, instalment: LateFeeInstalment, asOf: Temporal.PlainDate): number {
  checkPolicy(policy);
  const segments = lateSegments(policy.graceDays, instalment, asOf);
  let fee: Decimal;
  if (policy.kind === 'MONTO_DIARIO') {
    fee = new Dec(policy.dailyAmountCents).times(segments.reduce((days, s) => days + s.days, 0));
  } else {
    const daily = new Dec(policy.monthlyPercent).div(100).div(30);
    fee = segments.reduce((total, s) => total.plus(new Dec(s.unpaidCents).times(daily).times(s.days)), new Dec(0));
  }
  const cents = fee.toDecimalPlaces(0).toNumber();
  return policy.capCents === null ? cents : Math.min(cents, policy.capCents);
}

/** Late days in runs of the same unpaid amount. */
function lateSegments(
  graceDays: number,
  instalment: LateFeeInstalment,
  asOf: Temporal.PlainDate,
): Array<{ days: number; unpaidCents: number }> {
  const start = firstLateDay(instalment.dueDate, graceDays);
  if (Temporal.PlainDate.compare(asOf, start) < 0) return [];
  // Unpaid at the end of each day: the amount less every payment dated that day or before.
  const payments = [...instalment.payments].sort((a, b) => Temporal.PlainDate.compare(a.date, b.date));
  let unpaid = instalment.amountCents;
  let i = 0;
  while (i < payments.length && Temporal.PlainDate.compare(payments[i]!.date, start) <= 0) unpaid -= payments[i++]!.amountCents;
  const segments: Array<{ days: number; unpaidCents: number }> = [];
  let from = start;
  while (unpaid > 0 && Temporal.PlainDate.compare(from, asOf) <= 0) {
    // The run lasts until the day before the next payment (or asOf).
    const next = payments[i];
    const nextDate = next && Temporal.PlainDate.compare(next.date, asOf) <= 0 ? next.date : null;
    const end = nextDate ? nextDate.subtract({ days: 1 }) : asOf;
    const days = from.until(end, { largestUnit: 'days' }).days + 1;
    if (days > 0) segments.push({ days, unpaidCents: unpaid });
    if (!nextDate) break;
    // Every payment of that day, then the day itself is counted with what is left.
    while (i < payments.length && Temporal.PlainDate.compare(payments[i]!.date, nextDate) === 0) unpaid -= payments[i++]!.amountCents;
    from = nextDate;
  }
  return segments;
}

function checkPolicy(policy: LateFeePolicy): void {
  const percent = new Dec(policy.monthlyPercent);
  if (
    !Number.isInteger(policy.graceDays) ||
    policy.graceDays < 0 ||
    policy.graceDays > MAX_GRACE_DAYS ||
    !Number.isInteger(policy.dailyAmountCents) ||
    policy.dailyAmountCents < 0 ||
    policy.dailyAmountCents > MAX_DAILY_AMOUNT_CENTS ||
    percent.isNegative() ||
    percent.greaterThan(MAX_MONTHLY_PERCENT) ||
    (policy.capCents !== null && (!Number.isInteger(policy.capCents) || policy.capCents < 0))
  )
    throw new RangeError('accruedLateFee: policy out of bounds');
}

/** States of an instalment (DOMAIN.md "Instalment"). */
export type InstalmentStatus = 'PENDIENTE' | 'PARCIAL' | 'PAGADA' | 'VENCIDA';

/**
 * The state of an instalment on `asOf` (DOMAIN.md "Instalment": PENDIENTE → PARCIAL → PAGADA,
 * VENCIDA once the due date plus the grace days has passed): PAGADA when its amount is fully paid;
 * otherwise VENCIDA from {@link firstLateDay} on (partly paid or not); otherwise PARCIAL when
 * something was paid, PENDIENTE when nothing was. Amounts in céntimos.
 */
export function instalmentStatus(
  policy: Pick<LateFeePolicy, 'graceDays'>,
  instalment: { dueDate: Temporal.PlainDate; amountCents: number; paidCents: number },
  asOf: Temporal.PlainDate,
): InstalmentStatus {
  if (instalment.paidCents >= instalment.amountCents) return 'PAGADA';
  if (Temporal.PlainDate.compare(asOf, firstLateDay(instalment.dueDate, policy.graceDays)) >= 0) return 'VENCIDA';
  return instalment.paidCents > 0 ? 'PARCIAL' : 'PENDIENTE';
}
