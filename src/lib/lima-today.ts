import type { Temporal } from 'temporal-polyfill';

/**
 * Today's date in America/Lima without temporal-polyfill (only its types): the app's entry chunk
 * needs today's date, and a static import of the polyfill there would carry ~45 KB gzip into
 * /auth/login (issue "Foundation", performance). `src/lib/dates.ts` re-exports these.
 */

/** The business time zone (docs/product.md §9). */
export const LIMA_TIME_ZONE = 'America/Lima';

/** Anything that names an instant: a Temporal.Instant, a JS Date or epoch milliseconds. */
export type InstantLike = Temporal.Instant | Date | number;

/** Epoch milliseconds of any {@link InstantLike}. */
export function epochMilliseconds(now: InstantLike): number {
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
