import { z } from 'zod';

/**
 * Comercial → Mapa de Pagos (/COMERCIO/MapaVentas/Pagos; issue 16 "Money in": "the plan coloured by
 * payment status of each sold lot: al día, vence ≤ 7 días, 1–30, 31–60, 61–90, > 90 días, cancelado,
 * with counts and amounts per bucket"; docs/decisions.md "Mapa de Pagos").
 *
 * GET /api/subdivisions/{key}/payment-map ('Acceso módulo comercial' + 'Acceso submódulo ventas'):
 * every lot of the subdivision with a live sale (not ANULADA) and its payment bucket, days late,
 * overdue amount and balance, plus a summary per bucket. The polygons come from the staff map
 * (GET /api/subdivisions/{key}/map); this answer carries only lot ids and figures. Money in integer
 * céntimos of `currency` (the subdivision's); dates ISO YYYY-MM-DD (America/Lima).
 */

/**
 * Payment buckets of a sold lot, in the legend's order (src/lib/finanzas/payment-buckets.ts holds the
 * rule): AL_DIA (nothing late, nothing due within 7 days), VENCE_7 (nothing late; an instalment due
 * within the next 7 days or in its grace days), D1_30 … MAS_90 (days late of the oldest owed
 * instalment, counted after the grace as in src/lib/finanzas/late-fees.ts `daysLate`), CANCELADO
 * (nothing owed).
 */
export const PAYMENT_BUCKETS = ['AL_DIA', 'VENCE_7', 'D1_30', 'D31_60', 'D61_90', 'MAS_90', 'CANCELADO'] as const;
export type PaymentBucket = (typeof PAYMENT_BUCKETS)[number];

/** Spanish names of the buckets (legend, summary table, lot panel). */
export const PAYMENT_BUCKET_LABELS: Record<PaymentBucket, string> = {
  AL_DIA: 'Al día',
  VENCE_7: 'Vence en ≤ 7 días',
  D1_30: '1–30 días de atraso',
  D31_60: '31–60 días de atraso',
  D61_90: '61–90 días de atraso',
  MAS_90: 'Más de 90 días de atraso',
  CANCELADO: 'Cancelado',
};

/** Days ahead a due date puts a lot in VENCE_7. */
export const DUE_SOON_DAYS = 7;

/** A bucket read tolerantly: an unknown code from a newer server reads as AL_DIA (no alarm colour). */
export const paymentBucketSchema = z.enum(PAYMENT_BUCKETS).catch('AL_DIA');

/** One sold lot's payment facts. Required: the lot, the sale and its bucket. */
export const paymentMapLotSchema = z.object({
  lot_id: z.number().int(),
  sale_id: z.number().int(),
  /** "V-000012". */
  sale_number: z.string().default(''),
  /** The sale's holders' names, by position, joined with ", ". */
  buyer: z.string().default(''),
  bucket: paymentBucketSchema,
  /** Days late of the oldest owed instalment after its grace (0 when none is late). */
  days_late: z.number().int().default(0),
  /** Σ (amount − paid) of the instalments already late (past due date + grace), céntimos. */
  overdue: z.number().int().default(0),
  /** Σ (amount − paid) of every instalment, céntimos. */
  balance: z.number().int().default(0),
  /** Due date of the oldest owed instalment, null when nothing is owed. */
  next_due_date: z.string().nullable().default(null),
});
export type PaymentMapLot = z.infer<typeof paymentMapLotSchema>;

/** One bucket of the summary: sold lots in it and their overdue amount and balance (céntimos). */
export const paymentMapBucketSummarySchema = z.object({
  bucket: paymentBucketSchema,
  lots: z.number().int().default(0),
  overdue: z.number().int().default(0),
  balance: z.number().int().default(0),
});
export type PaymentMapBucketSummary = z.infer<typeof paymentMapBucketSummarySchema>;

/** The answer's data: the subdivision's currency and grace, today, the sold lots and the summary (every bucket, legend order). */
export const paymentMapSchema = z.object({
  subdivision: z.object({
    key: z.string(),
    name: z.string().default(''),
    currency: z.enum(['PEN', 'USD']).catch('PEN'),
    grace_days: z.number().int().default(0),
  }),
  /** The day the figures are for (Lima, the server's clock). */
  today: z.string().default(''),
  lots: z.array(paymentMapLotSchema),
  summary: z.array(paymentMapBucketSummarySchema).default([]),
});
export type PaymentMap = z.infer<typeof paymentMapSchema>;
export const paymentMapResponseSchema = z.object({ data: paymentMapSchema });
