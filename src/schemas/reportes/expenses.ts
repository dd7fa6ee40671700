import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { versionInAnswerSchema } from '../versions';

/**
 * Egresos, the expenses register of /ReportesEconomicos (docs/reports.md "Ingresos vs egresos and
 * the expenses register"): what the company spent on a subdivision — date, concept, amount and an
 * optional voucher reference — until Ingeniería's purchases and works land. The report Ingresos vs
 * egresos (GET /api/reports/ingresos-egresos) sums it per subdivision and currency.
 *
 * Staff routes ('Acceso módulo reportes económicos', reading and writing; customers 403):
 * - GET /api/expenses (paged; filters `from`, `to`, `subdivision_id`), GET /api/expenses/{id};
 * - POST /api/expenses; PUT /api/expenses/{id} (the whole record with the `version` read);
 *   DELETE /api/expenses/{id}?version=N. A stale `version` is the usual 409 (src/schemas/versions.ts).
 *
 * Money in integer céntimos of the subdivision's currency (an expense is never in another);
 * dates ISO `YYYY-MM-DD` (America/Lima). The voucher is a reference text (invoice or receipt
 * number), not a file: uploading the document itself is out of scope.
 */

/** Longest concept, in characters. */
export const EXPENSE_CONCEPT_MAX = 200;
/** Longest voucher reference, in characters. */
export const EXPENSE_VOUCHER_MAX = 60;
/** Largest amount of one expense, in céntimos (S/ 100 000 000.00): a typo of extra zeros is a 422, and sums stay exact. */
export const EXPENSE_AMOUNT_MAX = 10_000_000_000;
/** Earliest expense date accepted (the register is of current works, not history). */
export const EXPENSE_DATE_MIN = '2000-01-01';

/** Spanish messages of the expenses form and routes. */
export const EXPENSE_MESSAGES = {
  date: 'Ingrese la fecha del egreso',
  dateTooOld: 'La fecha del egreso no puede ser anterior al 01/01/2000',
  futureDate: 'La fecha del egreso no puede ser futura',
  subdivision: 'Seleccione la lotización',
  unknownSubdivision: 'La lotización no existe',
  concept: 'Ingrese el concepto del egreso',
  conceptTooLong: `El concepto admite como máximo ${EXPENSE_CONCEPT_MAX} caracteres`,
  amount: 'Ingrese un monto mayor que cero (en céntimos)',
  amountTooLarge: 'El monto es demasiado grande',
  currency: 'Seleccione la moneda (soles o dólares)',
  currencyMismatch: 'La moneda del egreso debe ser la de la lotización',
  voucherTooLong: `El comprobante admite como máximo ${EXPENSE_VOUCHER_MAX} caracteres`,
  version: 'Indique la versión del egreso que leyó',
  created: 'Egreso registrado',
  updated: 'Egreso actualizado',
  deleted: 'Egreso eliminado',
} as const;

/**
 * An expense as the routes answer it (tolerant reader). `amount` céntimos of `currency` (the
 * subdivision's); `expense_date` `YYYY-MM-DD` (Lima); `voucher` the invoice or receipt reference
 * or null; `created_by` the staff user's name ('' when unknown).
 */
export const expenseSchema = z.object({
  id: z.number().int(),
  subdivision: z.object({ id: z.number().int(), name: z.string().default('') }),
  expense_date: z.string(),
  concept: z.string(),
  amount: z.number().int(),
  currency: z.enum(['PEN', 'USD']),
  voucher: z.string().nullable().default(null),
  created_by: z.string().default(''),
  created_at: z.string(),
  updated_at: z.string().default(''),
  /** Edit counter (src/schemas/versions.ts). */
  version: versionInAnswerSchema,
});
export type Expense = z.infer<typeof expenseSchema>;

