import { Decimal } from 'decimal.js';
import { Temporal } from 'temporal-polyfill';
import { buildSchedule, MAX_INSTALMENTS, monthlyDueDates, splitEvenly, type ScheduleMethod, type ScheduleRow } from './schedule';

/**
 * The price and payment plan of a quote (cotización; DOMAIN.md "Sales cycle" → Quote): list price →
 * discount (amount or %) → final price → down payment (amount or %, optionally split into
 * interest-free monthly parts) → the amount financed and its schedule (./schedule.ts). One module
 * for the server (what a quote stores) and the browser (the simulation shown while typing).
 * Amounts are integer céntimos; percentages are decimal strings computed with decimal.js.
 */

/** Most interest-free parts a down payment may be split into. */
export const MAX_DOWN_PAYMENT_PARTS = 12;

/** What a plan is computed from. */
export interface QuotePlanInput {
  /** The lot's list price, céntimos. */
  listPriceCents: number;
  /** A discount as an amount (céntimos) or a percentage of the list price ("5" = 5 %); neither = none. */
  discountCents?: number | null;
  discountPercent?: string | number | null;
  /** The down payment (cuota inicial) as an amount or a percentage of the final price; neither = all of it (cash). */
  downPaymentCents?: number | null;
  downPaymentPercent?: string | number | null;
  /** The down payment in this many monthly interest-free parts from `today` (1 = one payment). */
  downPaymentParts: number;
  /** Monthly instalments of the amount financed (0 = cash: the down payment is the whole price). */
  instalments: number;
  monthlyRatePercent: string | number;
  method: ScheduleMethod;
  /** Due date of instalment 1 (needed when instalments > 0). */
  firstDueDate: Temporal.PlainDate | null;
  /** The quote's date (the first down-payment part). */
  today: Temporal.PlainDate;
}

/** A down-payment part. */
export interface DownPaymentPart {
  number: number;
  dueDate: Temporal.PlainDate;
  amountCents: number;
}

/** The computed plan. */
export interface QuotePlan {
  listPriceCents: number;
  discountCents: number;
  finalPriceCents: number;
  downPaymentCents: number;
  downPayment: DownPaymentPart[];
  financedCents: number;
  schedule: ScheduleRow[];
  totalInterestCents: number;
  /** Down payment + every instalment. */
  totalToPayCents: number;
}

/** Why a plan cannot be computed (Spanish, by field of the quote request). */
export type QuotePlanErrors = Partial<Record<'discount' | 'down_payment' | 'instalments' | 'first_due_date', string>>;

export const QUOTE_PLAN_MESSAGES = {
  discountTooHigh: 'El descuento no puede superar el precio de lista',
  downPaymentTooHigh: 'La cuota inicial no puede superar el precio final',
  cashNeedsAll: 'Al contado la cuota inicial es el precio final: indique cuotas para financiar el saldo',
  firstDueRequired: 'Indique la fecha de la primera cuota',
  firstDueAfterToday: 'La primera cuota debe vencer después de hoy',
  badPercent: 'Porcentaje no válido (0 a 100)',
} as const;

