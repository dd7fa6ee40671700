/**
 * TEA and TCEA (src/lib/comercio/credit-cost.ts; docs/domain.md "Credit cost: TEA and TCEA"):
 * worked examples checked against a spreadsheet's RATE/IRR, and properties over random plans
 * (fast-check) of all three schedule methods.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  annualFromMonthly,
  creditCost,
  formatRatePercent,
  periodicIrr,
  teaFromMonthlyRatePercent,
} from '../../../../src/lib/comercio/credit-cost';
import { buildSchedule, SCHEDULE_METHODS, type ScheduleMethod } from '../../../../src/lib/comercio/schedule';

const first = Temporal.PlainDate.from('2026-02-15');
const plan = (financedCents: number, instalments: number, rate: string, method: ScheduleMethod) => ({
  method,
  monthlyRatePercent: rate,
  financedCents,
  instalmentsCents: buildSchedule({ financedCents, instalments, monthlyRatePercent: rate, method, firstDueDate: first }).map(
    (r) => r.amountCents,
  ),
});

describe('credit cost: worked examples', () => {
  it('TEA of a monthly rate: (1 + i)^12 − 1', () => {
    expect(formatRatePercent(teaFromMonthlyRatePercent('1.5'))).toBe('19.56 %');
    expect(formatRatePercent(teaFromMonthlyRatePercent(2))).toBe('26.82 %');
    expect(formatRatePercent(teaFromMonthlyRatePercent('1'))).toBe('12.68 %');
    expect(teaFromMonthlyRatePercent('0')).toBe(0);
    expect(() => teaFromMonthlyRatePercent('abc')).toThrow(RangeError);
    expect(() => teaFromMonthlyRatePercent('-1')).toThrow(RangeError);
  });

  it('the IRR of a loan: S/ 10,000.00 repaid by 12 × S/ 983.33 (flat 1.5 %) is 2.643 % a month', () => {
    const rate = periodicIrr([1_000_000, ...new Array<number>(11).fill(-98_333), -98_337]);
    expect(rate).toBeCloseTo(0.02643024, 7);
    expect(periodicIrr([100, 0, 0])).toBeNull();
    expect(periodicIrr([])).toBeNull();
    expect(() => periodicIrr([1, Number.NaN])).toThrow(RangeError);
  });

  it('French 1.5 % a month on S/ 10,000.00 in 12: TEA = TCEA = 19.56 %', () => {
    const cost = creditCost(plan(1_000_000, 12, '1.5', 'FRANCES'))!;
    expect(formatRatePercent(cost.tea)).toBe('19.56 %');
    expect(cost.tcea).toBe(cost.tea);
  });

  it('a flat rate is not effective: flat 1.5 % on S/ 10,000.00 in 12 is a TEA of 36.76 %', () => {
    const cost = creditCost(plan(1_000_000, 12, '1.5', 'INTERES_SIMPLE'))!;
    expect(formatRatePercent(cost.tea)).toBe('36.76 %');
    expect(cost.tcea).toBe(cost.tea);
  });

  it('a charge of S/ 10.00 with each instalment lifts the TCEA to 22.05 % (TEA 19.56 %)', () => {
    const input = plan(1_000_000, 12, '1.5', 'FRANCES');
    const cost = creditCost({ ...input, instalmentChargesCents: input.instalmentsCents.map(() => 1_000) })!;
    expect(formatRatePercent(cost.tea)).toBe('19.56 %');
    expect(formatRatePercent(cost.tcea)).toBe('22.05 %');
  });

  it('interest-free: TEA = TCEA = 0.00 %; cash (nothing financed): no credit cost', () => {
    const cost = creditCost(plan(1_200_000, 24, '1.5', 'SIN_INTERES'))!;
    expect(cost.tea).toBe(0);
    expect(formatRatePercent(cost.tcea)).toBe('0.00 %');
    expect(creditCost({ method: 'FRANCES', monthlyRatePercent: '1', financedCents: 0, instalmentsCents: [] })).toBeNull();
  });

  it('formats half-up with two decimals', () => {
    expect(formatRatePercent(0.123449)).toBe('12.34 %');
    expect(formatRatePercent(0.12345)).toBe('12.35 %');
    expect(formatRatePercent(annualFromMonthly(0))).toBe('0.00 %');
  });
});

/** Plans of at least S/ 10,000.00, where céntimo rounding moves a rate by far less than 0.01 points. */
const plans = fc.record({
  financedCents: fc.integer({ min: 1_000_000, max: 10_000_000_000 }),
  instalments: fc.integer({ min: 1, max: 360 }),
  rate: fc.integer({ min: 0, max: 500 }).map((hundredths) => (hundredths / 100).toFixed(2)),
  method: fc.constantFrom(...SCHEDULE_METHODS),
});

describe('credit cost: properties', () => {
  it('without charges the TCEA is the TEA (within 0.01 points)', () => {
    fc.assert(
      fc.property(plans, (p) => {
        const cost = creditCost(plan(p.financedCents, p.instalments, p.rate, p.method))!;
        expect(Math.abs(cost.tcea - cost.tea)).toBeLessThan(0.0001);
      }),
      { numRuns: 300 },
    );
  });

  it('French without charges: TCEA = (1 + i)^12 − 1 of the agreed rate (within 0.01 points)', () => {
    fc.assert(
      fc.property(plans, (p) => {
        const cost = creditCost(plan(p.financedCents, p.instalments, p.rate, 'FRANCES'))!;
        expect(Math.abs(cost.tcea - teaFromMonthlyRatePercent(p.rate))).toBeLessThan(0.0001);
      }),
      { numRuns: 300 },
    );
  });

  it('zero interest (any method at 0 %, or SIN_INTERES): TEA and TCEA are 0', () => {
    fc.assert(
      fc.property(plans, (p) => {
        const cost = creditCost(plan(p.financedCents, p.instalments, p.method === 'SIN_INTERES' ? p.rate : '0', p.method))!;
        expect(cost.tea).toBe(0);
        expect(Math.abs(cost.tcea)).toBeLessThan(1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('charges > 0 (up front or with the instalments): TCEA > TEA', () => {
    fc.assert(
      fc.property(plans, fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 1, max: 5_000 }), (p, upfront, each) => {
        const input = plan(p.financedCents, p.instalments, p.rate, p.method);
        const cost = creditCost({
          ...input,
          upfrontChargesCents: upfront,
          instalmentChargesCents: input.instalmentsCents.map(() => each),
        })!;
        expect(cost.tcea).toBeGreaterThan(cost.tea);
      }),
      { numRuns: 300 },
    );
  });

  it('the IRR returned zeroes the flows’ present value', () => {
    fc.assert(
      fc.property(plans, (p) => {
        const input = plan(p.financedCents, p.instalments, p.rate, p.method);
        const flows = [input.financedCents, ...input.instalmentsCents.map((c) => -c)];
        const r = periodicIrr(flows)!;
        const npv = flows.reduce((sum, f, k) => sum + f / Math.pow(1 + r, k), 0);
        expect(Math.abs(npv)).toBeLessThan(p.financedCents * 1e-9);
      }),
      { numRuns: 200 },
    );
  });
});
