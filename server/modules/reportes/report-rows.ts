import type { CurrencyCode } from '../../../src/lib/money';

export { withQuery } from '../../../src/lib/with-query';

/**
 * Count and Σ amount (céntimos) per currency of grouped cells, soles first: a report's totals,
 * never added across currencies (docs/reports.md "Rules shared by every report").
 */
export function currencyTotals(cells: ReadonlyArray<{ currency: CurrencyCode; count: number; amount: number }>) {
  const totals = new Map<CurrencyCode, { currency: CurrencyCode; count: number; amount: number }>();
  for (const c of cells) {
    const t = totals.get(c.currency) ?? { currency: c.currency, count: 0, amount: 0 };
    t.count += c.count;
    t.amount += c.amount;
    totals.set(c.currency, t);
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
