import { toCardinal } from 'n2words/es-ES';
import { Temporal } from 'temporal-polyfill';

/**
 * Amounts and dates in words as Peruvian contracts (minutas, escrituras) write them (docs/domain.md
 * "Contract variables: words"). The words come from n2words 4.0.0 (`toCardinal`, es-ES); this
 * module fixes what that library gets wrong for a contract and adds the notarial frame:
 *
 * - Whole part in words, in capitals with their accents; then "Y nn/100" (the céntimos in figures);
 *   then the currency: SOLES (PEN) or DÓLARES AMERICANOS (USD):
 *   "CUARENTA Y OCHO MIL Y 00/100 SOLES", "DOCE MIL QUINIENTOS Y 50/100 DÓLARES AMERICANOS".
 * - 1 000 is MIL, never "UN MIL" (Real Academia Española, "Ortografía de la lengua española" 2010
 *   §2.4 numerales cardinales; "Diccionario panhispánico de dudas", s.v. "mil": "un mil" is a
 *   cheque-writing habit the norm rejects). n2words already writes "mil".
 * - Apocope of UNO before a noun it quantifies (DPD s.v. "uno", "veintiuno"): UNO → UN and VEINTIUNO
 *   → VEINTIÚN before MIL, MILLÓN, MILLONES: "VEINTIÚN MIL", "TREINTA Y UN MIL", "CIENTO UN
 *   MILLONES". n2words 4.0.0 writes "veintiuno mil" / "ciento uno mil": corrected here. At the end
 *   of the whole part UNO stays ("VEINTIUNO Y 00/100 SOLES"): what follows is the fraction, as
 *   receipts write it (src/lib/finanzas/amount-in-words.ts).
 * - DIECISÉIS carries its accent (n2words 4.0.0 writes "dieciseis"): corrected here.
 * - Thousands of millions as one count of millions: 1 001 000 000 is "MIL UN MILLONES" (n2words
 *   4.0.0 writes "mil millones un millón"): the millions are spelled here as a number of millions.
 * - Range: 0 … {@link MAX_CONTRACT_WORDS} (below un billón).
 */

/** Largest whole part written in words: 999 999 999 999 (below un billón). */
export const MAX_CONTRACT_WORDS = 999_999_999_999;

/** Currency names as contracts write them. */
export const CONTRACT_CURRENCY_WORDS = { PEN: 'SOLES', USD: 'DÓLARES AMERICANOS' } as const;

/**
 * A whole number in Spanish words, lower case ("veintiún mil quinientos"), with the corrections
 * above. @throws RangeError when `n` is not an integer 0 … {@link MAX_CONTRACT_WORDS}.
 */
export function cardinalWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_CONTRACT_WORDS) throw new RangeError(`n must be an integer 0–${MAX_CONTRACT_WORDS}`);
  const millions = Math.floor(n / 1_000_000);
  const rest = n % 1_000_000;
  // n2words writes 1 001 000 000 as "mil millones un millón": the millions are spelled here as one
  // number of millions ("mil un millones"), each part below a million by n2words.
  const head = millions === 0 ? '' : millions === 1 ? 'un millón' : `${belowMillionWords(millions, true)} millones`;
  const tail = rest === 0 ? (millions === 0 ? 'cero' : '') : belowMillionWords(rest, false);
  return [head, tail].filter(Boolean).join(' ');
}

/** 1 … 999 999 by n2words, corrected; `beforeNoun`: a final UNO shortens (it quantifies "millones"). */
function belowMillionWords(n: number, beforeNoun: boolean): string {
  const words = toCardinal(n)
    .replace(/\bdieciseis\b/g, 'dieciséis')
    .replace(/\bveintiuno (?=mil\b)/g, 'veintiún ')
    .replace(/\buno (?=mil\b)/g, 'un ');
  return beforeNoun ? words.replace(/\bveintiuno$/, 'veintiún').replace(/\buno$/, 'un') : words;
}

/**
 * An amount of money in words as a contract writes it beside the figures:
 * "CUARENTA Y OCHO MIL Y 00/100 SOLES".
 * @param cents integer céntimos ≥ 0 (whole part ≤ {@link MAX_CONTRACT_WORDS}).
 * @throws RangeError on a negative, fractional or too large amount.
 */
export function contractAmountInWords(cents: number, currency: keyof typeof CONTRACT_CURRENCY_WORDS): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError('cents must be a non-negative integer');
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return `${cardinalWords(whole).toUpperCase()} Y ${fraction}/100 ${CONTRACT_CURRENCY_WORDS[currency]}`;
}

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/**
 * A calendar date in words, lower case, as a contract's closing writes it:
 * "veintiocho de noviembre de dos mil veintiséis". Day 1 is "primero" ("primero de enero de dos mil
 * veintisiete"), the usual form in Peruvian legal texts (the RAE accepts "uno" and "primero" for
 * the first day of a month). Months as the RAE spells them ("septiembre").
 * @param date `YYYY-MM-DD`. @throws RangeError when it is not a valid ISO calendar date.
 */
export function dateInWords(date: string): string {
  const day = Temporal.PlainDate.from(date, { overflow: 'reject' });
  const dayWords = day.day === 1 ? 'primero' : cardinalWords(day.day);
  return `${dayWords} de ${MONTHS[day.month - 1]} de ${cardinalWords(day.year)}`;
}
