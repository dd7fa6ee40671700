import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commissionTotal,
  FOURTH_CATEGORY_THRESHOLD_CENTS,
  trancheAmounts,
  withholdingFor,
} from '../../../../src/lib/administracion/commission-amounts';

/**
 * The commissions' figures (docs/domain.md "Commissions", rounding): a percent of the net price in
 * basis points rounded half up once on the whole; tranches cut from the whole adding up to it
 * exactly; the 8 % 4th-category withholding above S/ 1 500.00 for agents who issue recibos por honorarios.
 */

const price = fc.integer({ min: 0, max: 1_000_000_000_000 });
const rate = fc.integer({ min: 1, max: 10_000 });
/** Positive shares adding up to 10 000 basis points (1 to 4 tranches). */
const shares = fc
  .array(fc.integer({ min: 1, max: 9_999 }), { minLength: 0, maxLength: 3 })
  .map((cuts) => [...new Set(cuts)].sort((a, b) => a - b))
  .map((cuts) => [...cuts, 10_000].map((cut, i, all) => cut - (i === 0 ? 0 : all[i - 1]!)));

describe('commission amounts', () => {
  it('a percent of the net price is the exact product rounded half up to the céntimo', () => {
    fc.assert(
      fc.property(price, rate, (net, bp) => {
        const total = commissionTotal('PORCENTAJE', bp, net);
        expect(Number.isSafeInteger(total)).toBe(true);
        // total − net × bp / 10 000 in (−½, ½] céntimo: compared in integers (BigInt, the product passes 2^53).
        const diff = 20_000n * BigInt(total) - 2n * BigInt(net) * BigInt(bp);
        expect(diff > -10_000n && diff <= 10_000n).toBe(true);
      }),
      { numRuns: 2_000, seed: 44 },
    );
    expect(commissionTotal('PORCENTAJE', 300, 4_850_050)).toBe(145_502); // 145 501.5 → 145 502
    expect(commissionTotal('PORCENTAJE', 300, 0)).toBe(0);
    expect(commissionTotal('MONTO_FIJO', 150_000, 1)).toBe(150_000);
  });

  it('tranches add up to the whole, each but the last rounded down, none negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), shares, (total, cut) => {
        const amounts = trancheAmounts(total, cut);
        expect(amounts).toHaveLength(cut.length);
        expect(amounts.reduce((a, b) => a + b, 0)).toBe(total);
        amounts.forEach((a) => expect(a).toBeGreaterThanOrEqual(0));
        amounts.slice(0, -1).forEach((a, i) => expect(BigInt(a)).toBe((BigInt(total) * BigInt(cut[i]!)) / 10_000n));
      }),
      { numRuns: 2_000, seed: 45 },
    );
    expect(trancheAmounts(145_001, [5_000, 5_000])).toEqual([72_500, 72_501]);
    expect(() => trancheAmounts(100, [5_000, 4_000])).toThrow();
  });

  it('withholds 8 % only above S/ 1 500.00, in soles, for agents who issue recibos por honorarios', () => {
    expect(withholdingFor(FOURTH_CATEGORY_THRESHOLD_CENTS, true, 'PEN')).toEqual({ gross: 150_000, withholding: 0, net: 150_000 });
    expect(withholdingFor(150_001, true, 'PEN')).toEqual({ gross: 150_001, withholding: 12_000, net: 138_001 });
    expect(withholdingFor(174_000, true, 'PEN').withholding).toBe(13_920);
    expect(withholdingFor(174_000, false, 'PEN').withholding).toBe(0);
    expect(withholdingFor(174_000, true, 'USD').withholding).toBe(0);
    expect(withholdingFor(-50_000, true, 'PEN')).toEqual({ gross: -50_000, withholding: 0, net: -50_000 });
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.boolean(), (gross, issues) => {
        const f = withholdingFor(gross, issues, 'PEN');
        expect(f.gross - f.withholding).toBe(f.net);
        expect(f.withholding).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 1_000, seed: 46 },
    );
  });
});
