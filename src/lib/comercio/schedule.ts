import { Decimal } from 'decimal.js';
import { Temporal } from 'temporal-polyfill';

/**
 * Payment schedules (cronogramas) of quotes and sales — one module for the server (what is stored)
 * and the browser (the simulation shown before confirming). Rules: ../shared/design/DOMAIN.md
 * "Sales cycle" → "Schedule"; docs/decisions.md "Schedules".
 *
 * - Amounts are integer céntimos; interest is computed with decimal.js (never binary floats) and
 *   rounded half-up to the céntimo.
 * - SIN_INTERES: equal instalments of the amount financed.
 * - INTERES_SIMPLE (flat): interest = financed × monthly rate × instalments, capital and interest
 *   each split equally.
 * - FRANCES (French annuity): c = P·i / (1 − (1 + i)^−n); each row's interest = balance × i and
 *   capital = c − interest.
 * - In every method the remainders go on the last instalment, so the capital adds up exactly to
 *   the amount financed and no row is negative.
 * - Due dates are monthly on the first due date's day, clamped to the month's end (31 Jan → 28/29
 *   Feb → 31 Mar: each date counts from the first, so the 31st comes back).
 */

/** decimal.js with 40 significant digits (its default, 20, is enough; 40 leaves no doubt at 360 months), half-up. */
const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
type Dec = Decimal;

/** Schedule methods (DOMAIN.md "Schedule"). */
export const SCHEDULE_METHODS = ['SIN_INTERES', 'INTERES_SIMPLE', 'FRANCES'] as const;
export type ScheduleMethod = (typeof SCHEDULE_METHODS)[number];

/** Longest term: 360 monthly instalments (30 years). */
export const MAX_INSTALMENTS = 360;
/** Highest monthly rate accepted, in percent (5 % a month; under the BCRP caps for non-financial lenders). */
export const MAX_MONTHLY_RATE_PERCENT = 5;
/** Largest amount financed: S/ 1 000 000 000.00 in céntimos (bounded work and exact doubles). */
export const MAX_FINANCED_CENTS = 100_000_000_000;

/** What a schedule is computed from. */
export interface ScheduleInput {
  /** Amount financed, integer céntimos, 0 … MAX_FINANCED_CENTS. */
  financedCents: number;
  /** Number of monthly instalments, 1 … MAX_INSTALMENTS. */
  instalments: number;
  /** Monthly rate in percent (e.g. "1.5" or 1.5 for 1.5 % a month), 0 … MAX_MONTHLY_RATE_PERCENT; ignored by SIN_INTERES. */
  monthlyRatePercent: number | string;
  method: ScheduleMethod;
  /** Due date of instalment 1; the others fall on the same day of the following months. */
  firstDueDate: Temporal.PlainDate;
}

/** One instalment of a schedule. All amounts in integer céntimos. */
export interface ScheduleRow {
  /** 1-based. */
  number: number;
  dueDate: Temporal.PlainDate;
  /** capital + interest. */
  amountCents: number;
  capitalCents: number;
  interestCents: number;
  /** Capital still owed after this instalment (0 after the last). */
  balanceCents: number;
}

/**
 * The `count` monthly due dates from `first`: `first`, then `first` plus 1, 2, … months, each
 * clamped to the end of its month (Temporal's `overflow: 'constrain'`).
 * @throws RangeError when `count` is not an integer 0 … MAX_INSTALMENTS.
 */
export function monthlyDueDates(first: Temporal.PlainDate, count: number): Temporal.PlainDate[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_INSTALMENTS)
    throw new RangeError(`count must be an integer 0–${MAX_INSTALMENTS}`);
  return Array.from({ length: count }, (_, k) => first.add({ months: k }, { overflow: 'constrain' }));
}

/**
 * `totalCents` in `parts` equal integer parts, the remainder on the last one (e.g. a down payment
 * split into interest-free instalments).
 * @throws RangeError when `totalCents` is not a non-negative integer or `parts` not an integer 1 … MAX_INSTALMENTS.
 */
