import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema } from '../paging';
import { recordVersionSchema } from '../versions';
import { LIMITS } from '../limits';
import { PAYMENT_METHODS } from './terms';

/**
 * Rescission (resolución, Código Civil arts. 1561–1563) and rescheduling (adenda) of a sale
 * (docs/domain.md "Rescission", "Rescheduling (adenda)"):
 * GET /api/sales/{id}/rescission (preview), POST /api/sales/{id}/rescind,
 * GET /api/sales/{id}/reschedule (preview), POST /api/sales/{id}/reschedule,
 * GET /api/sales/{id}/schedules (the current schedule and every superseded one, read-only).
 * Requests are strict; answers tolerant (docs/contracts.md). Money in integer céntimos of the
 * sale's `currency`; dates ISO `YYYY-MM-DD` (Lima).
 */

export const RESCISSION_MESSAGES = {
  notLive: 'La venta ya está anulada, resuelta o cancelada: no se puede resolver',
  /** Followed by " (N de M, art. 1561)". */
  tooFewOverdue: 'La venta no tiene suficientes cuotas vencidas e impagas para resolver el contrato',
  /** Followed by the paid share. */
  paidShareLimit: 'El comprador ya pagó la parte del precio fijada por la lotización: solo puede exigirse el saldo (art. 1562)',
  penaltyTooHigh: 'La penalidad no puede superar el porcentaje de la lotización sobre lo pagado (art. 1563)',
  refundMismatch: 'El monto a devolver debe ser lo pagado menos la penalidad',
  countChanged: 'Las cuotas vencidas de la venta cambiaron mientras la resolvía: vuelva a abrir la resolución',
  paidChanged: 'Los pagos de la venta cambiaron mientras la resolvía: vuelva a abrir la resolución',
  reasonRequired: 'Indique el motivo de la resolución',
  resolved: 'Contrato resuelto',
} as const;

export const RESCHEDULE_MESSAGES = {
  notReschedulable: 'Solo se reprograma una venta financiada en cuotas, con la cuota inicial pagada y sin anular, resolver ni cancelar',
  nothingOpen: 'La venta no tiene saldo de capital por reprogramar',
  firstDueNotFuture: 'La primera cuota debe vencer después de hoy',
  firstDueTooFar: 'La primera cuota debe vencer dentro de un año',
  reasonRequired: 'Indique el motivo de la reprogramación',
  lateFeesRequired: 'Indique si la mora se traslada al nuevo cronograma o se condona',
  rescheduled: 'Venta reprogramada',
} as const;

/**
 * The documents the two events generate (docs/domain.md "Rescission and rescheduling: their
 * documents"): the notarial letter of resolution (CARTA_RESOLUCION, Código Civil art. 1429) and the
 * adenda (ADENDA), each a contract of the register made from the subdivision's latest published
 * template of its kind. Spanish notices of a document not yet issued, and the 404 of its download.
 */
export const SALE_DOCUMENT_MESSAGES = {
  letterPending:
    'La carta notarial de resolución está pendiente: la lotización no tiene una plantilla publicada de carta de resolución. Publíquela y genere la carta desde Generar Contrato.',
  letterDraft: 'La carta notarial de resolución quedó en borrador en Generar Contrato: complete los datos que faltan y emítala desde allí.',
  adendaPending:
    'La adenda está pendiente: la lotización no tiene una plantilla publicada de adenda. Publíquela y genere la adenda desde Generar Contrato.',
  adendaDraft: 'La adenda quedó en borrador en Generar Contrato: complete los datos que faltan y emítala desde allí.',
  letterNotIssued: 'La carta de resolución de esta venta aún no se ha emitido',
  adendaNotIssued: 'La adenda de esta reprogramación aún no se ha emitido',
} as const;

/**
 * A generated document of a sale (its contract in the register): id, number (null while BORRADOR),
 * state, and `download_path` — the PDF's path on the main base, null until issued.
 */
