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
 * Late fees (moras) and days late of instalments — one module for the server (what approval, the
 * statement and the daily job store) and the browser (the statement). Rules: docs/domain.md
 * "Instalments, days late and late fees" (policy per subdivision: grace days, default 3;
 * MONTO_DIARIO, default S/ 5.00 a day, or PORCENTAJE_MENSUAL; a cap). One convention for every
 * figure:
 *
 * - **A payment counts from the day after its operation date.** A day is owed on what was unpaid
 *   at its start: the amount less every approved payment dated *before* it. So a payment's own day
 *   is a day it was still owed; what is asked on day D (the fee up to D) is exactly what remains
 *   accrued after a payment dated D is applied, and nothing a payment dated D pays is ever figured
 *   away by it.
 * - **Days late count from the due date** (as the SBS and collectors count them: ageing buckets,
 *   heat map, register): the days after `dueDate`, up to `asOf` inclusive, that began unpaid. An
 *   instalment is VENCIDA from the day after its due date while anything of it is unpaid.
 * - **The grace only decides when the fee starts**: a fee accrues on the late days after
 *   `dueDate + graceDays` ({@link firstFeeDay}); the grace days themselves are never charged (paid
 *   on the 3rd day of 3: nothing; paid on the 5th: the 4th and 5th, two days).
 * - MONTO_DIARIO: `dailyAmountCents` per fee day. PORCENTAJE_MENSUAL: each fee day accrues
 *   `monthlyPercent` / 30 of what was unpaid at its start (decimal.js, rounded half-up to the
 *   céntimo once, on the total). The total never exceeds `capCents` (when set).
 *
 * Every figure is a pure function of the policy, the instalment, its approved payments and the
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
  /** Approved payments to its amount (not to its fee): the operation date of each and how much. Any order. */
  payments: ReadonlyArray<{ date: Temporal.PlainDate; amountCents: number }>;
}

/** The first day a late fee accrues on: the day after the grace ends (`dueDate + graceDays + 1`). */
export function firstFeeDay(dueDate: Temporal.PlainDate, graceDays: number): Temporal.PlainDate {
  return dueDate.add({ days: graceDays + 1 });
}

/**
 * Days late of an instalment on `asOf`: the days after its due date, up to `asOf`, that began with
 * something unpaid (0 when it was paid in full by its due date). For an instalment still owed on
 * `asOf` this is `asOf − dueDate`; for one paid off on day P, `P − dueDate`. What the ageing buckets,
 * the heat map and the register count (docs/domain.md).
 */
export function daysLate(instalment: LateFeeInstalment, asOf: Temporal.PlainDate): number {
  return unpaidRuns(instalment, instalment.dueDate.add({ days: 1 }), asOf).reduce((days, run) => days + run.days, 0);
}

/**
 * The late fee accrued by `instalment` up to `asOf` (inclusive), in céntimos.
 * @throws RangeError when the policy is out of its bounds (a caller's bug: policies are validated when saved).
 */
export function accruedLateFee(policy: LateFeePolicy, instalment: LateFeeInstalment, asOf: Temporal.PlainDate): number {
  checkPolicy(policy);
  const runs = unpaidRuns(instalment, firstFeeDay(instalment.dueDate, policy.graceDays), asOf);
  let fee: Decimal;
  if (policy.kind === 'MONTO_DIARIO') {
    fee = new Dec(policy.dailyAmountCents).times(runs.reduce((days, run) => days + run.days, 0));
  } else {
    const daily = new Dec(policy.monthlyPercent).div(100).div(30);
    fee = runs.reduce((total, run) => total.plus(new Dec(run.unpaidCents).times(daily).times(run.days)), new Dec(0));
  }
  const cents = fee.toDecimalPlaces(0).toNumber();
  return policy.capCents === null ? cents : Math.min(cents, policy.capCents);
}

/**
 * The days from `from` to `asOf` (inclusive) that began with something of the instalment unpaid, in
 * runs of the same unpaid amount. What is unpaid at the start of a day is the amount less every
 * payment dated before that day (a payment counts from the day after its operation date).
 */
function unpaidRuns(
  instalment: LateFeeInstalment,
  from: Temporal.PlainDate,
  asOf: Temporal.PlainDate,
): Array<{ days: number; unpaidCents: number }> {
  if (Temporal.PlainDate.compare(asOf, from) < 0) return [];
  const payments = [...instalment.payments].sort((a, b) => Temporal.PlainDate.compare(a.date, b.date));
  let unpaid = instalment.amountCents;
  let i = 0;
  while (i < payments.length && Temporal.PlainDate.compare(payments[i]!.date, from) < 0) unpaid -= payments[i++]!.amountCents;
  const runs: Array<{ days: number; unpaidCents: number }> = [];
  let start = from;
  while (unpaid > 0 && Temporal.PlainDate.compare(start, asOf) <= 0) {
    // What is unpaid changes at the start of the day after the next payment (dated on or after `start`).
    const next = payments[i];
    const change = next ? next.date.add({ days: 1 }) : null;
    const changesInRange = change !== null && Temporal.PlainDate.compare(change, asOf) <= 0;
    const end = changesInRange ? change.subtract({ days: 1 }) : asOf;
    runs.push({ days: start.until(end, { largestUnit: 'days' }).days + 1, unpaidCents: unpaid });
    if (!changesInRange) break;
    while (i < payments.length && Temporal.PlainDate.compare(payments[i]!.date, next!.date) === 0) unpaid -= payments[i++]!.amountCents;
    start = change;
  }
  return runs;
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
 * The state of an instalment on `asOf` (docs/domain.md "Instalments, days late and late fees"):
 * PAGADA when its amount is fully paid; otherwise VENCIDA from the day after its due date (partly
 * paid or not); otherwise PARCIAL when something was paid, PENDIENTE when nothing was. Amounts in
 * céntimos.
 */
export function instalmentStatus(
  instalment: { dueDate: Temporal.PlainDate; amountCents: number; paidCents: number },
  asOf: Temporal.PlainDate,
): InstalmentStatus {
  if (instalment.paidCents >= instalment.amountCents) return 'PAGADA';
  if (Temporal.PlainDate.compare(asOf, instalment.dueDate) > 0) return 'VENCIDA';
  return instalment.paidCents > 0 ? 'PARCIAL' : 'PENDIENTE';
}
