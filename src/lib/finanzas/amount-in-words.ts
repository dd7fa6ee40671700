/**
 * An amount in words, as Peruvian receipts print it (docs/domain.md "Receipts: amount in words"):
 * "MIL CIENTO VEINTE CON 50/100 SOLES", "UN MILLÓN CON 00/100 DÓLARES AMERICANOS". Spanish, in
 * capitals with their accents (Real Academia Española, "Ortografía" 2010, numerals):
 * - 1–29 one word each (DIECISÉIS, VEINTIDÓS); from 31 "TREINTA Y UNO"; 100 CIEN, 101 CIENTO UNO;
 * - 1 000 is MIL (never "UN MIL"); 1 000 000 UN MILLÓN, 2 000 000 DOS MILLONES; 10^9 MIL MILLONES;
 * - UNO shortens to UN (and VEINTIUNO to VEINTIÚN) before MIL, MILLÓN and MILLONES
 *   (VEINTIÚN MIL, CIENTO UN MILLONES); at the end of the whole part it stays UNO, as it is followed
 *   by "CON nn/100", not by the currency's name;
 * - the céntimos as "nn/100", then the currency: SOLES (PEN) or DÓLARES AMERICANOS (USD).
 */

const UNITS = [
  '',
  'UNO',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIUNO',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

/** Largest whole part spelled: 999 999 999 999 (under a billón). */
export const MAX_WORDS_NUMBER = 999_999_999_999;

/** Currency names after the céntimos. */
export const CURRENCY_WORDS = { PEN: 'SOLES', USD: 'DÓLARES AMERICANOS' } as const;

/** 1–99; `short` = UN / VEINTIÚN (before MIL, MILLÓN, MILLONES). */
function belowHundred(n: number, short: boolean): string {
  if (n === 1 && short) return 'UN';
  if (n === 21 && short) return 'VEINTIÚN';
  if (n < 30) return UNITS[n]!;
  const unit = n % 10;
  return unit === 0 ? TENS[Math.floor(n / 10)]! : `${TENS[Math.floor(n / 10)]} Y ${belowHundred(unit, short)}`;
}

/** 1–999. */
function belowThousand(n: number, short: boolean): string {
  if (n === 100) return 'CIEN';
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [HUNDREDS[hundreds], rest > 0 ? belowHundred(rest, short) : ''].filter(Boolean).join(' ');
}

/** 1–999 999. */
function belowMillion(n: number, short: boolean): string {
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const head = thousands === 0 ? '' : thousands === 1 ? 'MIL' : `${belowThousand(thousands, true)} MIL`;
  return [head, rest > 0 ? belowThousand(rest, short) : ''].filter(Boolean).join(' ');
}

/**
 * A whole number in Spanish words, in capitals ("CERO", "VEINTIUNO", "UN MILLÓN DOSCIENTOS MIL").
 * @throws RangeError when `n` is not an integer 0 … {@link MAX_WORDS_NUMBER}.
 */
export function numberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_WORDS_NUMBER) throw new RangeError(`n must be an integer 0–${MAX_WORDS_NUMBER}`);
  if (n === 0) return 'CERO';
  const millions = Math.floor(n / 1_000_000);
  const rest = n % 1_000_000;
  const head = millions === 0 ? '' : millions === 1 ? 'UN MILLÓN' : `${belowMillion(millions, true)} MILLONES`;
  return [head, rest > 0 ? belowMillion(rest, false) : ''].filter(Boolean).join(' ');
}

/**
 * An amount of money in words as a receipt prints it after "SON:": whole part in words, "CON",
 * the céntimos as "nn/100", the currency ("MIL CIENTO VEINTE CON 50/100 SOLES").
 * @param cents integer céntimos ≥ 0. @throws RangeError on a negative, fractional or too large amount.
 */
export function amountInWords(cents: number, currency: keyof typeof CURRENCY_WORDS): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError('cents must be a non-negative integer');
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return `${numberInWords(whole)} CON ${fraction}/100 ${CURRENCY_WORDS[currency]}`;
}
