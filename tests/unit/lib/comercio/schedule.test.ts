/**
 * Payment schedules (src/lib/comercio/schedule.ts): a worked example per method, checked against
 * the figures a spreadsheet gives (PMT, simple interest), and properties over ≥ 1 000 random cases
 * each (fast-check) for all three methods, terms 1–360, rates 0–5 % a month and any first due date.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  buildSchedule,
  frenchInstalmentCents,
  MAX_FINANCED_CENTS,
  MAX_INSTALMENTS,
  monthlyDueDates,
  SCHEDULE_METHODS,
  splitEvenly,
  type ScheduleRow,
} from '../../../../src/lib/comercio/schedule';
import { Decimal } from 'decimal.js';

const date = (iso: string) => Temporal.PlainDate.from(iso);
const amounts = (rows: ScheduleRow[]) => rows.map((r) => [r.amountCents, r.capitalCents, r.interestCents, r.balanceCents]);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('schedule: worked examples (S/ 10,000.00 in 12 monthly instalments at 1.5 % from 31/01/2026)', () => {
  const input = { financedCents: 1_000_000, instalments: 12, monthlyRatePercent: '1.5', firstDueDate: date('2026-01-31') } as const;

  it('dates: the same day each month, clamped to the month end, the 31st coming back', () => {
    expect(buildSchedule({ ...input, method: 'SIN_INTERES' }).map((r) => r.dueDate.toString())).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
    ]);
    expect(monthlyDueDates(date('2028-01-31'), 2).map(String)).toEqual(['2028-01-31', '2028-02-29']);
  });

  it('SIN_INTERES: 11 × S/ 833.33 and S/ 833.37 last, no interest', () => {
    const rows = buildSchedule({ ...input, method: 'SIN_INTERES' });
    expect(rows.slice(0, 11).every((r) => r.amountCents === 83_333 && r.interestCents === 0)).toBe(true);
    expect(rows[11]).toMatchObject({ amountCents: 83_337, capitalCents: 83_337, interestCents: 0, balanceCents: 0 });
    expect(rows[0]!.balanceCents).toBe(916_667);
  });

  it('INTERES_SIMPLE: interest 10,000 × 1.5 % × 12 = S/ 1,800.00, S/ 150.00 a month', () => {
    const rows = buildSchedule({ ...input, method: 'INTERES_SIMPLE' });
    expect(sum(rows.map((r) => r.interestCents))).toBe(180_000);
    expect(rows.slice(0, 11).every((r) => r.amountCents === 98_333 && r.interestCents === 15_000)).toBe(true);
    expect(rows[11]).toMatchObject({ amountCents: 98_337, capitalCents: 83_337, interestCents: 15_000, balanceCents: 0 });
  });

  it('FRANCES: the spreadsheet PMT(1.5 %, 12, 10000) = 916.80 and its amortisation table', () => {
    expect(frenchInstalmentCents(1_000_000, 12, '1.5')).toBe(91_680);
    expect(amounts(buildSchedule({ ...input, method: 'FRANCES' }))).toEqual([
      [91_680, 76_680, 15_000, 923_320],
      [91_680, 77_830, 13_850, 845_490],
      [91_680, 78_998, 12_682, 766_492],
      [91_680, 80_183, 11_497, 686_309],
      [91_680, 81_385, 10_295, 604_924],
      [91_680, 82_606, 9_074, 522_318],
      [91_680, 83_845, 7_835, 438_473],
      [91_680, 85_103, 6_577, 353_370],
      [91_680, 86_379, 5_301, 266_991],
      [91_680, 87_675, 4_005, 179_316],
      [91_680, 88_990, 2_690, 90_326],
      [91_681, 90_326, 1_355, 0],
    ]);
  });

  it('a rate of 0 gives the SIN_INTERES schedule in every method', () => {
    const flat = amounts(buildSchedule({ ...input, monthlyRatePercent: 0, method: 'SIN_INTERES' }));
    for (const method of SCHEDULE_METHODS) expect(amounts(buildSchedule({ ...input, monthlyRatePercent: 0, method }))).toEqual(flat);
  });

  it('refuses amounts, terms and rates out of range, and rates that are not numbers', () => {
    const ok = { ...input, method: 'FRANCES' } as const;
    for (const bad of [
      { financedCents: -1 },
      { financedCents: 1.5 },
      { financedCents: MAX_FINANCED_CENTS + 1 },
      { instalments: 0 },
      { instalments: MAX_INSTALMENTS + 1 },
      { instalments: 2.5 },
      { monthlyRatePercent: -0.1 },
      { monthlyRatePercent: '5.01' },
      { monthlyRatePercent: 'uno' },
      { monthlyRatePercent: Number.NaN },
    ])
      expect(() => buildSchedule({ ...ok, ...bad })).toThrow(RangeError);
    expect(splitEvenly(10, 3)).toEqual([3, 3, 4]);
    expect(() => splitEvenly(10, 0)).toThrow(RangeError);
  });
});

// 1 000 cases a property take seconds alone and many times that on a loaded 2-core machine.
describe('schedule: properties (fast-check, 1 000 cases each)', { timeout: 120_000 }, () => {
  const runs = { numRuns: 1000 };
  const firstDueDate = fc
    .record({ year: fc.integer({ min: 2000, max: 2100 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
    .map((d) => Temporal.PlainDate.from(d, { overflow: 'constrain' }));
  const inputs = fc.record({
    financedCents: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: MAX_FINANCED_CENTS })),
    instalments: fc.oneof(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: MAX_INSTALMENTS })),
    // 0–5 % with up to 4 decimals, as a decimal string (how a form or the API sends it).
    monthlyRatePercent: fc.integer({ min: 0, max: 50_000 }).map((n) => new Decimal(n).div(10_000).toString()),
    method: fc.constantFrom(...SCHEDULE_METHODS),
    firstDueDate,
  });

  it('every schedule: n rows, capital adds up exactly, no negative figure, balances down to 0, dates strictly increasing', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const rows = buildSchedule(input);
        expect(rows).toHaveLength(input.instalments);
        expect(sum(rows.map((r) => r.capitalCents))).toBe(input.financedCents);
        let balance = input.financedCents;
        for (const [k, row] of rows.entries()) {
          expect(row.number).toBe(k + 1);
          expect(Number.isSafeInteger(row.amountCents) && Number.isSafeInteger(row.interestCents)).toBe(true);
          expect(row.capitalCents).toBeGreaterThanOrEqual(0);
          expect(row.interestCents).toBeGreaterThanOrEqual(0);
          expect(row.amountCents).toBe(row.capitalCents + row.interestCents);
          balance -= row.capitalCents;
          expect(row.balanceCents).toBe(balance);
          if (k > 0) expect(Temporal.PlainDate.compare(rows[k - 1]!.dueDate, row.dueDate)).toBe(-1);
          // Same day as the first due date, or the month's last day when it has fewer.
          expect(row.dueDate.day).toBe(Math.min(input.firstDueDate.day, row.dueDate.daysInMonth));
        }
        expect(balance).toBe(0);
      }),
      runs,
    );
  });

  it('SIN_INTERES and INTERES_SIMPLE: equal instalments, the remainder (less than n céntimos each) on the last', () => {
    fc.assert(
      fc.property(
        inputs.filter((i) => i.method !== 'FRANCES'),
        (input) => {
          const rows = buildSchedule(input);
          const first = rows[0]!.amountCents;
          expect(rows.slice(0, -1).every((r) => r.amountCents === first)).toBe(true);
          const last = rows.at(-1)!.amountCents;
          expect(last - first).toBeGreaterThanOrEqual(0);
          expect(last - first).toBeLessThan(2 * input.instalments);
          const expectedInterest =
            input.method === 'SIN_INTERES'
              ? 0
              : new Decimal(input.financedCents)
                  .times(input.monthlyRatePercent)
                  .div(100)
                  .times(input.instalments)
                  .toDecimalPlaces(0, Decimal.ROUND_HALF_UP)
                  .toNumber();
          expect(sum(rows.map((r) => r.interestCents))).toBe(expectedInterest);
        },
      ),
      runs,
    );
  });

  it('FRANCES: interest is the balance × rate, every instalment but the last is the annuity, the last stays within céntimos of it', () => {
    fc.assert(
      fc.property(
        inputs.filter((i) => i.method === 'FRANCES'),
        (input) => {
          const rows = buildSchedule(input);
          const rate = new Decimal(input.monthlyRatePercent).div(100);
          const annuity = frenchInstalmentCents(input.financedCents, input.instalments, input.monthlyRatePercent);
          let balance = input.financedCents;
          for (const row of rows) {
            expect(row.interestCents).toBe(new Decimal(balance).times(rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber());
            balance = row.balanceCents;
          }
          if (rate.isZero()) {
            expect(rows.map((r) => r.amountCents)).toEqual(splitEvenly(input.financedCents, input.instalments));
            return;
          }
          // Every row but the last pays the annuity, unless clamped: interest above it (capital 0) or the balance paid off.
          expect(rows.slice(0, -1).every((r) => r.amountCents === annuity || r.capitalCents === 0 || r.balanceCents === 0)).toBe(true);
          // The last absorbs the roundings: the annuity's (≤ ½ céntimo) and each row's interest (≤ ½),
          // each compounding by (1 + i) a month — at most ((1 + i)^n − 1) / i céntimos in all.
          const growth = rate.plus(1).pow(input.instalments).minus(1).div(rate);
          expect(Math.abs(rows.at(-1)!.amountCents - annuity)).toBeLessThanOrEqual(growth.plus(1).toNumber());
        },
      ),
      runs,
    );
  });
});
