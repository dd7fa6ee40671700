import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';

/**
 * Finanzas → Registro de Cuotas (issue 16 "Money in": "every instalment across sales with filters
 * … and totals; the late fee accrued / paid / waived per row; waive with a reason (permission);
 * export"; ../shared/design/DOMAIN.md "Instalment", "Late fee"; docs/decisions.md "Registro de
 * Cuotas and reminders").
 *
 * Staff routes ('Acceso módulo finanzas' + 'Acceso submódulo pagos', which also grants Registro de Cuotas):
 * - GET /api/instalments — paged rows (≤ 100) with the filters of {@link instalmentsQuerySchema};
 * - GET /api/instalments/totals — the same filters: totals of the whole filtered set, per currency;
 * - GET /api/instalments/export — the same filters plus `format` csv | xlsx: a file of at most
 *   {@link INSTALMENTS_EXPORT_MAX_ROWS} rows in the list's order, with the customer's phone, the
 *   sale's agent and the due date as a real date (server/modules/finanzas/instalments.service.ts);
 * - POST /api/instalments/{id}/waive-late-fee — {@link waiveLateFeeRequestSchema}.
 *
 * Instalments of ANULADA sales are left out (nothing is owed on them). Money in integer céntimos of
 * the sale's `currency`; dates ISO `YYYY-MM-DD` (America/Lima).
 */

/** States of an instalment (DOMAIN.md "Instalment"; stored by the late-fee rules). */
export const INSTALMENT_STATUSES = ['PENDIENTE', 'PARCIAL', 'PAGADA', 'VENCIDA'] as const;
export type InstalmentStatusCode = (typeof INSTALMENT_STATUSES)[number];
export const INSTALMENT_STATUS_LABELS: Record<InstalmentStatusCode, string> = {
  PENDIENTE: 'Pendiente',
  PARCIAL: 'Parcial',
  PAGADA: 'Pagada',
  VENCIDA: 'Vencida',
};

/**
 * Days-late buckets (DOMAIN.md "Reports": overdue ageing al día, 1–30, 31–60, 61–90, > 90 days).
 * Days late: for a VENCIDA instalment (its stored status, kept by the daily late-fee job and by
 * every payment), the days since its due date plus the subdivision's grace up to today
 * (src/lib/finanzas/late-fees.ts `daysLate`); 0 for any other. AL_DIA: not VENCIDA.
 */
export const DAYS_LATE_BUCKETS = ['AL_DIA', '1_30', '31_60', '61_90', 'MAS_90'] as const;
export type DaysLateBucket = (typeof DAYS_LATE_BUCKETS)[number];
export const DAYS_LATE_BUCKET_LABELS: Record<DaysLateBucket, string> = {
  AL_DIA: 'Al día',
  '1_30': '1–30 días',
  '31_60': '31–60 días',
  '61_90': '61–90 días',
  MAS_90: 'Más de 90 días',
};
/** Inclusive day ranges of each bucket (`max` null: no upper end). */
export const DAYS_LATE_RANGES: Record<DaysLateBucket, { min: number; max: number | null }> = {
  AL_DIA: { min: 0, max: 0 },
  '1_30': { min: 1, max: 30 },
  '31_60': { min: 31, max: 60 },
  '61_90': { min: 61, max: 90 },
  MAS_90: { min: 91, max: null },
};

/** Kinds of reminder the daily job raises once per instalment (migration 0025). */
export const INSTALMENT_REMINDER_KINDS = ['POR_VENCER', 'VENCIDA'] as const;
export type InstalmentReminderKind = (typeof INSTALMENT_REMINDER_KINDS)[number];

/** Most rows an export file holds (the list's order; a larger set is cut, the file says so). */
export const INSTALMENTS_EXPORT_MAX_ROWS = 20_000;

/** Spanish messages of the register's routes and forms. */
export const INSTALMENT_MESSAGES = {
  date: 'Ingrese una fecha válida (AAAA-MM-DD)',
  dateRange: 'La fecha inicial no puede ser posterior a la final',
  amount: 'Ingrese un monto mayor que cero',
  exceedsOwed: 'El monto supera la mora pendiente de la cuota',
  nothingOwed: 'La cuota no tiene mora pendiente',
  reason: 'Indique el motivo (al menos 3 caracteres)',
  reasonLength: 'Máximo 500 caracteres',
  saleNotOpen: 'La venta está anulada: su mora no se condona',
  waived: 'Mora condonada',
  format: 'Formato no válido; use csv o xlsx',
} as const;

/** The register's date filters: a real calendar day (src/schemas/dates.ts). */
const isoDate = calendarDateSchema(INSTALMENT_MESSAGES.date);

/** Filters of the register, shared by the list, its totals and its export. */
const instalmentFilterShape = {
  subdivision_id: z.coerce.number().int().positive().optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  sale_id: z.coerce.number().int().positive().optional(),
  status: z.enum(INSTALMENT_STATUSES).optional(),
  due_from: isoDate.optional(),
  due_to: isoDate.optional(),
  days_late: z.enum(DAYS_LATE_BUCKETS).optional(),
};

