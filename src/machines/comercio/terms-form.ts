import { Temporal } from 'temporal-polyfill';
import { parseMoneyInput } from '../../lib/money';
import type { PaymentTerms } from '../../lib/comercio/quote-plan';

/**
 * The payment terms as typed in a form — the quote dialog ("Cotizar") and the contract stepper's
 * "Plan de pago" (issue "CRM and sales") — and their translation into the request fields of
 * src/schemas/comercio/terms.ts (amounts typed in soles or dollars, sent in céntimos; discount and
 * down payment as an amount or a %).
 */

export type AmountKind = 'AMOUNT' | 'PERCENT';

/** The terms' fields as typed. */
export interface TermsValues {
  discountKind: AmountKind;
  discountText: string;
  downKind: AmountKind;
  downText: string;
  /** Interest-free parts of the down payment (1–12). */
  downParts: number;
  /** Monthly instalments (0 = cash). */
  instalments: number;
  /** Monthly rate in percent as typed ("1,5" or "1.5"). */
  rateText: string;
  method: PaymentTerms['method'];
  /** ISO date of the first instalment. */
  firstDueDate: string;
}

/** The first day of next month: the usual first due date. */
export const nextMonthStart = (today: string) => Temporal.PlainDate.from(today).add({ months: 1 }).with({ day: 1 }).toString();

/** A form's starting terms: 20 % down in one part, 24 interest-free instalments from next month. */
export const initialTermsValues = (today: string): TermsValues => ({
  discountKind: 'PERCENT',
  discountText: '',
  downKind: 'PERCENT',
  downText: '20',
  downParts: 1,
  instalments: 24,
  rateText: '0',
  method: 'SIN_INTERES',
  firstDueDate: nextMonthStart(today),
});

/** A typed amount or percentage → the body's field pair; empty text → neither. */
function amountFields(kind: AmountKind, text: string, prefix: 'discount' | 'down_payment'): Record<string, unknown> | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (kind === 'PERCENT') return { [`${prefix}_percent`]: trimmed.replace(',', '.') };
  const cents = parseMoneyInput(trimmed);
  return cents === null ? 'invalid' : { [`${prefix}_cents`]: cents };
}

/**
 * The typed terms → the request's terms fields (not yet validated: the request schema does that),
 * and the errors of amounts that are not money.
 * @returns `fields` to spread into a request body; `errors` keyed by request field.
 */
export function termsRequestFields(v: TermsValues): { fields: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const discount = amountFields(v.discountKind, v.discountText, 'discount');
  const down = amountFields(v.downKind, v.downText, 'down_payment');
  if (discount === 'invalid') errors.discount_cents = 'Monto no válido (ej. 1500.00)';
  if (down === 'invalid') errors.down_payment_cents = 'Monto no válido (ej. 5000.00)';
  return {
    fields: {
      ...(discount === 'invalid' ? {} : discount),
      ...(down === 'invalid' ? {} : down),
      down_payment_parts: v.downParts,
      instalments: v.instalments,
      monthly_rate_percent: v.rateText.trim().replace(',', '.') || '0',
      method: v.method,
      ...(v.instalments > 0 ? { first_due_date: v.firstDueDate || null } : {}),
    },
    errors,
  };
}

/** The request fields the terms' errors land on, for showing them beside the inputs. */
export const TERMS_REQUEST_FIELDS = [
  'discount_cents',
  'discount_percent',
  'down_payment_cents',
  'down_payment_percent',
  'down_payment_parts',
  'instalments',
  'monthly_rate_percent',
  'method',
  'first_due_date',
] as const;