export const saleDocumentLinkSchema = z.object({
  contract_id: z.number().int(),
  number: z.string().nullable().default(null),
  state: z.string().default('BORRADOR'),
  download_path: z.string().nullable().default(null),
});
export type SaleDocumentLink = z.infer<typeof saleDocumentLinkSchema>;

/**
 * A sale's latest adenda as GET /api/sales/{id} and the reschedule answer carry it (`adenda`): the
 * rescheduling, its ADENDA document (null when none was made) and, while not issued, the notice.
 */
export const saleAdendaSchema = z.object({
  reschedule_id: z.number().int(),
  schedule_number: z.number().int().default(2),
  document: saleDocumentLinkSchema.nullable().catch(null).default(null),
  document_pending: z.string().nullable().catch(null).default(null),
});
export type SaleAdenda = z.infer<typeof saleAdendaSchema>;

/** What an adenda does with the late fees owed: CARRY into the new schedule, or WAIVE them (recorded). */
export const LATE_FEE_CHOICES = ['CARRY', 'WAIVE'] as const;
export type LateFeeChoice = (typeof LATE_FEE_CHOICES)[number];
export const LATE_FEE_CHOICE_LABELS: Record<LateFeeChoice, string> = {
  CARRY: 'Trasladar la mora al nuevo cronograma',
  WAIVE: 'Condonar la mora',
};

const cents = (label: string) =>
  z
    .number({ error: `Ingrese ${label}` })
    .int(`${label[0]!.toUpperCase()}${label.slice(1)} va en céntimos`)
    .min(0, `${label[0]!.toUpperCase()}${label.slice(1)} no puede ser negativo`)
    .max(LIMITS.maxCents);

/**
 * POST /api/sales/{id}/rescind body: the reason (3–500 characters), the sale's `version` as read,
 * and optionally the penalty (céntimos; at most the subdivision's percent of what was paid, art.
 * 1563 — the seller may keep less, never more; absent = that percent) and the refund (when sent it
 * must be paid − penalty: the confirmation of the figures the user saw).
 */
export const rescindSaleRequestSchema = z.strictObject({
  reason: z.string({ error: RESCISSION_MESSAGES.reasonRequired }).trim().min(3, RESCISSION_MESSAGES.reasonRequired).max(500),
  version: recordVersionSchema.optional(),
  penalty: cents('la penalidad').optional(),
  refund: cents('el monto a devolver').optional(),
});
export type RescindSaleRequest = z.input<typeof rescindSaleRequestSchema>;

/** One unpaid row of the sale in the rescission preview. */
export const rescissionInstalmentSchema = z.object({
  kind: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  amount: z.number().int(),
  paid: z.number().int().default(0),
  /** amount − paid, céntimos. */
  unpaid: z.number().int(),
  /** Days since the due date (0 when not yet due). */
  days_late: z.number().int().default(0),
  /** Due before today and unpaid: counts for art. 1561. */
  overdue: z.boolean().default(false),
});
export type RescissionInstalment = z.infer<typeof rescissionInstalmentSchema>;

/**
 * GET /api/sales/{id}/rescission: whether the sale may be resolved today and with what figures.
 * `allowed` false comes with `reasons` (Spanish). `paid` is the approved money on the sale (late
 * fees included); `penalty` = `penalty_pct` % of it, half-up; `refund` = paid − penalty.
 * `paid_to_price` is what was applied to the schedule's amounts (late fees apart), and
 * `paid_share_percent` its share of `final_price` (two decimals) against art. 1562's limit.
 */
