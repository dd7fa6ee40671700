import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { planQuote, QUOTE_PLAN_MESSAGES, type QuotePlanInput } from '../../../../src/lib/comercio/quote-plan';
import { QUOTE_METHODS } from '../../../../src/schemas/comercio/quotes';
import { SCHEDULE_METHODS } from '../../../../src/lib/comercio/schedule';

/** A quote's price and plan (src/lib/comercio/quote-plan.ts; DOMAIN.md "Sales cycle" → Quote). */

const today = Temporal.PlainDate.from('2026-11-27');
const base: QuotePlanInput = {
  listPriceCents: 3_600_000, // S/ 36 000.00
  downPaymentParts: 1,
  instalments: 24,
  monthlyRatePercent: '1.5',
  method: 'FRANCES',
  firstDueDate: Temporal.PlainDate.from('2026-12-31'),
  today,
};

describe('planQuote', () => {
  it('a worked example: 5 % off, 20 % down in 2 parts, 24 FRANCES instalments at 1.5 %', () => {
    const result = planQuote({ ...base, discountPercent: '5', downPaymentPercent: '20', downPaymentParts: 2 });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const { plan } = result;
    expect(plan.discountCents).toBe(180_000);
    expect(plan.finalPriceCents).toBe(3_420_000);
    expect(plan.downPaymentCents).toBe(684_000);
    expect(plan.downPayment.map((p) => [p.dueDate.toString(), p.amountCents])).toEqual([
      ['2026-11-27', 342_000],
      ['2026-12-27', 342_000],
    ]);
    expect(plan.financedCents).toBe(2_736_000);
    // PMT(1.5 %, 24, 27 360.00) = 1 365.92 (a spreadsheet's ROUND(PMT(0.015; 24; -27360); 2)).
    expect(plan.schedule[0]!.amountCents).toBe(136_592);
    expect(plan.schedule.reduce((sum, r) => sum + r.capitalCents, 0)).toBe(2_736_000);
    expect(plan.schedule[1]!.dueDate.toString()).toBe('2027-01-31');
    expect(plan.schedule[2]!.dueDate.toString()).toBe('2027-02-28');
    expect(plan.totalToPayCents).toBe(plan.downPaymentCents + plan.financedCents + plan.totalInterestCents);
  });

  it('cash: no instalments and the down payment is the whole price', () => {
    const result = planQuote({ ...base, instalments: 0, firstDueDate: null, discountCents: 100_000 });
    if (!result.ok) throw new Error('expected a plan');
    expect(result.plan).toMatchObject({ finalPriceCents: 3_500_000, downPaymentCents: 3_500_000, financedCents: 0, schedule: [] });
  });

  it('refuses a discount over the price, a down payment over the final price, a balance without instalments and a first due date not after today', () => {
    expect(planQuote({ ...base, discountCents: 4_000_000 })).toEqual({
      ok: false,
      errors: { discount: QUOTE_PLAN_MESSAGES.discountTooHigh },
    });
    expect(planQuote({ ...base, downPaymentCents: 3_600_001 })).toEqual({
      ok: false,
      errors: { down_payment: QUOTE_PLAN_MESSAGES.downPaymentTooHigh },
    });
    expect(planQuote({ ...base, instalments: 0, downPaymentPercent: '10' })).toEqual({
      ok: false,
      errors: { instalments: QUOTE_PLAN_MESSAGES.cashNeedsAll },
    });
    expect(planQuote({ ...base, downPaymentPercent: '10', firstDueDate: today })).toEqual({
      ok: false,
      errors: { first_due_date: QUOTE_PLAN_MESSAGES.firstDueAfterToday },
    });
    expect(planQuote({ ...base, downPaymentPercent: '150' })).toEqual({
      ok: false,
      errors: { down_payment: QUOTE_PLAN_MESSAGES.badPercent },
    });
  });

  it('the request schema lists the schedule methods of the maths', () => {
    expect([...QUOTE_METHODS]).toEqual([...SCHEDULE_METHODS]);
  });
});
