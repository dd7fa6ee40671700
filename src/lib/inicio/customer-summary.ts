import type { NextInstalment, Purchase } from '../../schemas/comercio/purchases';

/** The customer's next instalment to pay across their purchases, and the purchase it belongs to. */
export interface NextDue {
  purchase: Purchase;
  instalment: NextInstalment;
}

/** What the customer owes past due in one currency (céntimos): instalments and late fees apart. */
export interface OverdueInCurrency {
  currency: Purchase['currency'];
  /** Σ `overdue_amount` of the purchases in this currency. */
  amount: number;
  /** Σ `late_fee_due`. */
  lateFees: number;
  /** Σ `overdue_instalments`. */
  instalments: number;
}

/**
 * The portal's Inicio figures from the Mis Compras list (docs/dashboard.md "The customer's
 * Inicio"), so they are the list's own: `next` is the open instalment due first over every purchase
 * (ties: the older purchase, as listed last), null when nothing is owed; `overdue` sums the
 * purchases' overdue amounts and late fees per currency — soles and dollars never added — leaving
 * out a currency with nothing past due. Order: PEN, then USD.
 * @param purchases the rows of GET /api/customer/purchases.
 */
export function customerSummary(purchases: readonly Purchase[]): { next: NextDue | null; overdue: OverdueInCurrency[] } {
  let next: NextDue | null = null;
  for (const purchase of purchases) {
    const instalment = purchase.next_instalment;
    if (instalment && (next === null || instalment.due_date <= next.instalment.due_date)) next = { purchase, instalment };
  }
  const overdue = (['PEN', 'USD'] as const).flatMap((currency) => {
    const rows = purchases.filter((p) => p.currency === currency);
    const amount = rows.reduce((sum, p) => sum + p.overdue_amount, 0);
    const lateFees = rows.reduce((sum, p) => sum + p.late_fee_due, 0);
    const instalments = rows.reduce((sum, p) => sum + p.overdue_instalments, 0);
    return amount > 0 || lateFees > 0 ? [{ currency, amount, lateFees, instalments }] : [];
  });
  return { next, overdue };
}
