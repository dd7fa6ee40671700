import { Temporal } from 'temporal-polyfill';

/**
 * Date helpers of the web app (SPEC §1 and §9: time zone America/Lima, format dd/mm/yy), built on
 * Temporal (temporal-polyfill). Pure functions, shared by machines, views and the server.
 */

/** The business time zone (SPEC §9). */
export const LIMA_TIME_ZONE = 'America/Lima';

/** Anything that names an instant: a Temporal.Instant, a JS Date or epoch milliseconds. */
export type InstantLike = Temporal.Instant | Date | number;

function epochMilliseconds(now: InstantLike): number {
  if (typeof now === 'number') return now;
  if (now instanceof Date) return now.getTime();
  return now.epochMilliseconds;
}

/**
 * Today's calendar date in America/Lima.
 * Written with Intl (the same time-zone data Temporal uses) rather than Temporal so that the
 * app's entry chunk, which needs today's date, does not carry temporal-polyfill.
 * @param now the current instant (defaults to the system clock); injectable for tests.
 * @returns ISO date `YYYY-MM-DD` (e.g. 03:00 UTC on 2025-03-02 is still '2025-03-01' in Lima, UTC−5).
 */
export function todayInLima(now: InstantLike = Date.now()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: LIMA_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(epochMilliseconds(now));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/**
 * Formats a wire date for display as dd/mm/yy (SPEC §1).
 * @param iso an ISO calendar date `YYYY-MM-DD` (shown as is) or an ISO instant with offset
 *   (`2025-03-02T03:00:00Z`, converted to America/Lima first).
 * @returns `dd/mm/yy`, or '' when the input is not a valid ISO date or instant.
 */
export function formatDate(iso: string): string {
  let date: Temporal.PlainDate;
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) {
      date = Temporal.PlainDate.from(iso, { overflow: 'reject' });
    } else {
      date = Temporal.Instant.from(iso).toZonedDateTimeISO(LIMA_TIME_ZONE).toPlainDate();
    }
  } catch {
    return '';
  }
  const dd = String(date.day).padStart(2, '0');
  const mm = String(date.month).padStart(2, '0');
  const yy = String(date.year % 100).padStart(2, '0');
  return `${dd}/${mm}/${yy}`;
}
