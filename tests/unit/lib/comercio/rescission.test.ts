/**
 * Rescission and rescheduling rules (src/lib/comercio/rescission.ts, src/lib/comercio/reschedule.ts;
 * docs/domain.md "Rescission", "Rescheduling (adenda)"): worked examples and fast-check properties —
 * the penalty/refund split keeps every céntimo (paid = penalty + refund, penalty rounded half-up),
 * and an adenda finances exactly the open balance plus the carried fees.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { paidShareBlocks, paidSharePercent, rescissionPenalty, splitPaid, unpaidRows } from '../../../../src/lib/comercio/rescission';
import { openCapital, planReschedule, type RescheduleRow } from '../../../../src/lib/comercio/reschedule';
import { SCHEDULE_METHODS } from '../../../../src/lib/comercio/schedule';

describe('rescission: penalty and refund (art. 1563)', () => {
  it('10 % of S/ 10 000.00 is S/ 1 000.00; half a céntimo rounds up', () => {
    expect(splitPaid(1_000_000, 10)).toEqual({ penaltyCents: 100_000, refundCents: 900_000 });
    expect(rescissionPenalty(5, 10)).toBe(1); // 0.5 → 1
    expect(rescissionPenalty(4, 10)).toBe(0); // 0.4 → 0
    expect(rescissionPenalty(0, 100)).toBe(0);
    expect(() => rescissionPenalty(-1, 10)).toThrow(RangeError);
    expect(() => rescissionPenalty(10, 101)).toThrow(RangeError);
  });

  it('property: paid = penalty + refund in whole céntimos, penalty = round half-up of paid × percent / 100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), fc.integer({ min: 0, max: 100 }), (paid, percent) => {
        const { penaltyCents, refundCents } = splitPaid(paid, percent);
        expect(Number.isInteger(penaltyCents) && Number.isInteger(refundCents)).toBe(true);
        expect(penaltyCents + refundCents).toBe(paid);
        expect(penaltyCents).toBeGreaterThanOrEqual(0);
        expect(refundCents).toBeGreaterThanOrEqual(0);
        // |penalty − exact| ≤ ½ céntimo, and exactly ½ rounds up.
        const twice = 2 * (penaltyCents * 100 - paid * percent);
        expect(twice).toBeGreaterThanOrEqual(-100);
        expect(twice).toBeLessThanOrEqual(100);
        if (twice === -100) throw new Error('half a céntimo rounded down');
      }),
      { numRuns: 2000 },
    );
  });

  it('overdue rows count from the due date; not-yet-due rows are unpaid but not overdue', () => {
    const rows = [
      { kind: 'CUOTA', number: 1, dueDate: '2026-01-01', amountCents: 100, paidCents: 100 },
      { kind: 'CUOTA', number: 2, dueDate: '2026-02-01', amountCents: 100, paidCents: 40 },
      { kind: 'CUOTA', number: 3, dueDate: '2026-03-01', amountCents: 100, paidCents: 0 },
      { kind: 'CUOTA', number: 4, dueDate: '2026-03-02', amountCents: 100, paidCents: 0 },
    ];
    expect(unpaidRows(rows, '2026-03-02').map((r) => [r.number, r.unpaidCents, r.daysLate, r.overdue])).toEqual([
      [2, 60, 29, true],
      [3, 100, 1, true],
      [4, 100, 0, false],
    ]);
  });

  it('art. 1562: the paid share against the limit', () => {
    expect(paidShareBlocks(499, 1000, 50)).toBe(false);
    expect(paidShareBlocks(500, 1000, 50)).toBe(true);
    expect(paidShareBlocks(1000, 1000, null)).toBe(false);
    expect(paidSharePercent(1, 3)).toBe('33.33');
  });
});

describe('rescheduling (adenda)', () => {
  const row = (over: Partial<RescheduleRow> & Pick<RescheduleRow, 'id' | 'number'>): RescheduleRow => ({
    kind: 'CUOTA',
    amountCents: 100_000,
    capitalCents: 90_000,
    interestCents: 10_000,
    paidCents: 0,
    lateFeeOwedCents: 0,
    hasAllocations: false,
    ...over,
  });
  const terms = {
    method: 'FRANCES' as const,
    instalments: 6,
    monthlyRatePercent: '1',
    firstDueDate: Temporal.PlainDate.from('2026-04-01'),
    lateFees: 'CARRY' as const,
  };

  it('a partly paid row pays its interest first, is closed at what was paid; an untouched one is removed', () => {
    const rows = [
      row({ id: 1, number: 1, paidCents: 100_000, hasAllocations: true }),
      row({ id: 2, number: 2, paidCents: 30_000, hasAllocations: true, lateFeeOwedCents: 1_500 }),
      row({ id: 3, number: 3 }),
    ];
    const result = planReschedule(rows, terms);
    if (!result.ok) throw new Error(result.error);
    const { plan } = result;
    expect(plan.balanceCents).toBe(90_000 - 20_000 + 90_000);
    expect(plan.closed).toEqual([{ id: 2, amountCents: 30_000, capitalCents: 20_000, interestCents: 10_000 }]);
    expect(plan.removed).toEqual([3]);
    expect(plan.lateFeeCents).toBe(1_500);
    expect(plan.financedCents).toBe(plan.balanceCents + 1_500);
    expect(plan.rows.map((r) => r.number)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(planReschedule([row({ id: 1, number: 1, paidCents: 100_000 })], terms)).toEqual({ ok: false, error: 'NOTHING_OPEN' });
  });

  it('property: the new schedule finances balance + carried fees exactly, and Σ amounts = that + its interest', () => {
    const rowArb = fc
      .record({
        capital: fc.integer({ min: 1, max: 5_000_000 }),
        interest: fc.integer({ min: 0, max: 500_000 }),
        paidShare: fc.double({ min: 0, max: 1, noNaN: true }),
        fee: fc.integer({ min: 0, max: 50_000 }),
        allocated: fc.boolean(),
      })
      .map(({ capital, interest, paidShare, fee, allocated }) => ({
        capital,
        interest,
        paid: Math.floor((capital + interest) * paidShare),
        fee,
        allocated,
      }));
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 24 }),
        fc.constantFrom(...SCHEDULE_METHODS),
        fc.integer({ min: 1, max: 360 }),
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom('CARRY' as const, 'WAIVE' as const),
        (specs, method, instalments, rateHundredths, lateFees) => {
          const rows = specs.map((s, i) =>
            row({
              id: i + 1,
              number: i + 1,
              amountCents: s.capital + s.interest,
              capitalCents: s.capital,
              interestCents: s.interest,
              paidCents: s.paid,
              lateFeeOwedCents: s.fee,
              hasAllocations: s.allocated || s.paid > 0,
            }),
          );
          const result = planReschedule(rows, {
            method,
            instalments,
            monthlyRatePercent: (rateHundredths / 100).toFixed(2),
            firstDueDate: Temporal.PlainDate.from('2026-04-01'),
            lateFees,
          });
          const open = rows.filter((r) => r.paidCents < r.amountCents);
          const balance = open.reduce((sum, r) => sum + openCapital(r), 0);
          if (!result.ok) {
            expect(balance).toBe(0);
            return;
          }
          const { plan } = result;
          const fees = specs.reduce((sum, s) => sum + s.fee, 0);
          expect(plan.balanceCents).toBe(balance);
          expect(plan.lateFeeCents).toBe(fees);
          expect(plan.financedCents).toBe(balance + (lateFees === 'CARRY' ? fees : 0));
          expect(plan.rows.reduce((sum, r) => sum + r.capitalCents, 0)).toBe(plan.financedCents);
          expect(plan.totalCents).toBe(plan.financedCents + plan.totalInterestCents);
          // What stays of the old rows plus the open capital is what they financed: nothing is lost or counted twice.
          for (const c of plan.closed) {
            const r = rows.find((x) => x.id === c.id)!;
            expect(c.amountCents).toBe(r.paidCents);
            expect(c.capitalCents + openCapital(r)).toBe(r.capitalCents);
          }
          expect(new Set(plan.rows.map((r) => r.number)).size).toBe(plan.rows.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