export function splitEvenly(totalCents: number, parts: number): number[] {
  assertCents(totalCents, Number.MAX_SAFE_INTEGER);
  assertInstalments(parts);
  const share = Math.floor(totalCents / parts);
  return Array.from({ length: parts }, (_, k) => (k === parts - 1 ? totalCents - share * (parts - 1) : share));
}

/**
 * The French annuity instalment c = P·i / (1 − (1 + i)^−n) in céntimos, rounded half-up (as a
 * spreadsheet's ROUND(PMT(i, n, −P), 2)); P / n when i = 0.
 * @param monthlyRatePercent as in {@link ScheduleInput}. @throws RangeError as {@link buildSchedule}.
 */
export function frenchInstalmentCents(financedCents: number, instalments: number, monthlyRatePercent: number | string): number {
  assertCents(financedCents, MAX_FINANCED_CENTS);
  assertInstalments(instalments);
  return annuity(financedCents, instalments, monthlyRate(monthlyRatePercent));
}

function annuity(financedCents: number, instalments: number, rate: Dec): number {
  const principal = new Dec(financedCents);
  if (rate.isZero()) return toCents(principal.div(instalments));
  return toCents(principal.times(rate).div(new Dec(1).minus(rate.plus(1).pow(-instalments))));
}

/** Half-up to the céntimo. */
const toCents = (value: Dec): number => value.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

/**
 * Computes a schedule (see the module's rules).
 * @returns `instalments` rows: Σ capital = financedCents exactly, every amount ≥ 0, due dates strictly increasing.
 * @throws RangeError on an amount, term or rate out of its range (bounds above).
 */
export function buildSchedule(input: ScheduleInput): ScheduleRow[] {
  const { financedCents: principal, instalments: n, method, firstDueDate } = input;
  assertCents(principal, MAX_FINANCED_CENTS);
  assertInstalments(n);
  const rate = monthlyRate(input.monthlyRatePercent);
  const dates = monthlyDueDates(firstDueDate, n);

  let capitals: number[];
  let interests: number[];
  if (method === 'SIN_INTERES' || rate.isZero()) {
    capitals = splitEvenly(principal, n);
    interests = new Array<number>(n).fill(0);
  } else if (method === 'INTERES_SIMPLE') {
    const totalInterest = toCents(new Dec(principal).times(rate).times(n));
    capitals = splitEvenly(principal, n);
    interests = splitEvenly(totalInterest, n);
  } else {
    const instalment = annuity(principal, n, rate);
    capitals = [];
    interests = [];
    let balance = principal;
    for (let k = 0; k < n; k++) {
      const interest = toCents(new Dec(balance).times(rate));
      // The last row takes what is left; before it, capital = c − interest (never below 0, never above the balance).
      const capital = k === n - 1 ? balance : Math.min(balance, Math.max(0, instalment - interest));
      capitals.push(capital);
      interests.push(interest);
      balance -= capital;
    }
  }

  let balance = principal;
  return dates.map((dueDate, k) => {
    const capitalCents = capitals[k]!;
    const interestCents = interests[k]!;
    balance -= capitalCents;
    return { number: k + 1, dueDate, amountCents: capitalCents + interestCents, capitalCents, interestCents, balanceCents: balance };
  });
}

/** A monthly rate in percent → a fraction, checked. @throws RangeError outside 0 … MAX_MONTHLY_RATE_PERCENT or not a number. */
function monthlyRate(percent: number | string): Dec {
  let value: Dec;
  try {
    value = new Dec(String(percent).trim());
  } catch {
    throw new RangeError('monthlyRatePercent must be a number');
  }
  if (!value.isFinite() || value.isNegative() || value.greaterThan(MAX_MONTHLY_RATE_PERCENT))
    throw new RangeError(`monthlyRatePercent must be 0–${MAX_MONTHLY_RATE_PERCENT}`);
  return value.div(100);
}

function assertInstalments(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_INSTALMENTS) throw new RangeError(`instalments must be an integer 1–${MAX_INSTALMENTS}`);
}

function assertCents(value: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new RangeError(`amount must be an integer of céntimos 0–${max}`);
}
