import { Decimal } from 'decimal.js';
import type { ScheduleMethod } from './schedule';

/**
 * The cost of a credit as a Peruvian buyer expects to read it (docs/domain.md "Credit cost: TEA and
 * TCEA"): the TEA (tasa efectiva anual, the interest alone) and the TCEA (tasa de costo efectivo
 * anual: interest plus every commission and charge the borrower pays — Ley 28587 and the SBS
 * transparency rules, Resolución SBS 8181-2012). One module for the server (the quote PDF) and the
 * browser (the quote simulation, the contract stepper, the sale's schedule).
 *
 * - Rates are fractions (0.1956 = 19.56 %) in binary floats: they are shown, never charged, and a
 *   double carries far more digits than the two decimals printed. Money stays integer céntimos.
 * - TEA from a monthly effective rate i: TEA = (1 + i)^12 − 1.
 * - TCEA: the monthly internal rate of return r of the borrower's cash flows — at period 0 the
 *   amount financed less any up-front charge (received), at period k instalment k plus its charges
 *   (paid) — annualised as (1 + r)^12 − 1 (periods of 30 days in a year of 360: (1 + r)^(360/30) − 1).
 */

/** Longest cash flow the solver takes: 1 disbursement + 360 instalments (schedule.ts MAX_INSTALMENTS) + slack. */
const MAX_PERIODS = 400;
/** Bisection steps: the bracket halves each step; 200 steps reach a double's resolution from any bracket. */
const MAX_ITERATIONS = 200;
/**
 * Lowest monthly rate searched (−50 % a month: a quarter paid back after two months). Lower bounds
 * overflow a double over 400 periods ((1 − 0.5)^−400 = 2^400 still fits).
 */
const LOWEST_RATE = -0.5;
/** Highest monthly rate searched (10 000 % a month). */
const HIGHEST_RATE = 100;
/**
 * Below this difference (a fraction: 0.005 percentage points, half the last digit shown) a TCEA
 * without charges is the TEA: the gap comes from rounding each instalment to the céntimo.
 */
const ROUNDING_TOLERANCE = 0.00005;

/** The annual effective rate of a monthly effective rate (fractions): (1 + i)^12 − 1. */
export function annualFromMonthly(monthlyRate: number): number {
  return Math.pow(1 + monthlyRate, 12) - 1;
}

/**
 * The TEA of a monthly rate given in percent ("1.5" = 1.5 % a month), as a fraction.
 * @throws RangeError when the rate is not a finite number ≥ 0.
 */
export function teaFromMonthlyRatePercent(percent: number | string): number {
  let value: Decimal;
  try {
    value = new Decimal(String(percent).trim());
  } catch {
    throw new RangeError('monthlyRatePercent must be a number');
  }
  if (!value.isFinite() || value.isNegative()) throw new RangeError('monthlyRatePercent must be a number ≥ 0');
  return annualFromMonthly(value.div(100).toNumber());
}

/**
 * The periodic internal rate of return of cash flows at periods 0, 1, 2, … (flows[k] at period k;
 * received amounts positive, paid ones negative, or the reverse): the r with Σ flows[k]·(1+r)^−k = 0.
 * Solved by bisection on −50 % … 10 000 % a period, at most 200 steps (robust where Newton may
 * diverge; the net present value of a loan — one sign change — is monotone in r, so the root is unique).
 * @returns r as a fraction, or null when there is no root in the bracket (no sign change, e.g. all
 *   flows of one sign, or nothing financed).
 * @throws RangeError on more than 400 flows or a flow that is not finite.
 */
