/**
 * Late fees and days late (src/lib/finanzas/late-fees.ts; docs/domain.md "Instalments, days late and
 * late fees"): worked examples of both kinds against hand figures, the grace, payments (a payment
 * counts from the day after its date), days late from the due date, the cap, and properties over
 * 1 000 random cases each (fast-check): nothing within the grace, never decreasing with the date,
 * never over the cap, never more with more paid, a payment dated D never changes the fee up to D,
 * the same figure however often it is computed.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  accruedLateFee,
  daysLate,
  DEFAULT_LATE_FEE_POLICY,
  firstFeeDay,
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
    expect(firstFeeDay(date('2026-01-10'), 3).toString()).toBe('2026-01-14');
    expect(accruedLateFee(daily, due(100_000), date('2026-01-13'))).toBe(0);
    expect(accruedLateFee(daily, due(100_000), date('2026-01-14'))).toBe(500);
    // 14 … 20 January: 7 fee days.
    expect(accruedLateFee(daily, due(100_000), date('2026-01-20'))).toBe(3_500);
  });

  it('days late count from the due date, the grace included (the grace only delays the fee)', () => {
    expect(daysLate(due(100_000), date('2026-01-10'))).toBe(0);
    expect(daysLate(due(100_000), date('2026-01-11'))).toBe(1);
    expect(daysLate(due(100_000), date('2026-01-20'))).toBe(10);
    // Paid off on the 15th: late on the 11th … 15th, then no more.
    expect(daysLate(due(100_000, [['2026-01-15', 100_000]]), date('2026-03-01'))).toBe(5);
    // Paid on its due date: never late.
    expect(daysLate(due(100_000, [['2026-01-10', 100_000]]), date('2026-03-01'))).toBe(0);
  });

  it('a payment counts from the day after its date: its own day is still owed; a partial one does not stop a daily amount', () => {
    // Paid in full on the 17th: the 14th, 15th, 16th and 17th are fee days.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-17', 100_000]]), date('2026-01-31'))).toBe(2_000);
    // What is asked on the 17th is what stays accrued once that day's payment is applied.
    expect(accruedLateFee(daily, due(100_000), date('2026-01-17'))).toBe(2_000);
    // Paid on the 3rd day of 3 of grace: nothing, ever; on the 5th (the 15th): two days.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-13', 100_000]]), date('2026-12-31'))).toBe(0);
    expect(accruedLateFee(daily, due(100_000, [['2026-01-15', 100_000]]), date('2026-12-31'))).toBe(1_000);
    // Paid on the first fee day: that day is charged.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-14', 100_000]]), date('2026-12-31'))).toBe(500);
    // Half paid on the 15th: still late every day to the 20th.
    expect(accruedLateFee(daily, due(100_000, [['2026-01-15', 50_000]]), date('2026-01-20'))).toBe(3_500);
  });

  it('PORCENTAJE_MENSUAL: 2 % a month of what is unpaid at the start of each day, a thirtieth each day, rounded once', () => {
    // 15 days (11 … 25 January) × S/ 1,000.00 × 2 % / 30 = S/ 10.00.
    expect(accruedLateFee(percent, due(100_000), date('2026-01-25'))).toBe(1_000);
    // S/ 600.00 paid on the 16th: 6 days (11 … 16) on S/ 1,000.00 (S/ 4.00) + 9 days on S/ 400.00 (S/ 2.40) = S/ 6.40.
    expect(accruedLateFee(percent, due(100_000, [['2026-01-16', 60_000]]), date('2026-01-25'))).toBe(640);
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
        if (Temporal.PlainDate.compare(day(asOf), firstFeeDay(i.dueDate, p.graceDays)) < 0) expect(fee).toBe(0);
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

  it('MONTO_DIARIO is the daily amount times the days late after the grace (under the cap)', () => {
    fc.assert(
      fc.property(policy, instalment, fc.integer({ min: 0, max: 4_000 }), (p, i, asOf) => {
        const monto = { ...p, kind: 'MONTO_DIARIO' as const, capCents: null };
        // Days late counted from the due date; the fee skips the first `graceDays` of them.
        const graceDays = Math.min(p.graceDays, daysLate(i, i.dueDate.add({ days: p.graceDays })));
        expect(accruedLateFee(monto, i, day(asOf))).toBe(monto.dailyAmountCents * Math.max(0, daysLate(i, day(asOf)) - graceDays));
      }),
      runs,
    );
  });

  it('a payment dated D never changes the fee figured up to D (what is asked on D is what stays accrued)', () => {
    fc.assert(
      fc.property(policy, instalment, fc.integer({ min: 0, max: 4_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (p, i, on, share) => {
        const paidOn = { date: day(on), amountCents: Math.floor(share * i.amountCents) };
        expect(accruedLateFee(p, { ...i, payments: [...i.payments, paidOn] }, day(on))).toBe(accruedLateFee(p, i, day(on)));
      }),
      runs,
    );
  });
});

describe('instalmentStatus', () => {
  const due = Temporal.PlainDate.from('2026-01-10');
  const on = (date: string, paidCents: number) =>
    instalmentStatus({ dueDate: due, amountCents: 1000, paidCents }, Temporal.PlainDate.from(date));
  it('is PENDIENTE or PARCIAL up to its due date, VENCIDA from the day after it (grace or not), PAGADA once paid', () => {
    expect(on('2026-01-05', 0)).toBe('PENDIENTE');
    expect(on('2026-01-10', 0)).toBe('PENDIENTE');
    expect(on('2026-01-10', 1)).toBe('PARCIAL');
    expect(on('2026-01-11', 0)).toBe('VENCIDA');
    expect(on('2026-01-11', 999)).toBe('VENCIDA');
    expect(on('2026-03-01', 1000)).toBe('PAGADA');
  });
});