/**
 * Sort fields of the register: the due date (`due_date` or `-due_date`, then id), read in index
 * order. Without `sort` the register's default applies: open instalments (not PAGADA) first by due
 * date, the paid ones last (docs/domain.md "Registro de Cuotas"); the list and the export alike.
 * Ordering by amount or late fee was left out: on 2 000 000 rows it sorts the whole filtered
 * set (~4 s for 800 000 PENDIENTE rows).
 */
export const INSTALMENT_SORT_FIELDS = ['due_date'] as const;

/**
 * GET /api/instalments query: paging, `sort`, `q` (customer name or document, lot code, sale number
 * "V-000123") and the filters; `due_from` ≤ `due_to` when both are given (else a 422 on `due_from`).
 */
export const instalmentsQuerySchema = z
  .strictObject({ ...listQueryShape, sort: sortSchema(INSTALMENT_SORT_FIELDS), ...instalmentFilterShape })
  .refine((q) => !q.due_from || !q.due_to || q.due_from <= q.due_to, { message: INSTALMENT_MESSAGES.dateRange, path: ['due_from'] });
export type InstalmentsQuery = z.infer<typeof instalmentsQuerySchema>;

/** GET /api/instalments/totals query: the list's filters and `q` (paging and sort are accepted and ignored). */
export const instalmentTotalsQuerySchema = instalmentsQuerySchema;

/** GET /api/instalments/export query: the list's filters, `q`, `sort` and the file's `format`. */
export const instalmentsExportQuerySchema = z
  .strictObject({
    ...listQueryShape,
    sort: sortSchema(INSTALMENT_SORT_FIELDS),
    ...instalmentFilterShape,
    format: z.enum(['csv', 'xlsx'], { error: INSTALMENT_MESSAGES.format }).default('xlsx'),
  })
  .refine((q) => !q.due_from || !q.due_to || q.due_from <= q.due_to, { message: INSTALMENT_MESSAGES.dateRange, path: ['due_from'] });
export type InstalmentsExportQuery = z.infer<typeof instalmentsExportQuerySchema>;

/**
 * One row of the register. `balance` = amount − paid; `late_fee_due` = accrued − paid − waived (≥ 0),
 * as stored by the late-fee job on `late_fee_as_of`; `customer` the sale's first holder.
 */
export const instalmentRowSchema = z.object({
  id: z.number().int(),
  sale: z.object({ id: z.number().int(), number: z.string() }),
  lot_code: z.string().default(''),
  subdivision: z.object({ id: z.number().int(), name: z.string().default('') }),
  customer: z
    .object({ id: z.number().int(), display_name: z.string(), document_number: z.string().default('') })
    .nullable()
    .catch(null)
    .default(null),
  kind: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  currency: z.enum(['PEN', 'USD']).catch('PEN'),
  amount: z.number().int(),
  paid: z.number().int(),
  balance: z.number().int(),
  status: z.enum(INSTALMENT_STATUSES).catch('PENDIENTE'),
  days_late: z.number().int().default(0),
  late_fee_accrued: z.number().int().default(0),
  late_fee_paid: z.number().int().default(0),
  late_fee_waived: z.number().int().default(0),
  late_fee_due: z.number().int().default(0),
  late_fee_as_of: z.string().nullable().default(null),
});
export type InstalmentRow = z.infer<typeof instalmentRowSchema>;

export const instalmentsPageSchema = pagedResponseSchema(instalmentRowSchema);
export const instalmentResponseSchema = dataResponseSchema(instalmentRowSchema);

/** Totals of the filtered set in one currency (céntimos). */
export const instalmentTotalsSchema = z.object({
  currency: z.enum(['PEN', 'USD']).catch('PEN'),
  count: z.number().int(),
  amount: z.number().int(),
  paid: z.number().int(),
  balance: z.number().int(),
  late_fee_accrued: z.number().int().default(0),
  late_fee_paid: z.number().int().default(0),
  late_fee_waived: z.number().int().default(0),
  late_fee_due: z.number().int().default(0),
});
export type InstalmentTotals = z.infer<typeof instalmentTotalsSchema>;

/** GET /api/instalments/totals answer: one entry per currency present in the filtered set (PEN first). */
export const instalmentTotalsResponseSchema = z.object({ data: z.array(instalmentTotalsSchema).catch([]) });

/**
 * POST /api/instalments/{id}/waive-late-fee body: `amount` in céntimos (> 0, at most the late fee
 * owed after the fee is figured for today; else a 422 on `amount`), `reason` (3–500 characters).
 * Answers the row as it stands after the waiver (200).
 */
export const waiveLateFeeRequestSchema = z.strictObject({
  amount: z.number({ error: INSTALMENT_MESSAGES.amount }).int(INSTALMENT_MESSAGES.amount).positive(INSTALMENT_MESSAGES.amount).max(1e13),
  reason: z.string().trim().min(3, INSTALMENT_MESSAGES.reason).max(500, INSTALMENT_MESSAGES.reasonLength),
});
export type WaiveLateFeeRequest = z.input<typeof waiveLateFeeRequestSchema>;
