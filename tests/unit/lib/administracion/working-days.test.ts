import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  isWorkingDay,
  presentationDeadline,
  subtractWorkingDays,
  workingDaysBetween,
} from '../../../../src/lib/administracion/working-days';
import { PERU_HOLIDAYS_2026_2027 } from '../../../../src/lib/administracion/peru-holidays';

/**
 * Working days of Peru (docs/domain.md "Titles at SUNARP"): weekends and the public holidays are
 * skipped; the asiento de presentación lasts 35 working days after the presentation date.
 */

const HOLIDAYS = new Set(PERU_HOLIDAYS_2026_2027.map(([date]) => date));

/** Days from 2025-06-01 to 2028-06-30 (across the seeded years and past them). */
const dayArb = fc.integer({ min: 0, max: 1_125 }).map((n) => Temporal.PlainDate.from('2025-06-01').add({ days: n }).toString());
const holidaysArb = fc.constantFrom<ReadonlySet<string>>(HOLIDAYS, new Set<string>());

describe('working days', () => {
  it('weekends and holidays are not working days', () => {
    expect(isWorkingDay('2026-03-07', HOLIDAYS)).toBe(false); // Saturday
    expect(isWorkingDay('2026-03-08', HOLIDAYS)).toBe(false); // Sunday
    expect(isWorkingDay('2026-04-03', HOLIDAYS)).toBe(false); // Good Friday
    expect(isWorkingDay('2026-04-03', new Set())).toBe(true);
    expect(isWorkingDay('2026-03-09', HOLIDAYS)).toBe(true);
  });

  it('the seed holds the sixteen national holidays of each year', () => {
    for (const year of ['2026', '2027']) expect(PERU_HOLIDAYS_2026_2027.filter(([d]) => d.startsWith(year))).toHaveLength(16);
    expect(HOLIDAYS.has('2027-03-25') && HOLIDAYS.has('2027-03-26') && HOLIDAYS.has('2026-04-02')).toBe(true);
  });

  it('a presentation on Monday 2026-03-02 lasts until 2026-04-22 (Holy Week skipped), warned on 2026-04-15', () => {
    expect(presentationDeadline('2026-03-02', HOLIDAYS)).toEqual({ deadline: '2026-04-22', notice_on: '2026-04-15' });
    expect(presentationDeadline('2026-03-02', new Set())).toEqual({ deadline: '2026-04-20', notice_on: '2026-04-13' });
    // Over Fiestas Patrias: Friday 2026-07-24 + 1 working day skips the weekend and 28–29 July.
    expect(addWorkingDays('2026-07-24', 1, HOLIDAYS)).toBe('2026-07-27');
    expect(addWorkingDays('2026-07-27', 1, HOLIDAYS)).toBe('2026-07-30');
  });

  it('adding n ≥ 1 working days never lands on a weekend or a holiday, and counts back to n', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 1, max: 60 }), holidaysArb, (start, n, holidays) => {
        const end = addWorkingDays(start, n, holidays);
        expect(isWorkingDay(end, holidays)).toBe(true);
        expect(end > start).toBe(true);
        expect(workingDaysBetween(start, end, holidays)).toBe(n);
      }),
    );
  });

  it('is monotonic: more days never end earlier, a later start never ends earlier', () => {
    fc.assert(
      fc.property(dayArb, dayArb, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), holidaysArb, (a, b, m, n, holidays) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        const [few, many] = m <= n ? [m, n] : [n, m];
        expect(addWorkingDays(early, few, holidays) <= addWorkingDays(early, many, holidays)).toBe(true);
        expect(addWorkingDays(early, n, holidays) <= addWorkingDays(late, n, holidays)).toBe(true);
      }),
    );
  });

  it('subtracting undoes adding from a working day', () => {
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 0, max: 60 }), holidaysArb, (start, n, holidays) => {
        fc.pre(isWorkingDay(start, holidays));
        expect(subtractWorkingDays(addWorkingDays(start, n, holidays), n, holidays)).toBe(start);
      }),
    );
  });

  it('refuses a negative or fractional count', () => {
    expect(() => addWorkingDays('2026-03-02', -1, HOLIDAYS)).toThrow(RangeError);
    expect(() => subtractWorkingDays('2026-03-02', 1.5, HOLIDAYS)).toThrow(RangeError);
  });
});
