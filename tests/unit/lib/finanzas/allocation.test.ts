/**
 * Payment allocation (src/lib/finanzas/allocation.ts): a worked example, the refusals, and
 * properties over 1 000 random debts and payments (fast-check): the allocations add up to the
 * payment, never over-pay a row, pay every late fee before any amount, and pay the amounts oldest
 * first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayment, debtOf, oldestFirst, type OpenInstalment } from '../../../../src/lib/finanzas/allocation';

const row = (id: number, dueDate: string, amountDueCents: number, lateFeeDueCents = 0, order = id): OpenInstalment => ({
  id,
  dueDate,
  order,
  amountDueCents,
  lateFeeDueCents,
});

describe('allocatePayment: worked example', () => {
  // Two overdue instalments of S/ 500.00 with S/ 25.00 and S/ 10.00 of late fees, and one not yet due.
  const open = [row(3, '2026-03-15', 50_000), row(1, '2026-01-15', 50_000, 2_500), row(2, '2026-02-15', 50_000, 1_000)];

  it('pays both late fees first, then the oldest amounts, and lists the rows oldest first', () => {
    expect(allocatePayment(open, 60_000)).toEqual({
      ok: true,
      allocations: [
        { instalmentId: 1, toLateFeeCents: 2_500, toAmountCents: 50_000 },
        { instalmentId: 2, toLateFeeCents: 1_000, toAmountCents: 6_500 },
      ],
    });
  });

  it('a payment smaller than the late fees goes to the oldest fee first', () => {
    expect(allocatePayment(open, 3_000)).toEqual({
      ok: true,
      allocations: [
        { instalmentId: 1, toLateFeeCents: 2_500, toAmountCents: 0 },
        { instalmentId: 2, toLateFeeCents: 500, toAmountCents: 0 },
      ],
    });
  });

  it('pays off everything with exactly the debt, and refuses a céntimo more, zero, negatives and fractions', () => {
    expect(debtOf(open)).toBe(153_500);
    const all = allocatePayment(open, 153_500);
    expect(all.ok && all.allocations.map((a) => a.toAmountCents)).toEqual([50_000, 50_000, 50_000]);
    expect(allocatePayment(open, 153_501)).toEqual({ ok: false, error: 'EXCEEDS_DEBT', debtCents: 153_500 });
    for (const bad of [0, -100, 10.5, Number.NaN]) expect(allocatePayment(open, bad)).toMatchObject({ ok: false, error: 'NOT_POSITIVE' });
    expect(allocatePayment([], 1)).toEqual({ ok: false, error: 'EXCEEDS_DEBT', debtCents: 0 });
  });

  it('orders equal due dates by the schedule order (down payment parts before instalments)', () => {
    const sameDay = [row(8, '2026-05-01', 1_000, 0, 2), row(9, '2026-05-01', 1_000, 0, 1)];
    expect(oldestFirst(sameDay).map((r) => r.id)).toEqual([9, 8]);
    expect(allocatePayment(sameDay, 1_500)).toMatchObject({
      allocations: [
        { instalmentId: 9, toAmountCents: 1_000 },
        { instalmentId: 8, toAmountCents: 500 },
      ],
    });
  });

  it('refuses rows that owe negative or fractional amounts (a caller bug)', () => {
    expect(() => allocatePayment([row(1, '2026-01-01', -1)], 1)).toThrow(RangeError);
    expect(() => allocatePayment([row(1, '2026-01-01', 100, 0.5)], 1)).toThrow(RangeError);
  });
});

// 1 000 cases a property take seconds alone and many times that on a loaded 2-core machine.
describe('allocatePayment: properties (1 000 cases each)', { timeout: 120_000 }, () => {
  const instalments = fc
    .array(
      fc.record({
        day: fc.integer({ min: 0, max: 3_000 }),
        amountDueCents: fc.integer({ min: 0, max: 5_000_000 }),
        lateFeeDueCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200_000 })),
      }),
      { minLength: 1, maxLength: 40 },
    )
    .map((rows) =>
      rows.map((r, i) =>
        row(i + 1, new Date(Date.UTC(2024, 0, 1) + r.day * 86_400_000).toISOString().slice(0, 10), r.amountDueCents, r.lateFeeDueCents),
      ),
    )
    .filter((rows) => debtOf(rows) > 0);
  const debtAndPayment = instalments.chain((rows) => fc.tuple(fc.constant(rows), fc.integer({ min: 1, max: debtOf(rows) })));

  it('adds up to the payment and never over-pays a row', () => {
    fc.assert(
      fc.property(debtAndPayment, ([rows, amount]) => {
        const result = allocatePayment(rows, amount);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.allocations.reduce((s, a) => s + a.toAmountCents + a.toLateFeeCents, 0)).toBe(amount);
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const a of result.allocations) {
          expect(a.toAmountCents).toBeGreaterThanOrEqual(0);
          expect(a.toLateFeeCents).toBeGreaterThanOrEqual(0);
          expect(a.toAmountCents).toBeLessThanOrEqual(byId.get(a.instalmentId)!.amountDueCents);
          expect(a.toLateFeeCents).toBeLessThanOrEqual(byId.get(a.instalmentId)!.lateFeeDueCents);
        }
        expect(new Set(result.allocations.map((a) => a.instalmentId)).size).toBe(result.allocations.length);
      }),
      { numRuns: 1_000 },
    );
  });

  it('pays every late fee before any amount, and amounts oldest first', () => {
    fc.assert(
      fc.property(debtAndPayment, ([rows, amount]) => {
        const result = allocatePayment(rows, amount);
        if (!result.ok) throw new Error('refused');
        const got = new Map(result.allocations.map((a) => [a.instalmentId, a]));
        const ordered = oldestFirst(rows);
        const feesPaid = ordered.every((r) => (got.get(r.id)?.toLateFeeCents ?? 0) === r.lateFeeDueCents);
        if (result.allocations.some((a) => a.toAmountCents > 0)) expect(feesPaid).toBe(true);
        // Once a row's amount is not fully paid, no later row's amount gets anything.
        let short = false;
        for (const r of ordered) {
          const paid = got.get(r.id)?.toAmountCents ?? 0;
          if (short) expect(paid).toBe(0);
          if (paid < r.amountDueCents) short = true;
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('refuses anything over the debt', () => {
    fc.assert(
      fc.property(instalments, fc.integer({ min: 1, max: 1_000_000 }), (rows, extra) => {
        expect(allocatePayment(rows, debtOf(rows) + extra)).toEqual({ ok: false, error: 'EXCEEDS_DEBT', debtCents: debtOf(rows) });
      }),
      { numRuns: 1_000 },
    );
  });
});
