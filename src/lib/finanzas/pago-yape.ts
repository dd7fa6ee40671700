/**
 * What a customer may pay from the portal (PagoYape; issue 16 "Customer screens": "the customer
 * picks instalments (oldest first enforced), sees the amount"), one module for the browser (the
 * checkboxes and the amount shown) and the server (POST /api/customer/purchases/{id}/payments checks
 * the same figures). Rules (docs/decisions.md "Customer purchases"):
 *
 * - The instalments that can be chosen are those with something still owed on their amount, oldest
 *   first (due date, then schedule order). A choice is always the first k of them: an instalment
 *   can be chosen only when every older one is chosen too.
 * - The amount is every late fee owed on the sale (approval applies late fees first:
 *   src/lib/finanzas/allocation.ts) plus the chosen instalments' amounts due.
 *
 * All amounts in céntimos.
 */

/** A statement row as these rules read it (src/schemas/comercio/purchases.ts `statementInstalmentSchema`). */
export interface PayableRow {
  id: number;
  /** ISO `YYYY-MM-DD`. */
  due_date: string;
  /** Still owed on the instalment's amount. */
  balance: number;
  /** Late fee still owed. */
  late_fee_due: number;
}

/** The rows with something owed on their amount, oldest first (due date, then their order in `schedule`). */
export function payableInstalments<T extends PayableRow>(schedule: readonly T[]): T[] {
  return schedule
    .map((row, order) => ({ row, order }))
    .filter(({ row }) => row.balance > 0)
    .sort((a, b) => (a.row.due_date < b.row.due_date ? -1 : a.row.due_date > b.row.due_date ? 1 : a.order - b.order))
    .map(({ row }) => row);
}

/** Every late fee owed on the sale. */
export function lateFeesOwed(schedule: readonly PayableRow[]): number {
  return schedule.reduce((sum, row) => sum + Math.max(0, row.late_fee_due), 0);
}

/**
 * The amount of paying the `count` oldest payable instalments: every late fee owed plus their
 * amounts due. `count` is clamped to 0 … the number of payable instalments.
 */
export function amountToPay(schedule: readonly PayableRow[], count: number): number {
  const chosen = payableInstalments(schedule).slice(0, Math.max(0, count));
  return lateFeesOwed(schedule) + chosen.reduce((sum, row) => sum + row.balance, 0);
}

/**
 * How many of the oldest payable instalments `ids` names, when it names exactly the first k of
 * them (in any order, without repeats); null when it does not (a gap, a repeat, a paid or unknown
 * row) or names none.
 */
export function oldestPrefixCount(schedule: readonly PayableRow[], ids: readonly number[]): number | null {
  const payable = payableInstalments(schedule);
  const chosen = new Set(ids);
  if (ids.length === 0 || chosen.size !== ids.length || ids.length > payable.length) return null;
  return payable.slice(0, ids.length).every((row) => chosen.has(row.id)) ? ids.length : null;
}
