/**
 * A sale's account (src/lib/finanzas/sale-ledger.ts; docs/domain.md "Instalments, days late and late
 * fees", "Payments"): worked examples of the conventions — a payment counts from the day after its
 * date, so what PagoYape asks on a day is what approval applies and leaves accrued; a back-dated
 * payment shows the fees it lowers and may not take back a fee already paid; a reservation's
 * approved payments credited to the down payment — and fast-check properties over random sequences
 * of payments (on the day, back-dated, over the debt), annulments, waivers and days passing, 1 000
 * sequences each: a fee paid never exceeds the fee figured, every approved payment is allocated
 * exactly, and what each row was paid is what was allocated to it.
 */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { Allocation } from '../../../../src/lib/finanzas/allocation';
import { DEFAULT_LATE_FEE_POLICY, type LateFeePolicy } from '../../../../src/lib/finanzas/late-fees';
import { amountToPay, payableInstalments } from '../../../../src/lib/finanzas/pago-yape';
import {
  allocateReservationCredit,
  debtOn,
  figuresOn,
  owedOn,
  planPayment,
  saleStatusFor,
  withoutAllocations,
  type LedgerRow,
} from '../../../../src/lib/finanzas/sale-ledger';

const daily: LateFeePolicy = DEFAULT_LATE_FEE_POLICY; // 3 grace days, S/ 5.00 a day, no cap

/** A row of S/ 1,000.00 due on `dueDate`, nothing paid. */
const row = (id: number, dueDate: string, kind = 'CUOTA'): LedgerRow => ({
  id,
  kind,
  number: id,
  dueDate,
  amountCents: 100_000,
  paidCents: 0,
  lateFeePaidCents: 0,
  lateFeeWaivedCents: 0,
  payments: [],
});

/** The statement rows PagoYape reads (src/lib/finanzas/pago-yape.ts), as of `date`. */
const statementOn = (policy: LateFeePolicy, rows: readonly LedgerRow[], date: string) => {
  const owed = new Map(owedOn(policy, rows, date).map((o) => [o.id, o]));
  return rows.map((r) => ({
    id: r.id,
    due_date: r.dueDate,
    balance: r.amountCents - r.paidCents,
    late_fee_due: owed.get(r.id)?.lateFeeDueCents ?? 0,
  }));
};

describe('sale ledger: worked examples', () => {
  it('what PagoYape asks on a day is what approval applies, and the fee stays as paid (no céntimo collected twice or never credited)', () => {
    // Due 2026-01-10; on 2026-02-06 the fee runs 14/01 … 06/02: 24 days × S/ 5.00 = S/ 120.00.
    const rows = [row(1, '2026-01-10'), row(2, '2026-02-10')];
    const today = '2026-02-06';
    const asked = amountToPay(statementOn(daily, rows, today), 1);
    expect(asked).toBe(100_000 + 12_000);
    const plan = planPayment(daily, rows, asked, today, today);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.allocations).toEqual([{ instalmentId: 1, toLateFeeCents: 12_000, toAmountCents: 100_000 }]);
    expect(plan.feeChanges).toEqual([]);
    const [first] = figuresOn(daily, plan.after, today);
    expect(first).toMatchObject({ figureCents: 12_000, status: 'PAGADA' });
    expect(plan.after[0]!.lateFeePaidCents).toBe(12_000);
    // Days later nothing more accrues on it.
    expect(figuresOn(daily, plan.after, '2026-03-30')[0]!.figureCents).toBe(12_000);
  });

  it('a back-dated payment lowers the fees of the days since and says so; approval applies what was previewed', () => {
    const rows = [row(1, '2026-01-10')];
    // Paid at the bank on 2026-01-20 (fee 14/01 … 20/01: S/ 35.00), registered and reviewed on 2026-02-06.
    const plan = planPayment(daily, rows, 103_500, '2026-01-20', '2026-02-06');
    expect(plan.ok && plan.feeChanges).toEqual([{ instalmentId: 1, kind: 'CUOTA', number: 1, beforeCents: 12_000, afterCents: 3_500 }]);
    expect(plan.ok && plan.allocations).toEqual([{ instalmentId: 1, toLateFeeCents: 3_500, toAmountCents: 100_000 }]);
    // Today's whole debt would be more than what was owed on the payment's date.
    expect(planPayment(daily, rows, 112_000, '2026-01-20', '2026-02-06')).toMatchObject({
      ok: false,
      error: 'EXCEEDS_DEBT',
      debtCents: 103_500,
    });
  });

  it('a payment dated before one already approved may not take back the fee that one paid', () => {
    const rows = [row(1, '2026-01-10')];
    // The customer paid the fee figured on 2026-02-06 (S/ 120.00)…
    const first = planPayment(daily, rows, 12_000, '2026-02-06', '2026-02-06');
    if (!first.ok) throw new Error('first payment refused');
    // …then an office payment of the whole amount dated 2026-01-20 would make the fee S/ 35.00 (S/ 120.00 already paid).
    const late = planPayment(daily, first.after, 100_000, '2026-01-20', '2026-02-06');
    expect(late).toMatchObject({ ok: false, error: 'TAKES_BACK_PAID_FEE', instalment: { id: 1 }, feePaidCents: 12_000, afterCents: 3_500 });
    // Dated after it, it is applied.
    expect(planPayment(daily, first.after, 100_000, '2026-02-06', '2026-02-06').ok).toBe(true);
  });

  it('credits a reservation’s approved payments to the down payment, oldest first, and the sale state follows', () => {
    const rows = [row(1, '2026-03-02', 'INICIAL'), row(2, '2026-03-20', 'INICIAL'), row(3, '2026-04-01')];
    const credits = allocateReservationCredit(rows, [
      { id: 9, date: '2026-02-20', amountCents: 120_000 },
      { id: 8, date: '2026-02-10', amountCents: 50_000 },
    ]);
    expect(credits).toEqual([
      { paymentId: 8, allocations: [{ instalmentId: 1, toLateFeeCents: 0, toAmountCents: 50_000 }] },
      {
        paymentId: 9,
        allocations: [
          { instalmentId: 1, toLateFeeCents: 0, toAmountCents: 50_000 },
          { instalmentId: 2, toLateFeeCents: 0, toAmountCents: 70_000 },
        ],
      },
    ]);
    expect(allocateReservationCredit(rows, [{ id: 1, date: '2026-02-01', amountCents: 200_001 }])).toBeNull();
    expect(saleStatusFor([{ kind: 'INICIAL', amountCents: 1, paidCents: 0 }])).toBe('REGISTRADA');
    expect(
      saleStatusFor([
        { kind: 'INICIAL', amountCents: 2, paidCents: 1 },
        { kind: 'CUOTA', amountCents: 1, paidCents: 0 },
      ]),
    ).toBe('INICIAL_PENDIENTE');
    expect(
      saleStatusFor([
        { kind: 'INICIAL', amountCents: 2, paidCents: 2 },
        { kind: 'CUOTA', amountCents: 1, paidCents: 0 },
      ]),
    ).toBe('EN_CUOTAS');
    expect(saleStatusFor([{ kind: 'INICIAL', amountCents: 2, paidCents: 2 }])).toBe('CANCELADA');
  });
});

