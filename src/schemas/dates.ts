import { z } from 'zod';
import { Temporal } from 'temporal-polyfill';
import { CALENDAR_DATE_BOUNDS, CALENDAR_DATE_MESSAGES } from './common';

/**
 * The date of every REQUEST field and query parameter that holds a calendar day (docs/domain.md
 * "Dates"): `YYYY-MM-DD`, a day that exists in the ISO (proleptic Gregorian) calendar — checked by
 * `Temporal.PlainDate.from(text, { overflow: 'reject' })`, so "2026-13-45", "2027-02-30" and
 * "0000-00-00" are refused — between {@link CALENDAR_DATE_BOUNDS} (1900-01-01 … 2100-12-31).
 * Business windows (a sale date near today, an operation date not before the sale) are the
 * services' rules on top of this one.
 *
 * Response schemas keep the tolerant `isoDateSchema` / `z.string()` (they must not refuse what
 * another backend sends). The customer self-registration (src/schemas/session.ts, loaded by the
 * login page) applies the same rule without Temporal, to keep temporal-polyfill out of the login
 * bundle.
 */

/** Why `text` is not an accepted calendar date, or null when it is one. */
export type CalendarDateProblem = 'format' | 'notInCalendar' | 'outOfRange';

/**
 * Checks `text` against the rule of this module.
 * @returns null for an accepted date; 'format' when it is not `YYYY-MM-DD`; 'notInCalendar' when
 *   that day does not exist (month 13, 30 February, day 00); 'outOfRange' outside the bounds.
 */
export function calendarDateProblem(text: string): CalendarDateProblem | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'format';
  try {
    Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    return 'notInCalendar';
  }
  // Four-digit ISO dates sort as text.
  return text < CALENDAR_DATE_BOUNDS.min || text > CALENDAR_DATE_BOUNDS.max ? 'outOfRange' : null;
}

/**
 * A request's calendar date (`YYYY-MM-DD`, a real day, 1900–2100), as text.
 * @param message the field's Spanish message when the value is missing, not `YYYY-MM-DD` or a
 *   day that does not exist (default "Fecha inválida"); a real day outside the bounds gets
 *   {@link CALENDAR_DATE_MESSAGES}.outOfRange.
 */
export function calendarDateSchema(message: string = CALENDAR_DATE_MESSAGES.invalid) {
  return z.string({ error: message }).superRefine((text, ctx) => {
    const problem = calendarDateProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem === 'outOfRange' ? CALENDAR_DATE_MESSAGES.outOfRange : message });
  });
}
