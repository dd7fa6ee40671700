import { describe, expect, it } from 'vitest';
import { amountToPay, lateFeesOwed, oldestPrefixCount, payableInstalments } from '../../../../src/lib/finanzas/pago-yape';

/** PagoYape's rules (src/lib/finanzas/pago-yape.ts): the oldest payable instalments, a prefix, and the amount with every late fee. */

const row = (id: number, due: string, balance: number, fee = 0) => ({ id, due_date: due, balance, late_fee_due: fee });
// Schedule order: a paid down payment, an overdue instalment with a fee, a paid one with a fee still owed, two open.
const schedule = [
  row(1, '2026-01-01', 0),
  row(2, '2026-02-01', 5_000, 700),
  row(3, '2026-03-01', 0, 300),
  row(4, '2026-04-01', 10_000),
  row(5, '2026-04-01', 10_000),
];

describe('pago-yape rules', () => {
  it('offers the rows owing something on their amount, oldest first (ties in schedule order)', () => {
    expect(payableInstalments(schedule).map((r) => r.id)).toEqual([2, 4, 5]);
    expect(payableInstalments([row(9, '2026-05-01', 1), row(8, '2026-04-01', 1)]).map((r) => r.id)).toEqual([8, 9]);
  });

  it('adds every late fee owed, paid rows included, to the chosen instalments', () => {
    expect(lateFeesOwed(schedule)).toBe(1_000);
    expect(amountToPay(schedule, 0)).toBe(1_000);
    expect(amountToPay(schedule, 1)).toBe(6_000);
    expect(amountToPay(schedule, 3)).toBe(26_000);
    expect(amountToPay(schedule, 9)).toBe(26_000);
  });

  it('accepts only the first k payable instalments, in any order, without repeats', () => {
    expect(oldestPrefixCount(schedule, [2])).toBe(1);
    expect(oldestPrefixCount(schedule, [4, 2])).toBe(2);
    expect(oldestPrefixCount(schedule, [2, 4, 5])).toBe(3);
    expect(oldestPrefixCount(schedule, [4])).toBeNull();
    expect(oldestPrefixCount(schedule, [2, 5])).toBeNull();
    expect(oldestPrefixCount(schedule, [2, 2])).toBeNull();
    expect(oldestPrefixCount(schedule, [1])).toBeNull();
    expect(oldestPrefixCount(schedule, [])).toBeNull();
    expect(oldestPrefixCount(schedule, [2, 4, 5, 6])).toBeNull();
  });
});
