import { Temporal } from 'temporal-polyfill';
import { LIMA_TIME_ZONE, epochMilliseconds, type InstantLike } from './lima-today';

/**
 * Date helpers of the web app (docs/product.md §1 and §9: time zone America/Lima, format dd/mm/yyyy — docs/decisions.md "Four-digit years"), built on
 * Temporal (temporal-polyfill). Pure functions, shared by machines, views and the server.
 */

export { LIMA_TIME_ZONE, todayInLima, type InstantLike } from './lima-today';

/**
 * Formats a wire date for display as dd/mm/yyyy (docs/product.md §1; four-digit years: docs/decisions.md).
 * @param iso an ISO calendar date `YYYY-MM-DD` (shown as is) or an ISO instant with offset
 *   (`2025-03-02T03:00:00Z`, converted to America/Lima first).
 * @returns `dd/mm/yyyy`, or '' when the input is not a valid ISO date or instant.
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
  const yyyy = String(date.year).padStart(4, '0');
  return `${dd}/${mm}/${yyyy}`;
}

/**
 * Whole days from calendar date `from` to calendar date `to` (both `YYYY-MM-DD`; negative when `to`
 * is earlier). Used for a sale's days late (docs/decisions.md "Heat map metrics").
 * @throws RangeError when either is not a valid ISO calendar date.
 */
export function daysBetween(from: string, to: string): number {
  return Temporal.PlainDate.from(from, { overflow: 'reject' }).until(Temporal.PlainDate.from(to, { overflow: 'reject' }), {
    largestUnit: 'days',
  }).days;
}

/**
 * Days since 1970-01-01 of a calendar date `YYYY-MM-DD` (a number a scale can place), or null when
 * it is not a valid date.
 */
export function epochDay(date: string): number | null {
  try {
    return Temporal.PlainDate.from(date, { overflow: 'reject' }).since('1970-01-01', { largestUnit: 'days' }).days;
  } catch {
    return null;
  }
}

/** `epochDay`'s inverse: the calendar date `YYYY-MM-DD` of a number of days since 1970-01-01 (rounded). */
export function dateOfEpochDay(day: number): string {
  return Temporal.PlainDate.from('1970-01-01')
    .add({ days: Math.round(day) })
    .toString();
}

/** Shown when a notification has no creation date (docs/product.md §3 fallback). */
export const DATE_MISSING_TEXT = 'Fecha no disponible';
/** Shown when a notification's creation date cannot be read (docs/product.md §3 fallback). */
export const DATE_INVALID_TEXT = 'Fecha inválida';

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * A Lima wall time as the server formats it ('YYYY-MM-DD HH:mm:ss', docs/product.md §3 created_at_formatted),
 * or docs/product.md §3's fallback: "Fecha no disponible" when missing or blank, "Fecha inválida" when it is
 * not in that form.
 */
export function limaWallTimeText(text: string | null | undefined): string {
  if (text == null || text.trim() === '') return DATE_MISSING_TEXT;
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text) ? text : DATE_INVALID_TEXT;
}

/**
 * Relative time in Spanish of an instant (docs/product.md §2 notifications panel: "creation date (shown as
 * relative time)"; §3 fallbacks), with Intl.RelativeTimeFormat('es', numeric 'auto'): "ahora",
 * "hace 5 minutos", "ayer", "hace 3 semanas"… Uses Intl only (no Temporal), so the shell's chunk
 * does not carry temporal-polyfill.
 * @param iso the instant, ISO 8601 (e.g. `fecha_creacion` '2025-03-02T15:04:05Z').
 * @param now the current instant (defaults to the system clock); injectable for tests.
 * @returns the relative text; "Fecha no disponible" when `iso` is missing or blank, "Fecha
 *   inválida" when it is not a date. Less than a minute either way (clock skew) reads "ahora".
 */
export function relativeTimeEs(iso: string | null | undefined, now: InstantLike = Date.now()): string {
  if (iso == null || iso.trim() === '') return DATE_MISSING_TEXT;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return DATE_INVALID_TEXT;
  const seconds = Math.round((at - epochMilliseconds(now)) / 1000);
  const format = new Intl.RelativeTimeFormat('es', { numeric: 'auto' });
  if (Math.abs(seconds) < 60) return format.format(0, 'second');
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * An instant as dd/mm/yyyy HH:mm in America/Lima (docs/product.md §1), e.g. a lead's next follow-up.
 * @returns '' when `iso` is not an ISO instant.
 */
export function formatDateTime(iso: string): string {
  try {
    const t = Temporal.Instant.from(iso).toZonedDateTimeISO(LIMA_TIME_ZONE);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(t.day)}/${two(t.month)}/${String(t.year).padStart(4, '0')} ${two(t.hour)}:${two(t.minute)}`;
  } catch {
    return '';
  }
}

/**
 * A Lima wall time as the date-and-time field writes it (`YYYY-MM-DDTHH:mm`,
 * src/views/shared/LimaDateTimeInput.tsx) → the ISO instant (UTC, `Z`). Lima has no daylight saving, so every wall time exists once.
 * @returns null when `text` is not such a wall time.
 */
export function limaWallTimeToInstant(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text)) return null;
  try {
    return Temporal.PlainDateTime.from(text, { overflow: 'reject' }).toZonedDateTime(LIMA_TIME_ZONE).toInstant().toString();
  } catch {
    return null;
  }
}

/** An ISO instant → its Lima wall time `YYYY-MM-DDTHH:mm` (for the date-and-time field); '' when not an instant. */
export function instantToLimaWallTime(iso: string | null | undefined): string {
  if (!iso) return '';
  try {
    return Temporal.Instant.from(iso).toZonedDateTimeISO(LIMA_TIME_ZONE).toPlainDateTime().toString({ smallestUnit: 'minute' });
  } catch {
    return '';
  }
}
