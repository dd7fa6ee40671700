/**
 * How an approved payment is applied to a sale's debt — one module for the server (what approval
 * stores) and the browser (the allocation shown before "Aprobar" is confirmed). Rules:
 * ../shared/design/DOMAIN.md "Sales cycle" → "Payment": late fees first, then capital, oldest
 * instalment first; more than the debt is refused. Read as the Código Civil's imputation of
 * payments does (art. 1257: costs and interest before capital; art. 1259: the oldest debt first):
 * every late fee owed, oldest instalment first, is paid before any instalment's amount, and the
 * amounts then oldest first (docs/decisions.md "Payments: allocation").
 *
 * All amounts are integer céntimos of the sale's currency.
 */

/** An instalment with something still owed, as the allocation sees it. */
export interface OpenInstalment {
  /** The instalment's id (the allocation names it back). */
  id: number;
  /** Due date, ISO `YYYY-MM-DD`: the order of "oldest first" (ties: `order`). */
  dueDate: string;
  /** Tie-breaker among equal due dates: the schedule's order (down payment parts before instalments). */
  order: number;
  /** Amount still owed on the instalment itself (its capital and interest), ≥ 0. */
  amountDueCents: number;
  /** Late fee still owed (accrued − paid − waived), ≥ 0. */
  lateFeeDueCents: number;
}

/** What a payment puts on one instalment. */
export interface Allocation {
  instalmentId: number;
  /** Towards its late fee. */
  toLateFeeCents: number;
  /** Towards its amount (DOMAIN.md's "to capital": the instalment's capital and interest). */
  toAmountCents: number;
}

/** The result of {@link allocatePayment}. */
export type AllocationResult =
  | { ok: true; allocations: Allocation[] }
  /** NOT_POSITIVE: the amount is not a positive whole number of céntimos; EXCEEDS_DEBT: more than everything owed (`debtCents`). */
  | { ok: false; error: 'NOT_POSITIVE' | 'EXCEEDS_DEBT'; debtCents: number };

/** Everything owed on `instalments`: amounts and late fees, in céntimos. */
export function debtOf(instalments: readonly OpenInstalment[]): number {
  return instalments.reduce((total, i) => total + i.amountDueCents + i.lateFeeDueCents, 0);
}

/** `instalments` oldest first (due date, then schedule order). Does not change its argument. */
export function oldestFirst<T extends Pick<OpenInstalment, 'dueDate' | 'order'>>(instalments: readonly T[]): T[] {
  return [...instalments].sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.order - b.order));
}

/**
 * Applies `amountCents` to the open instalments of one sale: every late fee first (oldest
 * instalment first), then the instalments' amounts (oldest first), never more than is owed on a
 * row. The allocations list each instalment that receives something once, oldest first; they add
 * up exactly to `amountCents`.
 * @param instalments the sale's instalments with something owed (any order; rows owing nothing are skipped).
 * @param amountCents the payment, a positive integer of céntimos.
 * @returns the allocations, or why the payment cannot be applied (not positive; more than the debt).
 * @throws RangeError when a row owes a negative or fractional amount (a caller's bug, not a user's input).
 */
export function allocatePayment(instalments: readonly OpenInstalment[], amountCents: number): AllocationResult {
  for (const i of instalments) {
    if (
      !Number.isSafeInteger(i.amountDueCents) ||
      i.amountDueCents < 0 ||
      !Number.isSafeInteger(i.lateFeeDueCents) ||
      i.lateFeeDueCents < 0
    )
      throw new RangeError(`allocatePayment: instalment ${i.id} owes a negative or fractional amount`);
  }
  const debtCents = debtOf(instalments);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return { ok: false, error: 'NOT_POSITIVE', debtCents };
  if (amountCents > debtCents) return { ok: false, error: 'EXCEEDS_DEBT', debtCents };

  const ordered = oldestFirst(instalments);
  const byId = new Map<number, Allocation>();
  let left = amountCents;
  const give = (id: number, field: 'toLateFeeCents' | 'toAmountCents', owed: number) => {
    const amount = Math.min(owed, left);
    if (amount <= 0) return;
    const allocation = byId.get(id) ?? { instalmentId: id, toLateFeeCents: 0, toAmountCents: 0 };
    allocation[field] += amount;
    byId.set(id, allocation);
    left -= amount;
  };
  for (const i of ordered) give(i.id, 'toLateFeeCents', i.lateFeeDueCents);
  for (const i of ordered) give(i.id, 'toAmountCents', i.amountDueCents);
  const allocations = ordered.flatMap((i) => {
    const allocation = byId.get(i.id);
    return allocation ? [allocation] : [];
  });
  return { ok: true, allocations };
}
