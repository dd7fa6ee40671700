/**
 * Amounts and dates in words for contracts (src/lib/administracion/amount-in-words.ts; docs/domain.md
 * "Contract variables: words"): the convention's edges, and properties (fast-check) — a round trip
 * through a reader of Spanish numerals, agreement with the receipts' independent speller, bounds,
 * no "uno mil", céntimos 00–99.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { cardinalWords, contractAmountInWords, dateInWords, MAX_CONTRACT_WORDS } from '../../../../src/lib/administracion/amount-in-words';
import { numberInWords } from '../../../../src/lib/finanzas/amount-in-words';

/** Reads Spanish cardinal words back into a number (the test's own reader, 0 … 10^12 − 1). */
function readCardinal(words: string): number {
  const small: Record<string, number> = {
    cero: 0,
    un: 1,
    uno: 1,
    dos: 2,
    tres: 3,
    cuatro: 4,
    cinco: 5,
    seis: 6,
    siete: 7,
    ocho: 8,
    nueve: 9,
    diez: 10,
    once: 11,
    doce: 12,
    trece: 13,
    catorce: 14,
    quince: 15,
    dieciséis: 16,
    diecisiete: 17,
    dieciocho: 18,
    diecinueve: 19,
    veinte: 20,
    veintiún: 21,
    veintiuno: 21,
    veintidós: 22,
    veintitrés: 23,
    veinticuatro: 24,
    veinticinco: 25,
    veintiséis: 26,
    veintisiete: 27,
    veintiocho: 28,
    veintinueve: 29,
    treinta: 30,
    cuarenta: 40,
    cincuenta: 50,
    sesenta: 60,
    setenta: 70,
    ochenta: 80,
    noventa: 90,
    cien: 100,
    ciento: 100,
    doscientos: 200,
    trescientos: 300,
    cuatrocientos: 400,
    quinientos: 500,
    seiscientos: 600,
    setecientos: 700,
    ochocientos: 800,
    novecientos: 900,
  };
  let total = 0; // millions already closed
  let thousands = 0; // the part before "mil" inside the current million group
  let group = 0;
  for (const word of words.split(' ')) {
    if (word === 'y') continue;
    if (word === 'mil') {
      thousands += (group === 0 ? 1 : group) * 1000;
      group = 0;
    } else if (word === 'millón' || word === 'millones') {
      total += (thousands + group) * 1_000_000;
      thousands = 0;
      group = 0;
    } else {
      const value = small[word];
      if (value === undefined) throw new Error(`unknown word ${word}`);
      group += value;
    }
  }
  return total + thousands + group;
}

describe('cardinalWords', () => {
  it.each([
    [0, 'cero'],
    [1, 'uno'],
    [16, 'dieciséis'],
    [21, 'veintiuno'],
    [100, 'cien'],
    [101, 'ciento uno'],
    [1_000, 'mil'],
    [1_001, 'mil uno'],
    [16_000, 'dieciséis mil'],
    [21_000, 'veintiún mil'],
    [31_000, 'treinta y un mil'],
    [101_000, 'ciento un mil'],
    [1_000_000, 'un millón'],
    [21_000_000, 'veintiún millones'],
    [101_000_000, 'ciento un millones'],
    [1_000_000_000, 'mil millones'],
    [1_001_000_000, 'mil un millones'],
    [1_200_000_016, 'mil doscientos millones dieciséis'],
    [21_021_021, 'veintiún millones veintiún mil veintiuno'],
  ])('%d → %s', (n, words) => expect(cardinalWords(n)).toBe(words));

  it('refuses what is not an integer 0 … 999 999 999 999', () => {
    for (const n of [-1, 1.5, MAX_CONTRACT_WORDS + 1, Number.NaN]) expect(() => cardinalWords(n)).toThrow(RangeError);
  });

  it('reads back to the same number, agrees with the receipts speller, and never writes "uno mil" or "un mil" at the start', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CONTRACT_WORDS }), (n) => {
        const words = cardinalWords(n);
        expect(readCardinal(words)).toBe(n);
        expect(words.toUpperCase()).toBe(numberInWords(n));
        expect(words).not.toMatch(/\buno (mil|millón|millones)\b/);
        expect(words).not.toMatch(/\bveintiuno (mil|millón|millones)\b/);
        expect(words).not.toMatch(/^un mil\b/);
        expect(words).not.toMatch(/dieciseis/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('contractAmountInWords', () => {
  it.each([
    [4_800_000, 'PEN', 'CUARENTA Y OCHO MIL Y 00/100 SOLES'],
    [1_250_050, 'USD', 'DOCE MIL QUINIENTOS Y 50/100 DÓLARES AMERICANOS'],
    [2_100_000, 'PEN', 'VEINTIÚN MIL Y 00/100 SOLES'],
    [100_000_000, 'PEN', 'UN MILLÓN Y 00/100 SOLES'],
    [100_000, 'PEN', 'MIL Y 00/100 SOLES'],
    [2_199, 'PEN', 'VEINTIUNO Y 99/100 SOLES'],
    [5, 'USD', 'CERO Y 05/100 DÓLARES AMERICANOS'],
  ] as const)('%d %s → %s', (cents, currency, words) => expect(contractAmountInWords(cents, currency)).toBe(words));

  it('refuses a negative or fractional amount', () => {
    expect(() => contractAmountInWords(-1, 'PEN')).toThrow(RangeError);
    expect(() => contractAmountInWords(1.5, 'PEN')).toThrow(RangeError);
    expect(() => contractAmountInWords((MAX_CONTRACT_WORDS + 1) * 100, 'PEN')).toThrow(RangeError);
  });

  it('is the whole part in capitals, "Y", the céntimos 00–99 over 100, and the currency', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_CONTRACT_WORDS * 100 + 99 }),
        fc.constantFrom('PEN' as const, 'USD' as const),
        (cents, currency) => {
          const text = contractAmountInWords(cents, currency);
          const match = /^([A-ZÁÉÍÓÚÑ ]+) Y (\d{2})\/100 (SOLES|DÓLARES AMERICANOS)$/.exec(text);
          expect(match).not.toBeNull();
          expect(readCardinal(match![1]!.toLowerCase())).toBe(Math.floor(cents / 100));
          expect(Number(match![2])).toBe(cents % 100);
          expect(match![3]).toBe(currency === 'PEN' ? 'SOLES' : 'DÓLARES AMERICANOS');
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('dateInWords', () => {
  it.each([
    ['2026-11-28', 'veintiocho de noviembre de dos mil veintiséis'],
    ['2027-01-01', 'primero de enero de dos mil veintisiete'],
    ['2026-09-16', 'dieciséis de septiembre de dos mil veintiséis'],
    ['2031-05-21', 'veintiuno de mayo de dos mil treinta y uno'],
  ])('%s → %s', (date, words) => expect(dateInWords(date)).toBe(words));

  it('refuses an invalid date', () => {
    expect(() => dateInWords('2026-02-30')).toThrow(RangeError);
  });

  it('reads back to the same day, month and year', () => {
    const months = [
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
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), (offset) => {
        const date = Temporal.PlainDate.from('1990-01-01').add({ days: offset });
        const [day, month, year] = dateInWords(date.toString()).split(' de ');
        expect(day === 'primero' ? 1 : readCardinal(day!)).toBe(date.day);
        expect(months.indexOf(month!) + 1).toBe(date.month);
        expect(readCardinal(year!)).toBe(date.year);
      }),
    );
  });
});
