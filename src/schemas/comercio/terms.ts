import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { LIMITS } from '../limits';

/**
 * The payment terms a quote (POST /api/quotes) and a sale (POST /api/sales) are made with, one
 * definition for both: discount and down payment each as an amount in céntimos or a percentage (not
 * both), the down payment's interest-free parts, the monthly instalments (0 = cash), the monthly
 * rate (a decimal text, 0–5 %), the method and the first due date. The plan they give is
 * src/lib/comercio/quote-plan.ts `planTerms`.
 */

/** Schedule methods (the values of src/lib/comercio/schedule.ts SCHEDULE_METHODS; schemas import no lib). */
export const PAYMENT_METHODS = ['SIN_INTERES', 'INTERES_SIMPLE', 'FRANCES'] as const;
export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  SIN_INTERES: 'Sin interés',
  INTERES_SIMPLE: 'Interés simple',
  FRANCES: 'Francés (cuota fija)',
};

export const TERMS_MESSAGES = {
  bothDiscounts: 'Indique el descuento como monto o como porcentaje, no ambos',
  bothDownPayments: 'Indique la cuota inicial como monto o como porcentaje, no ambos',
} as const;

const cents = z
  .number({ error: 'Ingrese el monto' })
  .int('El monto va en céntimos')
  .min(0, 'El monto no puede ser negativo')
  .max(LIMITS.maxCents, 'El monto supera el máximo permitido');
const percent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,4})?$/, 'Porcentaje no válido (0 a 100)')
  .refine((v) => Number(v) <= 100, 'Porcentaje no válido (0 a 100)');

/** The fields of the terms (spread into a request's strict object). */
export const paymentTermsFields = {
  discount_cents: cents.nullable().optional(),
  discount_percent: percent.nullable().optional(),
  down_payment_cents: cents.nullable().optional(),
  down_payment_percent: percent.nullable().optional(),
  down_payment_parts: z.number().int().min(1, 'Entre 1 y 12 partes').max(12, 'Entre 1 y 12 partes').default(1),
  instalments: z.number({ error: 'Indique el número de cuotas' }).int().min(0, 'Entre 0 y 360 cuotas').max(360, 'Entre 0 y 360 cuotas'),
  monthly_rate_percent: z
    .string()
    .trim()
    .regex(/^\d(\.\d{1,4})?$/, 'Tasa mensual no válida (0 a 5 %)')
    .refine((v) => Number(v) <= 5, 'Tasa mensual no válida (0 a 5 %)')
    .default('0'),
  method: z.enum(PAYMENT_METHODS, { error: 'Seleccione el método' }).default('SIN_INTERES'),
  first_due_date: calendarDateSchema().nullable().optional(),
};

/** The rule between the terms' fields: an amount or a percentage, not both (a request's superRefine). */
export function paymentTermsRules(
  v: {
    discount_cents?: number | null;
    discount_percent?: string | null;
    down_payment_cents?: number | null;
    down_payment_percent?: string | null;
  },
  ctx: z.RefinementCtx,
): void {
  if (v.discount_cents != null && v.discount_percent != null)
    ctx.addIssue({ code: 'custom', path: ['discount_percent'], message: TERMS_MESSAGES.bothDiscounts });
  if (v.down_payment_cents != null && v.down_payment_percent != null)
    ctx.addIssue({ code: 'custom', path: ['down_payment_percent'], message: TERMS_MESSAGES.bothDownPayments });
}