export const saleRescissionSchema = z.object({
  sale_id: z.number().int(),
  number: z.string(),
  status: z.string(),
  currency: z.enum(['PEN', 'USD']),
  allowed: z.boolean(),
  reasons: z.array(z.string()).catch([]).default([]),
  /** The day the figures are for (Lima). */
  as_of: z.string(),
  required_overdue: z.number().int(),
  overdue_instalments: z.number().int(),
  instalments: z.array(rescissionInstalmentSchema).catch([]).default([]),
  unpaid_amount: z.number().int().default(0),
  final_price: z.number().int().default(0),
  paid: z.number().int(),
  paid_to_price: z.number().int().default(0),
  paid_share_percent: z.string().default('0.00'),
  paid_share_limit_pct: z.number().int().nullable().default(null),
  penalty_pct: z.number().int(),
  penalty: z.number().int(),
  refund: z.number().int(),
  version: z.number().int().optional(),
});
export type SaleRescission = z.infer<typeof saleRescissionSchema>;
export const saleRescissionResponseSchema = dataResponseSchema(saleRescissionSchema);

/**
 * A resolved sale's record (on GET /api/sales/{id} as `rescission`): the counts, the money
 * (paid = penalty + refund), the reason, who approved it and when.
 */
export const rescissionRecordSchema = z.object({
  overdue_instalments: z.number().int(),
  required_overdue: z.number().int(),
  paid: z.number().int(),
  penalty_pct: z.number().int().default(0),
  penalty: z.number().int(),
  refund: z.number().int(),
  reason: z.string(),
  approved_by: z.string().nullable().default(null),
  created_at: z.string(),
  /** The notarial letter (CARTA_RESOLUCION) generated with the rescission; null when none was made. */
  letter: saleDocumentLinkSchema.nullable().catch(null).default(null),
  /** Spanish notice while the letter is not issued (no published template, or left in draft); null once issued. */
  letter_pending: z.string().nullable().catch(null).default(null),
});
export type RescissionRecord = z.infer<typeof rescissionRecordSchema>;

/** The adenda's terms, shared by the preview's query and the confirmation's body. */
const rescheduleTermsFields = {
  method: z.enum(PAYMENT_METHODS, { error: 'Seleccione el método' }),
  instalments: z
    .number({ error: 'Indique el número de cuotas' })
    .int('Número de cuotas no válido')
    .min(1, 'Entre 1 y 360 cuotas')
    .max(360, 'Entre 1 y 360 cuotas'),
  monthly_rate_percent: z
    .string()
    .trim()
    .regex(/^\d(\.\d{1,4})?$/, 'Tasa mensual no válida (0 a 5 %)')
    .refine((v) => Number(v) <= 5, 'Tasa mensual no válida (0 a 5 %)'),
  first_due_date: calendarDateSchema('Indique la fecha de la primera cuota'),
  late_fees: z.enum(LATE_FEE_CHOICES, { error: RESCHEDULE_MESSAGES.lateFeesRequired }),
};

/**
 * POST /api/sales/{id}/reschedule body: the terms of the new schedule — method (SIN_INTERES,
 * INTERES_SIMPLE, FRANCES), 1–360 monthly instalments, the monthly rate in percent (decimal text,
 * 0–5), the first due date (after today, within a year), what is done with the late fees owed
 * (CARRY | WAIVE) — the reason and the sale's `version` as read (required: the schedule changes).
 */
export const rescheduleSaleRequestSchema = z.strictObject({
  ...rescheduleTermsFields,
  reason: z.string({ error: RESCHEDULE_MESSAGES.reasonRequired }).trim().min(3, RESCHEDULE_MESSAGES.reasonRequired).max(500),
  version: recordVersionSchema,
});
export type RescheduleSaleRequest = z.input<typeof rescheduleSaleRequestSchema>;

/** GET /api/sales/{id}/reschedule query: the same terms, all optional (without them only the balance and fees are answered). */
export const reschedulePreviewQuerySchema = z.strictObject({
  method: rescheduleTermsFields.method.optional(),
  instalments: z.coerce
    .number()
    .int('Número de cuotas no válido')
    .min(1, 'Entre 1 y 360 cuotas')
    .max(360, 'Entre 1 y 360 cuotas')
    .optional(),
  monthly_rate_percent: rescheduleTermsFields.monthly_rate_percent.optional(),
  first_due_date: calendarDateSchema('Indique la fecha de la primera cuota').optional(),
  late_fees: rescheduleTermsFields.late_fees.optional(),
});
export type ReschedulePreviewQuery = z.infer<typeof reschedulePreviewQuerySchema>;

