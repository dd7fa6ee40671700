/**
 * The figures of commissions (docs/domain.md "Commissions"), one convention used by the server's
 * lifecycle, the settlements, their PDF and the tests. Money is integer céntimos; percents are
 * basis points (1 % = 100 bp), so no binary fraction ever reaches a stored amount.
 *
 * Rounding: a percent commission is the net price × rate rounded **half up** to the céntimo, once,
 * on the whole; its tranches are then cut from that whole — every tranche but the last is its share
 * rounded **down**, the last takes the remainder — so the tranches always add up to the whole and
 * no céntimo is created or lost. The withholding is rounded half up as well.
 */

/** Basis points in 100 %. */
export const FULL_BP = 10_000;

/**
 * The 4th-category income-tax withholding (retención de rentas de cuarta categoría) a company
 * that pays a recibo por honorarios deducts, in basis points: 8 %.
 *
 * Sources: Texto Único Ordenado de la Ley del Impuesto a la Renta (D.S. 179-2004-EF), art. 71
 * (who withholds: companies paying 4th-category income) and art. 74 (the rate; 8 % since
 * 1 January 2015 by Ley 30296). The agent may hold a SUNAT "constancia de suspensión de
 * retenciones" (Formulario 1609): then no withholding applies — the staff untick "emite recibos por
 * honorarios" or record it in the agent's settings.
 */
export const FOURTH_CATEGORY_WITHHOLDING_BP = 800;

/**
 * The amount a recibo por honorarios must exceed for the payer to withhold, in céntimos of soles:
 * S/ 1 500.00. SUNAT's rule for 4th-category withholding: receipts of S/ 1 500 or less are paid
 * without withholding; above it the 8 % is withheld on the whole receipt (SUNAT, "Rentas de cuarta
 * categoría — retenciones", orientación tributaria; applied with art. 74 of the Ley del Impuesto a
 * la Renta). The figure is stated in soles: it applies to PEN settlements only (see
 * {@link withholdingFor}).
 */
export const FOURTH_CATEGORY_THRESHOLD_CENTS = 150_000;

/**
 * The whole commission of a policy on one sale, in céntimos.
 * @param base PORCENTAJE (`value` basis points of `netPriceCents`, the price after discount) or
 *   MONTO_FIJO (`value` céntimos, the subdivision's currency).
 * @returns a non-negative integer.
 */
export function commissionTotal(base: 'PORCENTAJE' | 'MONTO_FIJO', value: number, netPriceCents: number): number {
  if (base === 'MONTO_FIJO') return Math.max(0, Math.trunc(value));
  if (netPriceCents <= 0 || value <= 0) return 0;
  // A price of up to 1e12 céntimos times 10 000 bp passes 2^53: the product is taken in BigInt.
  const product = BigInt(Math.trunc(netPriceCents)) * BigInt(Math.trunc(value));
  return Number((2n * product + BigInt(FULL_BP)) / BigInt(2 * FULL_BP));
}

/**
 * Cuts `total` céntimos into tranches of `sharesBp` (basis points adding up to 10 000): each but
 * the last rounded down, the last the remainder, so Σ = total exactly.
 * @throws Error when the shares do not add up to 10 000 or one is not positive.
 */
export function trancheAmounts(total: number, sharesBp: readonly number[]): number[] {
  if (sharesBp.length === 0 || sharesBp.some((s) => !Number.isInteger(s) || s <= 0) || sharesBp.reduce((a, b) => a + b, 0) !== FULL_BP)
    throw new Error('Tranche shares must be positive basis points adding up to 10 000');
  const amounts = sharesBp.slice(0, -1).map((share) => Number((BigInt(total) * BigInt(share)) / BigInt(FULL_BP)));
  amounts.push(total - amounts.reduce((a, b) => a + b, 0));
  return amounts;
}

/** One agent's figures in a settlement. */
export interface AgentSettlementFigures {
  /** Σ the agent's lines (REVERTIDA lines negative), céntimos. */
  gross: number;
  /** The 4th-category withholding, céntimos (0 when it does not apply). */
  withholding: number;
  /** gross − withholding. */
  net: number;
}

/**
 * The withholding of one agent's settlement: {@link FOURTH_CATEGORY_WITHHOLDING_BP} of the gross,
 * rounded half up, when the agent issues recibos por honorarios, the settlement is in soles and
 * the gross (the one receipt the agent issues for it) exceeds {@link FOURTH_CATEGORY_THRESHOLD_CENTS};
 * otherwise 0. A USD settlement shows none: the threshold is in soles and the exchange rate of the
 * payment day is the accountant's (docs/decisions.md "Commissions").
 */
export function withholdingFor(grossCents: number, issuesFeeReceipts: boolean, currency: 'PEN' | 'USD'): AgentSettlementFigures {
  const withholding =
    issuesFeeReceipts && currency === 'PEN' && grossCents > FOURTH_CATEGORY_THRESHOLD_CENTS
      ? Number((2n * BigInt(grossCents) * BigInt(FOURTH_CATEGORY_WITHHOLDING_BP) + BigInt(FULL_BP)) / BigInt(2 * FULL_BP))
      : 0;
  return { gross: grossCents, withholding, net: grossCents - withholding };
}