const percentOf = (cents: number, percent: string | number): number | null => {
  let value: Decimal;
  try {
    value = new Decimal(String(percent).trim());
  } catch {
    return null;
  }
  if (!value.isFinite() || value.isNegative() || value.greaterThan(100)) return null;
  return value.times(cents).div(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
};

/**
 * Computes a quote's plan, or the reasons it cannot be (a discount over the price, a down payment
 * over the final price, a financed balance without instalments, a first due date missing or not
 * after today). An amount wins over a percentage when both are given.
 * @throws RangeError on amounts, terms or rates out of the schedule's bounds (the request schema
 *   keeps them in range first).
 */
export function planQuote(input: QuotePlanInput): { ok: true; plan: QuotePlan } | { ok: false; errors: QuotePlanErrors } {
  const errors: QuotePlanErrors = {};
  const list = input.listPriceCents;
  const discount =
    input.discountCents != null ? input.discountCents : input.discountPercent != null ? percentOf(list, input.discountPercent) : 0;
  if (discount === null) errors.discount = QUOTE_PLAN_MESSAGES.badPercent;
  else if (discount > list) errors.discount = QUOTE_PLAN_MESSAGES.discountTooHigh;
  const finalPrice = list - (discount ?? 0);
  const down =
    input.downPaymentCents != null
      ? input.downPaymentCents
      : input.downPaymentPercent != null
        ? percentOf(finalPrice, input.downPaymentPercent)
        : finalPrice;
  if (down === null) errors.down_payment = QUOTE_PLAN_MESSAGES.badPercent;
  else if (down > finalPrice && !errors.discount) errors.down_payment = QUOTE_PLAN_MESSAGES.downPaymentTooHigh;
  const financed = Math.max(0, finalPrice - (down ?? 0));
  if (input.instalments === 0 && financed > 0 && !errors.down_payment) errors.instalments = QUOTE_PLAN_MESSAGES.cashNeedsAll;
  if (input.instalments > 0) {
    if (!input.firstDueDate) errors.first_due_date = QUOTE_PLAN_MESSAGES.firstDueRequired;
    else if (Temporal.PlainDate.compare(input.firstDueDate, input.today) <= 0)
      errors.first_due_date = QUOTE_PLAN_MESSAGES.firstDueAfterToday;
  }
  if (Object.keys(errors).length > 0 || discount === null || down === null) return { ok: false, errors };
  const parts = Math.min(Math.max(1, input.downPaymentParts), MAX_DOWN_PAYMENT_PARTS, MAX_INSTALMENTS);
  const downDates = monthlyDueDates(input.today, parts);
  const downPayment =
    down > 0 ? splitEvenly(down, parts).map((amountCents, k) => ({ number: k + 1, dueDate: downDates[k]!, amountCents })) : [];
  const schedule =
    input.instalments > 0 && input.firstDueDate
      ? buildSchedule({
          financedCents: financed,
          instalments: input.instalments,
          monthlyRatePercent: input.monthlyRatePercent,
          method: input.method,
          firstDueDate: input.firstDueDate,
        })
      : [];
  const totalInterestCents = schedule.reduce((sum, row) => sum + row.interestCents, 0);
  return {
    ok: true,
    plan: {
      listPriceCents: list,
      discountCents: discount,
      finalPriceCents: finalPrice,
      downPaymentCents: down,
      downPayment,
      financedCents: financed,
      schedule,
      totalInterestCents,
      totalToPayCents: down + financed + totalInterestCents,
    },
  };
}

/** The request fields a plan's errors land on. */
export type TermsField =
  'discount_cents' | 'discount_percent' | 'down_payment_cents' | 'down_payment_percent' | 'instalments' | 'first_due_date';

/** The payment terms of a quote or sale request (src/schemas/comercio/terms.ts), as they come parsed. */
export interface PaymentTerms {
  discount_cents?: number | null;
  discount_percent?: string | null;
  down_payment_cents?: number | null;
  down_payment_percent?: string | null;
  down_payment_parts: number;
  instalments: number;
  monthly_rate_percent: string;
  method: ScheduleMethod;
  first_due_date?: string | null;
}

/**
 * {@link planQuote} over request terms: the plan, or its errors keyed by the request's fields (the
 * discount or down payment error lands on the percentage field when the percentage was sent).
 * Shared by the quote and sale services and the quote dialog, so they refuse alike.
 */
export function planTerms(
  terms: PaymentTerms,
  listPriceCents: number,
  today: Temporal.PlainDate,
): { ok: true; plan: QuotePlan } | { ok: false; errors: Partial<Record<TermsField, string>> } {
  const result = planQuote({
    listPriceCents,
    discountCents: terms.discount_cents,
    discountPercent: terms.discount_percent,
    downPaymentCents: terms.down_payment_cents,
    downPaymentPercent: terms.down_payment_percent,
    downPaymentParts: terms.down_payment_parts,
    instalments: terms.instalments,
    monthlyRatePercent: terms.monthly_rate_percent,
    method: terms.method,
    firstDueDate: terms.first_due_date ? Temporal.PlainDate.from(terms.first_due_date) : null,
    today,
  });
  if (result.ok) return result;
  const field: Record<keyof QuotePlanErrors, TermsField> = {
    discount: terms.discount_percent != null ? 'discount_percent' : 'discount_cents',
    down_payment: terms.down_payment_percent != null ? 'down_payment_percent' : 'down_payment_cents',
    instalments: 'instalments',
    first_due_date: 'first_due_date',
  };
  return {
    ok: false,
    errors: Object.fromEntries(Object.entries(result.errors).map(([k, message]) => [field[k as keyof QuotePlanErrors], message])),
  };
}
