/**
 * Amounts in words for receipts (src/lib/finanzas/amount-in-words.ts; docs/domain.md "Receipts:
 * amount in words"): the edges of every rule, and properties (fast-check) over the whole range.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountInWords, MAX_WORDS_NUMBER, numberInWords } from '../../../../src/lib/finanzas/amount-in-words';

describe('numberInWords', () => {
  it.each([
    [0, 'CERO'],
    [1, 'UNO'],
    [9, 'NUEVE'],
    [10, 'DIEZ'],
    [15, 'QUINCE'],
    [16, 'DIECISÉIS'],
    [20, 'VEINTE'],
    [21, 'VEINTIUNO'],
    [22, 'VEINTIDÓS'],
    [29, 'VEINTINUEVE'],
    [30, 'TREINTA'],
    [31, 'TREINTA Y UNO'],
    [99, 'NOVENTA Y NUEVE'],
    [100, 'CIEN'],
    [101, 'CIENTO UNO'],
    [115, 'CIENTO QUINCE'],
    [200, 'DOSCIENTOS'],
    [500, 'QUINIENTOS'],
    [999, 'NOVECIENTOS NOVENTA Y NUEVE'],
    [1_000, 'MIL'],
    [1_001, 'MIL UNO'],
    [1_120, 'MIL CIENTO VEINTE'],
    [2_000, 'DOS MIL'],
    [21_000, 'VEINTIÚN MIL'],
    [31_000, 'TREINTA Y UN MIL'],
    [100_000, 'CIEN MIL'],
    [101_000, 'CIENTO UN MIL'],
    [999_999, 'NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE'],
    [1_000_000, 'UN MILLÓN'],
    [1_000_001, 'UN MILLÓN UNO'],
    [2_000_000, 'DOS MILLONES'],
    [21_000_000, 'VEINTIÚN MILLONES'],
    [21_021_021, 'VEINTIÚN MILLONES VEINTIÚN MIL VEINTIUNO'],
    [101_000_000, 'CIENTO UN MILLONES'],
    [1_000_000_000, 'MIL MILLONES'],
    [21_000_000_000, 'VEINTIÚN MIL MILLONES'],
    [
      MAX_WORDS_NUMBER,
      'NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE MILLONES NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE',
    ],
  ])('%d → %s', (n, words) => {
    expect(numberInWords(n)).toBe(words);
  });

  it('refuses what it cannot spell', () => {
    for (const bad of [-1, 1.5, MAX_WORDS_NUMBER + 1, Number.NaN]) expect(() => numberInWords(bad)).toThrow(RangeError);
  });

  it('properties: never empty, no doubled or stray spaces, UN only before MIL/MILLÓN/MILLONES and never for a lone thousand, distinct numbers distinct words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_WORDS_NUMBER }), fc.integer({ min: 0, max: MAX_WORDS_NUMBER }), (a, b) => {
        const words = numberInWords(a);
        expect(words).toMatch(/^[A-ZÁÉÍÓÚÑ]+( [A-ZÁÉÍÓÚÑ]+)*$/);
        expect(words).not.toMatch(/(^|MILLONES |MILLÓN )UN MIL\b/);
        expect(words).not.toMatch(/\b(UN|VEINTIÚN)$/);
        expect(words).not.toMatch(/\b(UNO|VEINTIUNO) (MIL|MILLÓN|MILLONES)\b/);
        if (a !== b) expect(numberInWords(b)).not.toBe(words);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('amountInWords', () => {
  it('prints the céntimos as nn/100 and the currency', () => {
    expect(amountInWords(112_050, 'PEN')).toBe('MIL CIENTO VEINTE CON 50/100 SOLES');
    expect(amountInWords(0, 'PEN')).toBe('CERO CON 00/100 SOLES');
    expect(amountInWords(105, 'USD')).toBe('UNO CON 05/100 DÓLARES AMERICANOS');
    expect(amountInWords(2_100_000_099, 'PEN')).toBe('VEINTIÚN MILLONES CON 99/100 SOLES');
    expect(amountInWords(100_000_000, 'USD')).toBe('UN MILLÓN CON 00/100 DÓLARES AMERICANOS');
    expect(() => amountInWords(-1, 'PEN')).toThrow(RangeError);
    expect(() => amountInWords(10.5, 'PEN')).toThrow(RangeError);
  });
});