/** A request's expense date: a real day (src/schemas/dates.ts) not before {@link EXPENSE_DATE_MIN}; "not future" is the server's rule (Lima's today). */
const expenseDateSchema = calendarDateSchema(EXPENSE_MESSAGES.date).refine((d) => d >= EXPENSE_DATE_MIN, {
  message: EXPENSE_MESSAGES.dateTooOld,
});

/** The `version` read (1 … 2^31 − 1), required on PUT and DELETE. */
const versionField = z
  .number({ error: EXPENSE_MESSAGES.version })
  .int(EXPENSE_MESSAGES.version)
  .min(1, EXPENSE_MESSAGES.version)
  .max(2_147_483_647, EXPENSE_MESSAGES.version);

/** Fields of POST and PUT. */
const expenseFields = {
  subdivision_id: z
    .number({ error: EXPENSE_MESSAGES.subdivision })
    .int(EXPENSE_MESSAGES.subdivision)
    .positive(EXPENSE_MESSAGES.subdivision)
    .max(2_147_483_647, EXPENSE_MESSAGES.unknownSubdivision),
  expense_date: expenseDateSchema,
  concept: z
    .string({ error: EXPENSE_MESSAGES.concept })
    .trim()
    .min(1, EXPENSE_MESSAGES.concept)
    .max(EXPENSE_CONCEPT_MAX, EXPENSE_MESSAGES.conceptTooLong),
  amount: z
    .number({ error: EXPENSE_MESSAGES.amount })
    .int(EXPENSE_MESSAGES.amount)
    .positive(EXPENSE_MESSAGES.amount)
    .max(EXPENSE_AMOUNT_MAX, EXPENSE_MESSAGES.amountTooLarge),
  currency: z.enum(['PEN', 'USD'], { error: EXPENSE_MESSAGES.currency }),
  /** Empty or blank → null. */
  voucher: z
    .string()
    .trim()
    .max(EXPENSE_VOUCHER_MAX, EXPENSE_MESSAGES.voucherTooLong)
    .transform((v) => (v === '' ? null : v))
    .nullish()
    .transform((v) => v ?? null),
};

/**
 * POST /api/expenses body (strict). `currency` must be the subdivision's (else 422 on `currency`);
 * an unknown subdivision is a 422 on `subdivision_id`; a future date a 422 on `expense_date`.
 */
export const createExpenseRequestSchema = z.strictObject(expenseFields);
export type CreateExpenseRequest = z.input<typeof createExpenseRequestSchema>;

/** PUT /api/expenses/{id} body (strict): every field again, plus the `version` read (a stale one is a 409). */
export const updateExpenseRequestSchema = z.strictObject({
  ...expenseFields,
  version: versionField,
});
export type UpdateExpenseRequest = z.input<typeof updateExpenseRequestSchema>;

/** DELETE /api/expenses/{id} query (strict): `version`, the version read (a stale one is a 409). */
export const deleteExpenseQuerySchema = z.strictObject({
  version: z.coerce.number({ error: EXPENSE_MESSAGES.version }).pipe(versionField),
});
export type DeleteExpenseQuery = z.infer<typeof deleteExpenseQuerySchema>;

/**
 * GET /api/expenses query (strict): `from`/`to` expense dates (both included), `subdivision_id`,
 * `currency`, `q` (concept or voucher); sort by date (default newest first), amount or id.
 * Pages of at most MAX_PER_PAGE rows (src/schemas/list.ts).
 */
export const expensesQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['expense_date', 'amount', 'id']),
  from: calendarDateSchema('Fecha inicial inválida').optional(),
  to: calendarDateSchema('Fecha final inválida').optional(),
  subdivision_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  currency: z.enum(['PEN', 'USD']).optional(),
});
export type ExpensesQuery = z.infer<typeof expensesQuerySchema>;

/** GET /api/expenses answer. */
export const expensesPageSchema = pagedResponseSchema(expenseSchema);
/** One expense (GET one, POST, PUT). */
export const expenseResponseSchema = dataResponseSchema(expenseSchema);