export function periodicIrr(flows: readonly number[]): number | null {
  if (flows.length > MAX_PERIODS) throw new RangeError(`at most ${MAX_PERIODS} flows`);
  if (flows.some((f) => !Number.isFinite(f))) throw new RangeError('flows must be finite numbers');
  if (flows.every((f) => f === 0)) return null;
  const npv = (rate: number) => {
    let total = 0;
    let factor = 1;
    const discount = 1 / (1 + rate);
    for (const flow of flows) {
      if (flow !== 0) total += flow * factor;
      factor *= discount;
    }
    return total;
  };
  let low = LOWEST_RATE;
  let high = HIGHEST_RATE;
  let npvLow = npv(low);
  const npvHigh = npv(high);
  if (npvLow === 0) return low;
  if (npvHigh === 0) return high;
  if (!(Math.sign(npvLow) * Math.sign(npvHigh) < 0)) return null;
  for (let k = 0; k < MAX_ITERATIONS; k++) {
    const mid = (low + high) / 2;
    const value = npv(mid);
    if (value === 0 || high - low < 1e-15) return mid;
    if (Math.sign(value) === Math.sign(npvLow)) {
      low = mid;
      npvLow = value;
    } else high = mid;
  }
  return (low + high) / 2;
}

/** What the cost of a credit is computed from. Amounts in integer céntimos. */
export interface CreditCostInput {
  /** How the schedule was computed (schedule.ts); SIN_INTERES has a TEA of 0. */
  method: ScheduleMethod | string;
  /** The agreed monthly rate in percent ("1.5"). FRANCES: an effective monthly rate; INTERES_SIMPLE: a flat rate. */
  monthlyRatePercent: number | string;
  /** Amount financed (received by the borrower at period 0). */
  financedCents: number;
  /** Each monthly instalment's amount (capital + interest), in order: instalment k at period k. */
  instalmentsCents: readonly number[];
  /** Commissions and charges paid at the start (deducted from what is received); 0 if none. */
  upfrontChargesCents?: number;
  /** Commissions and charges paid with each instalment (same order); none if absent. */
  instalmentChargesCents?: readonly number[];
}

/** TEA and TCEA as fractions (0.1956 = 19.56 %). */
export interface CreditCost {
  tea: number;
  tcea: number;
}

/**
 * The TEA and TCEA of a financed plan (docs/domain.md "Credit cost: TEA and TCEA").
 * - TEA: SIN_INTERES, or instalments adding up to the amount financed → 0; FRANCES → (1 + i)^12 − 1
 *   of the agreed rate; INTERES_SIMPLE (a flat rate,
 *   not an effective one) → the annual effective rate of the instalments' IRR against the amount financed.
 * - TCEA: the annual effective rate of the IRR of the flows with every charge; without charges a gap
 *   under 0.005 points from céntimo rounding is not shown (TCEA = TEA).
 * @returns null when nothing is financed or there are no instalments (cash: no credit to price), or
 *   when the flows have no rate (instalments summing to nothing).
 * @throws RangeError on a rate that is not a number ≥ 0, or a schedule longer than the solver takes.
 */
export function creditCost(input: CreditCostInput): CreditCost | null {
  const { financedCents, instalmentsCents } = input;
  if (financedCents <= 0 || instalmentsCents.length === 0) return null;
  const upfront = input.upfrontChargesCents ?? 0;
  const charges = input.instalmentChargesCents ?? [];
  const hasCharges = upfront > 0 || charges.some((c) => c > 0);

  let tea: number;
  const interestCents = instalmentsCents.reduce((sum, c) => sum + c, 0) - financedCents;
  if (input.method === 'SIN_INTERES' || interestCents === 0) tea = 0;
  else if (input.method === 'FRANCES') tea = teaFromMonthlyRatePercent(input.monthlyRatePercent);
  else {
    const rate = periodicIrr([financedCents, ...instalmentsCents.map((c) => -c)]);
    if (rate === null) return null;
    tea = annualFromMonthly(rate);
  }

  const rate = periodicIrr([financedCents - upfront, ...instalmentsCents.map((c, k) => -(c + (charges[k] ?? 0)))]);
  if (rate === null) return null;
  let tcea = annualFromMonthly(rate);
  if (!hasCharges && Math.abs(tcea - tea) < ROUNDING_TOLERANCE) tcea = tea;
  return { tea, tcea };
}

/** A rate as the screens and PDFs print it: a percentage with two decimals, rounded half-up ("19.56 %"). */
export function formatRatePercent(rate: number): string {
  return `${new Decimal(rate).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)} %`;
}
