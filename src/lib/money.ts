/**
 * Money and measures as people in Peru read them (docs/api.md "Business resources": integer céntimos plus an
 * explicit currency). Formatting goes through Intl (es-PE): thousands with ",", decimals with ".".
 */

/** Currencies in use (docs/domain.md "Catalogues"). */
export type CurrencyCode = 'PEN' | 'USD';

/** Symbol shown before amounts: S/ for soles, US$ for dollars. */
export const CURRENCY_SYMBOL: Readonly<Record<CurrencyCode, string>> = { PEN: 'S/', USD: 'US$' };

const amountFormat = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const measureFormat = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/**
 * "S/ 1,234.50" from 123450 céntimos; a negative amount (a reversed commission line, a refund) reads
 * "-S/ 1,302.75": the sign goes before the symbol, as Intl's es-PE currency style writes it (Intl itself
 * is not used because it writes dollars "USD", not "US$"). Zero never carries a sign.
 * @param cents integer céntimos (a non-integer is rounded).
 */
export function formatMoney(cents: number, currency: CurrencyCode): string {
  const rounded = Math.round(cents);
  const sign = rounded < 0 ? '-' : '';
  return `${sign}${CURRENCY_SYMBOL[currency]} ${amountFormat.format(Math.abs(rounded) / 100)}`;
}

/** "1,250.50 m²" from an area in m²: always two decimals (docs/decisions.md "Four-digit years, two-decimal areas"). */
export function formatArea(m2: number): string {
  return `${amountFormat.format(m2)} m²`;
}

/** "12.5 m" from a length in metres (at most 2 decimals). */
export function formatMetres(metres: number): string {
  return `${measureFormat.format(metres)} m`;
}

/** Céntimos → the text a person edits in a money field ("250.00"); {@link parseMoneyInput} reads it back. */
export function centsToInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * Céntimos from what a person typed in soles or dollars ("1,234.5", "1234,50", "S/ 250"): null when
 * it is not a non-negative amount with at most 2 decimals.
 */
export function parseMoneyInput(text: string): number | null {
  const cleaned = text.replace(/S\/|US\$|\s/g, '');
  if (cleaned === '') return null;
  // The last "," or "." followed by 1–2 digits is the decimal separator; the others group thousands.
  const match = /^(\d{1,3}(?:[.,]\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const whole = Number(match[1]!.replace(/[.,]/g, ''));
  const fraction = match[2] ? Number(match[2].padEnd(2, '0')) : 0;
  return whole * 100 + fraction;
}