/** One row of a schedule (current, superseded or proposed). Céntimos. */
export const scheduleRowSchema = z.object({
  kind: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  amount: z.number().int(),
  capital: z.number().int().default(0),
  interest: z.number().int().default(0),
  paid: z.number().int().default(0),
  status: z.string().default('PENDIENTE'),
  late_fee_accrued: z.number().int().default(0),
  late_fee_paid: z.number().int().default(0),
  late_fee_waived: z.number().int().default(0),
});
export type ScheduleRowWire = z.infer<typeof scheduleRowSchema>;

/**
 * GET /api/sales/{id}/reschedule: the open balance (capital not yet paid of the open instalments),
 * the late fees owed today, and — when the terms are given — the new schedule's rows, interest and
 * total (Σ amounts = balance + carried fees + interest). `allowed` false comes with `reasons`.
 */
export const reschedulePreviewSchema = z.object({
  sale_id: z.number().int(),
  currency: z.enum(['PEN', 'USD']),
  allowed: z.boolean(),
  reasons: z.array(z.string()).catch([]).default([]),
  as_of: z.string(),
  balance: z.number().int(),
  late_fees: z.number().int(),
  financed: z.number().int().nullable().default(null),
  total_interest: z.number().int().nullable().default(null),
  total: z.number().int().nullable().default(null),
  rows: z.array(scheduleRowSchema).catch([]).default([]),
  /** The current schedule's open rows (what the adenda replaces). */
  open_rows: z.array(scheduleRowSchema).catch([]).default([]),
  version: z.number().int().optional(),
});
export type ReschedulePreview = z.infer<typeof reschedulePreviewSchema>;
export const reschedulePreviewResponseSchema = dataResponseSchema(reschedulePreviewSchema);

/** An adenda as recorded (on a superseded schedule of GET schedules: the adenda that replaced it). */
export const rescheduleRecordSchema = z.object({
  id: z.number().int(),
  schedule_number: z.number().int(),
  balance: z.number().int(),
  late_fee_mode: z.enum(LATE_FEE_CHOICES).catch('WAIVE'),
  late_fee_amount: z.number().int().default(0),
  financed: z.number().int(),
  method: z.string(),
  instalments: z.number().int(),
  monthly_rate_percent: z.string(),
  first_due_date: z.string(),
  total_interest: z.number().int().default(0),
  total: z.number().int(),
  reason: z.string(),
  created_by: z.string().nullable().default(null),
  created_at: z.string(),
  /** The ADENDA document generated with it; null when none was made. */
  document: saleDocumentLinkSchema.nullable().catch(null).default(null),
  /** Spanish notice while the adenda is not issued; null once issued. */
  document_pending: z.string().nullable().catch(null).default(null),
});
export type RescheduleRecord = z.infer<typeof rescheduleRecordSchema>;

/**
 * One schedule of a sale: `number` 1 is the sale's own; the current one is live (`current` true,
 * its rows are the sale's instalments now), the others are read-only copies as they stood when
 * `replaced_by` (the adenda) superseded them.
 */
export const saleScheduleSchema = z.object({
  number: z.number().int(),
  current: z.boolean(),
  superseded_at: z.string().nullable().default(null),
  replaced_by: rescheduleRecordSchema.nullable().catch(null).default(null),
  rows: z.array(scheduleRowSchema).catch([]).default([]),
});
export type SaleSchedule = z.infer<typeof saleScheduleSchema>;

/** GET /api/sales/{id}/schedules: the current schedule first, then the superseded ones, newest first. */
export const saleSchedulesResponseSchema = z.object({ data: z.array(saleScheduleSchema).catch([]) });
