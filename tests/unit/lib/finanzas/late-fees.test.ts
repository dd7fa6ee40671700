/**
 * Late fees (src/lib/finanzas/late-fees.ts): worked examples of both kinds against hand figures,
 * the grace, payments, the cap, and properties over 1 000 random cases each (fast-check): nothing
 * within the grace, never decreasing with the date, never over the cap, never more with more paid,
 * the same figure however often it is computed.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  accruedLateFee,
  daysLate,
  DEFAULT_LATE_FEE_POLICY,
  firstLateDay,
  instalmentStatus,
  type LateFeeInstalment,
  type LateFeePolicy,
} from '../../../../src/lib/finanzas/late-fees';

const date = (iso: string) => Temporal.PlainDate.from(iso);
const daily: LateFeePolicy = DEFAULT_LATE_FEE_POLICY; // 3 grace days, S/ 5.00 a day, no cap
const percent: LateFeePolicy = { graceDays: 0, kind: 'PORCENTAJE_MENSUAL', dailyAmountCents: 0, monthlyPercent: '2', capCents: null };
const due = (amountCents: number, payments: Array<[string, number]> = []): LateFeeInstalment => ({
  dueDate: date('2026-01-10'),
  amountCents,
  payments: payments.map(([d, a]) => ({ date: date(d), amountCents: a })),
});

describe('late fees: worked examples (an instalment of S/ 1,000.00 due on 10/01/2026)', () => {
  it('MONTO_DIARIO: nothing during the 3 grace days, then S/ 5.00 for each day after them', () => {
    expect(firstLateDay(date('2026-01-10'), 3).toString()).toBe('2026-01-14');
    expect(accruedLateFee(daily, due(100_000), date('2026-01-13'))).toBe(0);
    expect(accruedLateFee(daily, due(100_000), date('2026-01-14'))).toBe(500);
    // 14 … 20 January: 7 late days.
    expect(accruedLateFee(daily, due(100_000), date('2026-01-20'))).toBe(3_500);
    expect(daysLate(daily, due(100_000), date('2026-01-20'))).toBe(7);
  });

  it('a payment covers its own day; a partial one does not stop a daily amount', () => {
    // Paid in full on the 17th: the 14th, 15th and 16th are late.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-17', 100_000]]), date('2026-01-31'))).toBe(1_500);
    // Paid within the grace: nothing, ever.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-12', 100_000]]), date('2026-12-31'))).toBe(0);
    // Half paid on the 15th: still late every day to the 20th.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-15', 50_000]]), date('2026-01-20'))).toBe(3_500);
  });

  it('PORCENTAJE_MENSUAL: 2 % a month of what is unpaid, a thirtieth each day, rounded once', () => {
    // 15 days (11 … 25 January) × S/ 1,000.00 × 2 % / 30 = S/ 10.00.
    expect(accruedLateFee(percent, due(100_000), date('2026-01-25'))).toBe(1_000);
    // S/ 600.00 paid on the 16th: 5 days on S/ 1,000.00 (S/ 3.333…) + 10 days on S/ 400.00 (S/ 2.666…) = S/ 6.00.
    expect(accruedLateFee(percent, due(100_000, [['2026-01-16', 60_000]]), date('2026-01-25'))).toBe(600);
    // One day on S/ 333.33: S/ 0.2222… → 22 céntimos (half-up on the total).
    expect(accruedLateFee(percent, due(33_333), date('2026-01-11'))).toBe(22);
  });

  it('never more than the cap', () => {
    expect(accruedLateFee({ ...daily, capCents: 2_000 }, due(100_000), date('2026-06-30'))).toBe(2_000);
  });

  it('refuses a policy out of bounds', () => {
    expect(() => accruedLateFee({ ...percent, monthlyPercent: '5.01' }, due(1), date('2026-02-01'))).toThrow(RangeError);
    expect(() => accruedLateFee({ ...daily, graceDays: -1 }, due(1), date('2026-02-01'))).toThrow(RangeError);
    expect(() => accruedLateFee({ ...daily, capCents: 1.5 }, due(1), date('2026-02-01'))).toThrow(RangeError);
  });
});

// 1 000 cases a property take seconds alone and many times that on a loaded 2-core machine.
describe('late fees: properties (1 000 cases each)', { timeout: 120_000 }, () => {
  const policy = fc.record({
    graceDays: fc.integer({ min: 0, max: 60 }),
    kind: fc.constantFrom('MONTO_DIARIO' as const, 'PORCENTAJE_MENSUAL' as const),
    dailyAmountCents: fc.integer({ min: 0, max: 100_000 }),
    monthlyPercent: fc.integer({ min: 0, max: 500 }).map((hundredths) => (hundredths / 100).toFixed(2)),
    capCents: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
  });
  const start = date('2020-01-01');
  const day = (n: number) => start.add({ days: n });
  const instalment = fc
    .record({
      due: fc.integer({ min: 0, max: 3_000 }),
      amountCents: fc.integer({ min: 1, max: 50_000_000 }),
      payments: fc.array(fc.record({ offset: fc.integer({ min: -30, max: 2_000 }), share: fc.double({ min: 0, max: 1, noNaN: true }) }), {
        maxLength: 6,
      }),
    })
    .map(({ due: d, amountCents, payments }) => ({
      dueDate: day(d),
      amountCents,
      payments: payments.map((p) => ({ date: day(Math.max(0, d + p.offset)), amountCents: Math.floor(p.share * amountCents) })),
    }));
  const runs = { numRuns: 1_000 };

  it('nothing within the grace; never decreasing with the date; never over the cap; the same figure every time', () => {
    fc.assert(
      fc.property(policy, instalment, fc.integer({ min: 0, max: 4_000 }), fc.integer({ min: 0, max: 400 }), (p, i, asOf, later) => {
        const fee = accruedLateFee(p, i, day(asOf));
        expect(Number.isInteger(fee) && fee >= 0).toBe(true);
        if (Temporal.PlainDate.compare(day(asOf), firstLateDay(i.dueDate, p.graceDays)) < 0) expect(fee).toBe(0);
        expect(accruedLateFee(p, i, day(asOf + later))).toBeGreaterThanOrEqual(fee);
        if (p.capCents !== null) expect(fee).toBeLessThanOrEqual(p.capCents);
        expect(accruedLateFee(p, { ...i, payments: [...i.payments].reverse() }, day(asOf))).toBe(fee);
      }),
      runs,
    );
  });

  it('paying more (or earlier) never makes the fee larger', () => {
    fc.assert(
      fc.property(policy, instalment, fc.integer({ min: 0, max: 4_000 }), fc.integer({ min: 0, max: 3_000 }), (p, i, asOf, extraDay) => {
        const fee = accruedLateFee(p, i, day(asOf));
        const more = { ...i, payments: [...i.payments, { date: day(extraDay), amountCents: Math.ceil(i.amountCents / 3) }] };
        expect(accruedLateFee(p, more, day(asOf))).toBeLessThanOrEqual(fee);
      }),
      runs,
    );
  });

  it('MONTO_DIARIO is the daily amount times the days late (under the cap)', () => {
    fc.assert(
      fc.property(policy, instalment, fc.integer({ min: 0, max: 4_000 }), (p, i, asOf) => {
        const monto = { ...p, kind: 'MONTO_DIARIO' as const, capCents: null };
        expect(accruedLateFee(monto, i, day(asOf))).toBe(monto.dailyAmountCents * daysLate(monto, i, day(asOf)));
      }),
      runs,
    );
  });
});

describe('instalmentStatus', () => {
  const policy = { graceDays: 3 };
  const due = Temporal.PlainDate.from('2026-01-10');
  const on = (date: string, paidCents: number) =>
    instalmentStatus(policy, { dueDate: due, amountCents: 1000, paidCents }, Temporal.PlainDate.from(date));
  it('is PENDIENTE or PARCIAL within the grace, VENCIDA from the day after it, PAGADA once paid', () => {
    expect(on('2026-01-05', 0)).toBe('PENDIENTE');
    expect(on('2026-01-13', 0)).toBe('PENDIENTE');
    expect(on('2026-01-13', 1)).toBe('PARCIAL');
    expect(on('2026-01-14', 0)).toBe('VENCIDA');
    expect(on('2026-01-14', 999)).toBe('VENCIDA');
    expect(on('2026-03-01', 1000)).toBe('PAGADA');
  });
});
