import { z } from 'zod';
import { PAYMENT_METHODS, PAYMENT_METHOD_LABELS, paymentTermsFields, paymentTermsRules, TERMS_MESSAGES } from './terms';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema } from '../versions';

/**
 * Quotes, cotizaciones (Comercial; DOMAIN.md "Sales cycle" → Quote): GET/POST /api/quotes,
 * GET /api/quotes/{id}, POST /api/quotes/{id}/status. A quote prices one lot for one customer:
 * list price → discount → final price → down payment (optionally in interest-free parts) → the
 * amount financed and its schedule (src/lib/comercio/quote-plan.ts, the same maths in the browser).
 * Money in céntimos of the subdivision's currency; dates ISO `YYYY-MM-DD` (Lima).
 */

/** BORRADOR → ENVIADA → ACEPTADA; BORRADOR | ENVIADA → ANULADA; VENCIDA once `valid_until` passed unaccepted. */
export const QUOTE_STATUSES = ['BORRADOR', 'ENVIADA', 'ACEPTADA', 'VENCIDA', 'ANULADA'] as const;
export const quoteStatusSchema = z.enum(QUOTE_STATUSES);
export type QuoteStatus = z.infer<typeof quoteStatusSchema>;
export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  BORRADOR: 'Borrador',
  ENVIADA: 'Enviada',
  ACEPTADA: 'Aceptada',
  VENCIDA: 'Vencida',
  ANULADA: 'Anulada',
};
/** The status changes a user makes (VENCIDA is the calendar's). */
export const QUOTE_TRANSITIONS: Record<QuoteStatus, readonly QuoteStatus[]> = {
  BORRADOR: ['ENVIADA', 'ACEPTADA', 'ANULADA'],
  ENVIADA: ['ACEPTADA', 'ANULADA'],
  ACEPTADA: [],
  VENCIDA: [],
  ANULADA: [],
};

/** Schedule methods and their labels (src/schemas/comercio/terms.ts, shared with sales). */
export const QUOTE_METHODS = PAYMENT_METHODS;
export const QUOTE_METHOD_LABELS = PAYMENT_METHOD_LABELS;

/** Validity of a quote: default and bounds in days (DOMAIN.md: 7 by default). */
export const QUOTE_VALID_DAYS = { default: 7, min: 1, max: 30 } as const;

export const QUOTE_MESSAGES = {
  unknownLot: 'El lote no existe',
  lotNotForSale: 'El lote no está disponible para cotizar',
  unknownCustomer: 'El cliente no existe',
  inactiveCustomer: 'El cliente está inactivo',
  transition: 'Ese cambio de estado no está permitido',
  expired: 'La cotización venció: haga una nueva',
  bothDiscounts: TERMS_MESSAGES.bothDiscounts,
  bothDownPayments: TERMS_MESSAGES.bothDownPayments,
} as const;

/**
 * POST /api/quotes body. Discount and down payment each as an amount or a percentage (not both);
 * no down payment = cash (the whole price). `instalments` 0 = cash; `monthly_rate_percent` a
 * decimal text (0–5); `first_due_date` needed with instalments, after today. The server adds: the
 * lot exists and is DISPONIBLE or SEPARADO, the customer exists and is active, and the plan's rules
 * (src/lib/comercio/quote-plan.ts: a discount within the price, a down payment within the final price).
 */
export const createQuoteRequestSchema = z
  .strictObject({
    lot_id: z.number().int().positive({ error: 'Seleccione el lote' }),
    customer_id: z.number().int().positive({ error: 'Seleccione el cliente' }),
    ...paymentTermsFields,
    valid_days: z
      .number()
      .int()
      .min(QUOTE_VALID_DAYS.min, `Entre ${QUOTE_VALID_DAYS.min} y ${QUOTE_VALID_DAYS.max} días`)
      .max(QUOTE_VALID_DAYS.max, `Entre ${QUOTE_VALID_DAYS.min} y ${QUOTE_VALID_DAYS.max} días`)
      .default(QUOTE_VALID_DAYS.default),
  })
  .superRefine(paymentTermsRules);
export type CreateQuoteRequest = z.input<typeof createQuoteRequestSchema>;

/** POST /api/quotes/{id}/status body: a {@link QUOTE_TRANSITIONS} step and the version read. */
export const changeQuoteStatusRequestSchema = z.strictObject({
  status: z.enum(['ENVIADA', 'ACEPTADA', 'ANULADA'], { error: 'Estado no válido' }),
  version: recordVersionSchema.optional(),
});
export type ChangeQuoteStatusRequest = z.input<typeof changeQuoteStatusRequestSchema>;

const moneyRow = z.object({ number: z.number().int(), due_date: z.string(), amount: z.number().int() });

/** A quote as every route answers it (the schedule is recomputed from the stored terms). */
export const quoteSchema = z.object({
  id: z.number().int(),
  /** "COT-000123". */
  number: z.string(),
  lot: z.object({
    id: z.number().int(),
    code: z.string(),
    subdivision_name: z.string().default(''),
    area_m2: z.number().nullable().default(null),
  }),
  customer: z.object({ id: z.number().int(), display_name: z.string(), document_number: z.string().default('') }),
  agent: z.object({ id: z.number().int(), name: z.string(), surname: z.string() }).nullable().catch(null).default(null),
  currency: z.enum(['PEN', 'USD']),
  list_price: z.number().int(),
  discount: z.number().int().default(0),
  /** The percentage the discount was given as, else null (then `discount` is the amount typed). */
  discount_percent: z.string().nullable().optional(),
  final_price: z.number().int(),
  down_payment: z.number().int(),
  down_payment_percent: z.string().nullable().optional(),
  down_payment_parts: z.number().int().default(1),
  financed: z.number().int(),
  instalments: z.number().int(),
  monthly_rate_percent: z.string().default('0'),
  method: z.string(),
  first_due_date: z.string().nullable().default(null),
  /** YYYY-MM-DD (Lima) the quote was made. */
  quote_date: z.string().nullable().optional(),
  valid_until: z.string(),
  status: quoteStatusSchema.catch('BORRADOR'),
  /** The sale the quote became (ACEPTADA by it; docs/domain.md "Sales"), else null. */
  sale: z.object({ id: z.number().int(), number: z.string() }).nullable().optional().catch(null),
  down_payment_schedule: z.array(moneyRow).catch([]).default([]),
  schedule: z
    .array(moneyRow.extend({ capital: z.number().int(), interest: z.number().int(), balance: z.number().int() }))
    .catch([])
    .default([]),
  total_interest: z.number().int().default(0),
  total_to_pay: z.number().int().default(0),
  created_at: z.string(),
  updated_at: z.string(),
  version: versionInAnswerSchema,
});
export type Quote = z.infer<typeof quoteSchema>;

/** GET /api/quotes query: `q` (customer, document, lot code, number); filters by status, lot, customer, subdivision (of the lot). */
export const quotesQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['created_at', 'valid_until', 'final_price']),
  status: quoteStatusSchema.optional(),
  lot_id: z.coerce.number().int().positive().optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  subdivision_id: z.coerce.number().int().positive().optional(),
});
export type QuotesQuery = z.infer<typeof quotesQuerySchema>;

export const quotesPageSchema = pagedResponseSchema(quoteSchema);
export const quoteResponseSchema = dataResponseSchema(quoteSchema);