// 1 000 sequences a property; each runs dozens of figures: minutes on a loaded 2-core machine.
describe('sale ledger: properties over random payment sequences (1 000 cases each)', { timeout: 300_000 }, () => {
  const start = Temporal.PlainDate.from('2025-01-01');
  const iso = (day: number) => start.add({ days: day }).toString();
  const policy = fc.record({
    graceDays: fc.integer({ min: 0, max: 10 }),
    kind: fc.constantFrom('MONTO_DIARIO' as const, 'PORCENTAJE_MENSUAL' as const),
    dailyAmountCents: fc.integer({ min: 0, max: 2_000 }),
    monthlyPercent: fc.integer({ min: 0, max: 500 }).map((hundredths) => (hundredths / 100).toFixed(2)),
    capCents: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
  });
  /** A schedule: down payment parts then instalments, monthly-ish due dates from day 0. */
  const schedule = fc
    .array(fc.record({ gap: fc.integer({ min: 0, max: 40 }), amountCents: fc.integer({ min: 1, max: 500_000 }) }), {
      minLength: 1,
      maxLength: 6,
    })
    .map((parts) => {
      let day = 0;
      return parts.map((p, i): LedgerRow => {
        day += p.gap;
        return { ...row(i + 1, iso(day), i === 0 ? 'INICIAL' : 'CUOTA'), amountCents: p.amountCents };
      });
    });
  type Action =
    | { kind: 'pay'; back: number; share: number; exact: boolean }
    | { kind: 'payChosen'; count: number }
    | { kind: 'annul'; pick: number }
    | { kind: 'waive'; pick: number; share: number }
    | { kind: 'advance'; days: number };
  const action: fc.Arbitrary<Action> = fc.oneof(
    fc.record({
      kind: fc.constant('pay' as const),
      back: fc.integer({ min: 0, max: 60 }),
      share: fc.double({ min: 0, max: 1.2, noNaN: true }),
      exact: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('payChosen' as const), count: fc.integer({ min: 1, max: 6 }) }),
    fc.record({ kind: fc.constant('annul' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('waive' as const), pick: fc.nat(), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 0, max: 45 }) }),
  );

  interface Approved {
    date: string;
    amountCents: number;
    allocations: Allocation[];
  }

  /** Runs `actions` from day `first`; checks the invariants after each step. */
  function run(p: LateFeePolicy, initial: LedgerRow[], first: number, actions: readonly Action[]) {
    let rows = initial;
    let today = first;
    const approved: Approved[] = [];
    for (const a of actions) {
      const todayIso = iso(today);
      if (a.kind === 'advance') today += a.days;
      else if (a.kind === 'annul') {
        const gone = approved.splice(a.pick % Math.max(1, approved.length), 1)[0];
        if (gone) rows = withoutAllocations(rows, gone.allocations, gone.date);
      } else if (a.kind === 'waive') {
        const figures = figuresOn(p, rows, todayIso);
        const i = a.pick % rows.length;
        const due = Math.max(0, figures[i]!.figureCents - rows[i]!.lateFeePaidCents - rows[i]!.lateFeeWaivedCents);
        const amount = Math.floor(due * a.share);
        rows = rows.map((r, k) => (k === i ? { ...r, lateFeeWaivedCents: r.lateFeeWaivedCents + amount } : r));
      } else {
        const date = a.kind === 'pay' ? iso(Math.max(0, today - a.back)) : todayIso;
        const amount =
          a.kind === 'pay'
            ? a.exact
              ? debtOn(p, rows, date)
              : Math.round(debtOn(p, rows, date) * a.share)
            : amountToPay(statementOn(p, rows, date), a.count);
        const plan = planPayment(p, rows, amount, date, todayIso);
        if (plan.ok) {
          // What the customer was asked for the chosen instalments is exactly what is applied, and leaves nothing of their fees owed.
          if (a.kind === 'payChosen') {
            const chosen = payableInstalments(statementOn(p, rows, date)).slice(0, a.count);
            const after = figuresOn(p, plan.after, todayIso);
            for (const c of chosen) {
              const k = plan.after.findIndex((r) => r.id === c.id);
              expect(plan.after[k]!.paidCents).toBe(plan.after[k]!.amountCents);
              expect(after[k]!.figureCents - plan.after[k]!.lateFeePaidCents - plan.after[k]!.lateFeeWaivedCents).toBeLessThanOrEqual(0);
            }
            // Dated today, it changes no fee.
            expect(plan.feeChanges).toEqual([]);
          }
          rows = plan.after;
          approved.push({ date, amountCents: amount, allocations: plan.allocations });
        } else if (plan.error === 'TAKES_BACK_PAID_FEE') {
          // Only a payment dated before an approved one can take back a fee.
          expect(approved.some((ap) => ap.date > date)).toBe(true);
        }
      }
      check(p, rows, approved, iso(today));
    }
  }

  function check(p: LateFeePolicy, rows: readonly LedgerRow[], approved: readonly Approved[], todayIso: string) {
    const figures = figuresOn(p, rows, todayIso);
    for (const [i, r] of rows.entries()) {
      // Never more collected as a fee than the fee figured (nor than it plus what was waived).
      expect(r.lateFeePaidCents).toBeLessThanOrEqual(figures[i]!.figureCents);
      expect(r.lateFeePaidCents).toBeLessThanOrEqual(figures[i]!.figureCents + r.lateFeeWaivedCents);
      expect(r.paidCents).toBeGreaterThanOrEqual(0);
      expect(r.paidCents).toBeLessThanOrEqual(r.amountCents);
      // What a row was paid is what was allocated to it (Σ paid = Σ allocated).
      const toRow = approved.flatMap((ap) => ap.allocations).filter((al) => al.instalmentId === r.id);
      expect(r.paidCents).toBe(toRow.reduce((sum, al) => sum + al.toAmountCents, 0));
      expect(r.lateFeePaidCents).toBe(toRow.reduce((sum, al) => sum + al.toLateFeeCents, 0));
      expect(r.payments.reduce((sum, pay) => sum + pay.amountCents, 0)).toBe(r.paidCents);
    }
    // Every approved payment is allocated exactly.
    for (const ap of approved)
      expect(ap.allocations.reduce((sum, al) => sum + al.toAmountCents + al.toLateFeeCents, 0)).toBe(ap.amountCents);
  }

  it('a fee paid never exceeds the fee figured; every approved payment is allocated exactly; paid = allocated', () => {
    fc.assert(
      fc.property(policy, schedule, fc.integer({ min: 0, max: 200 }), fc.array(action, { maxLength: 12 }), (p, rows, first, actions) =>
        run(p, rows, first, actions),
      ),
      { numRuns: 1_000 },
    );
  });

  it('the preview is the approval: the same date gives the same allocation, whenever it is figured', () => {
    fc.assert(
      fc.property(
        policy,
        schedule,
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, rows, day, back, share) => {
          const date = iso(Math.max(0, day - back));
          const amount = Math.max(1, Math.round(debtOn(p, rows, date) * share));
          const preview = planPayment(p, rows, amount, date, iso(day));
          const approval = planPayment(p, rows, amount, date, iso(day));
          expect(approval).toEqual(preview);
          // Reviewed days later: the allocation is the same (what was owed on the payment's date).
          const later = planPayment(p, rows, amount, date, iso(day + 30));
          if (preview.ok && later.ok) expect(later.allocations).toEqual(preview.allocations);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
