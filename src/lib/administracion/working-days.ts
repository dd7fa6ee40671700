import { Temporal } from 'temporal-polyfill';

/**
 * Working days (días hábiles) of Peru for the titles at SUNARP (docs/domain.md "Titles at SUNARP"):
 * Monday to Friday that are not public holidays. Pure: the holidays are given by the caller (the
 * server reads its `public_holidays` table, docs/decisions.md "Titles at SUNARP"). Dates are
 * `YYYY-MM-DD` calendar days (Temporal.PlainDate).
 */

/** The public holidays, as `YYYY-MM-DD` strings. */
export type HolidaySet = ReadonlySet<string>;

/** Saturday and Sunday (ISO day of week 6 and 7). */
const isWeekend = (day: Temporal.PlainDate): boolean => day.dayOfWeek >= 6;

/** Whether `date` is a working day: not Saturday, not Sunday, not in `holidays`. */
export function isWorkingDay(date: string | Temporal.PlainDate, holidays: HolidaySet): boolean {
  const day = Temporal.PlainDate.from(date);
  return !isWeekend(day) && !holidays.has(day.toString());
}

/**
 * The `n`-th working day after `start` (`start` itself not counted, as a period in días hábiles is
 * counted from the next working day). `n = 0` gives `start` unchanged.
 * @throws RangeError when `n` is negative or not an integer.
 */
export function addWorkingDays(start: string, n: number, holidays: HolidaySet): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
  let day = Temporal.PlainDate.from(start);
  let left = n;
  while (left > 0) {
    day = day.add({ days: 1 });
    if (isWorkingDay(day, holidays)) left -= 1;
  }
  return day.toString();
}

/**
 * The `n`-th working day before `end` (`end` itself not counted). `n = 0` gives `end` unchanged.
 * @throws RangeError when `n` is negative or not an integer.
 */
export function subtractWorkingDays(end: string, n: number, holidays: HolidaySet): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
  let day = Temporal.PlainDate.from(end);
  let left = n;
  while (left > 0) {
    day = day.subtract({ days: 1 });
    if (isWorkingDay(day, holidays)) left -= 1;
  }
  return day.toString();
}

/**
 * How many working days lie after `from` up to and including `to` (0 when `to` ≤ `from`): so
 * `workingDaysBetween(d, addWorkingDays(d, n)) === n`.
 */
export function workingDaysBetween(from: string, to: string, holidays: HolidaySet): number {
  let day = Temporal.PlainDate.from(from);
  const last = Temporal.PlainDate.from(to);
  let count = 0;
  while (Temporal.PlainDate.compare(day, last) < 0) {
    day = day.add({ days: 1 });
    if (isWorkingDay(day, holidays)) count += 1;
  }
  return count;
}

/** Vigencia of the asiento de presentación: 35 working days (Reglamento General de los Registros Públicos, art. 27). */
export const PRESENTATION_WORKING_DAYS = 35;

/** The deadline warning is due this many working days before the asiento's last day. */
export const PRESENTATION_NOTICE_WORKING_DAYS = 5;

/**
 * The last day of the asiento de presentación of a título presented on `presentedOn` (the 35th
 * working day after it) and the day its warning is due (5 working days before that).
 */
export function presentationDeadline(presentedOn: string, holidays: HolidaySet): { deadline: string; notice_on: string } {
  const deadline = addWorkingDays(presentedOn, PRESENTATION_WORKING_DAYS, holidays);
  return { deadline, notice_on: subtractWorkingDays(deadline, PRESENTATION_NOTICE_WORKING_DAYS, holidays) };
}
