/**
 * The portal's Inicio figures (docs/dashboard.md "The customer's Inicio"): the next instalment is
 * the one due first over every purchase, and what is past due is summed per currency — soles and
 * dollars never added — exactly from the Mis Compras rows.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { customerSummary } from '../../../../src/lib/inicio/customer-summary';
import type { Purchase } from '../../../../src/schemas/comercio/purchases';
import { purchaseRow } from '../../../views/purchase-fixtures';

/** A purchase with nothing owed unless `over` says so. */
const purchase = (over: Partial<Purchase>): Purchase =>
  purchaseRow({ late_fee_due: 0, overdue_instalments: 0, overdue_amount: 0, next_instalment: null, ...over });

describe('customerSummary', () => {
  it('picks the instalment due first over every purchase, and null when nothing is owed', () => {
    const a = purchase({ id: 1, next_instalment: { id: 11, kind: 'CUOTA', number: 3, due_date: '2026-12-05', amount_due: 150_000 } });
    const b = purchase({
      id: 2,
      currency: 'USD',
      next_instalment: { id: 21, kind: 'CUOTA', number: 1, due_date: '2026-12-01', amount_due: 40_000 },
    });
    expect(customerSummary([a, b]).next).toEqual({ purchase: b, instalment: b.next_instalment });
    expect(customerSummary([purchase({})]).next).toBeNull();
    expect(customerSummary([]).next).toBeNull();
  });

  it('sums overdue amounts, late fees and instalments per currency and never adds soles to dollars', () => {
    const row = fc.record({
      currency: fc.constantFrom('PEN' as const, 'USD' as const),
      overdue_amount: fc.integer({ min: 0, max: 10_000_000 }),
      late_fee_due: fc.integer({ min: 0, max: 1_000_000 }),
      overdue_instalments: fc.integer({ min: 0, max: 60 }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), (rows) => {
        const { overdue } = customerSummary(rows.map((r, i) => purchase({ ...r, id: i + 1 })));
        for (const currency of ['PEN', 'USD'] as const) {
          const mine = rows.filter((r) => r.currency === currency);
          const amount = mine.reduce((s, r) => s + r.overdue_amount, 0);
          const lateFees = mine.reduce((s, r) => s + r.late_fee_due, 0);
          const line = overdue.find((o) => o.currency === currency);
          if (amount === 0 && lateFees === 0) expect(line).toBeUndefined();
          else expect(line).toEqual({ currency, amount, lateFees, instalments: mine.reduce((s, r) => s + r.overdue_instalments, 0) });
        }
        expect(overdue.map((o) => o.currency)).toEqual([...new Set(overdue.map((o) => o.currency))]);
      }),
    );
  });
});
