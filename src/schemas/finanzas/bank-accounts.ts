import { z } from 'zod';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';
import { BANK_CODES, bankByCode, cciError, digitsOnly } from './banks';

/**
 * Finanzas → Bancos (issue 16 "Money in"; docs/domain.md "Bank account"): the company's bank
 * accounts {bank, kind AHORROS | CORRIENTE, currency, number, CCI, holder, active}.
 * GET|POST /api/bank-accounts, GET|PATCH|DELETE /api/bank-accounts/{id} (staff: 'Acceso módulo
 * finanzas' + 'Acceso submódulo bancos'). The bank catalogue and the CCI rule are ./banks.ts.
 */

/** Account kinds (docs/domain.md "Bank account"). */
export const BANK_ACCOUNT_KINDS = ['AHORROS', 'CORRIENTE'] as const;
export type BankAccountKind = (typeof BANK_ACCOUNT_KINDS)[number];

/** Spanish messages of the bank-account form and routes. */
export const BANK_ACCOUNT_MESSAGES = {
  /** 409: DELETE of an account that payments name as their destination. */
  inUse: 'La cuenta tiene pagos registrados: desactívela en lugar de eliminarla',
  bank: 'Seleccione un banco del catálogo',
  kind: 'Seleccione el tipo de cuenta (ahorros o corriente)',
  currency: 'Seleccione la moneda (soles o dólares)',
  number: 'El número de cuenta debe tener entre 6 y 20 dígitos (se admiten guiones)',
  holder: 'Ingrese el titular de la cuenta',
  duplicateNumber: 'Ya hay una cuenta registrada con ese banco y número',
  duplicateCci: 'Ya hay una cuenta registrada con ese CCI',
} as const;

/**
 * An account as the API answers it. `bank` is a code of ./banks.ts (a string: a backend may know
 * more banks); `number` and `cci` are digits only; `active` false hides it from new payments.
 */
export const bankAccountSchema = z.object({
  id: z.number().int(),
  bank: z.string(),
  kind: z.enum(BANK_ACCOUNT_KINDS),
  currency: z.enum(['PEN', 'USD']),
  number: z.string(),
  cci: z.string(),
  holder: z.string(),
  active: z.boolean(),
  /** Edit counter (src/schemas/versions.ts). */
  version: versionInAnswerSchema,
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

const bankSchema = z.string().refine((code) => bankByCode(code) !== undefined, { message: BANK_ACCOUNT_MESSAGES.bank });
const numberSchema = z
  .string()
  .trim()
  .transform(digitsOnly)
  .pipe(z.string().regex(/^\d{6,20}$/, BANK_ACCOUNT_MESSAGES.number));
/** The CCI alone (20 digits, right check digits); the bank's entity code is checked with the bank. */
const cciSchema = z
  .string()
  .trim()
  .transform(digitsOnly)
  .superRefine((cci, ctx) => {
    const error = cciError(cci);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });

/** Fields a request may send. */
const bankAccountFields = {
  bank: bankSchema,
  kind: z.enum(BANK_ACCOUNT_KINDS, { error: BANK_ACCOUNT_MESSAGES.kind }),
  currency: z.enum(['PEN', 'USD'], { error: BANK_ACCOUNT_MESSAGES.currency }),
  number: numberSchema,
  cci: cciSchema,
  holder: z.string().trim().min(1, BANK_ACCOUNT_MESSAGES.holder).max(200),
  active: z.boolean(),
};

/** When both the bank and a well-formed CCI are present: the CCI starts with the bank's entity code (else an issue on `cci`). */
function checkCciBank(value: { bank?: string | undefined; cci?: string | undefined }, ctx: z.RefinementCtx) {
  if (value.bank === undefined || value.cci === undefined || cciError(value.cci) !== null) return;
  const error = cciError(value.cci, value.bank);
  if (error) ctx.addIssue({ code: 'custom', message: error, path: ['cci'] });
}

/**
 * POST /api/bank-accounts body (strict). `number` and `cci` may be typed with spaces or hyphens
 * (stored as digits); the CCI must have 20 digits, start with the bank's entity code and carry the
 * right check digits (./banks.ts `cciError`). `active` defaults to true.
 */
export const createBankAccountRequestSchema = z
  .strictObject({ ...bankAccountFields, active: bankAccountFields.active.default(true) })
  .superRefine(checkCciBank);
export type CreateBankAccountRequest = z.input<typeof createBankAccountRequestSchema>;

/**
 * PATCH /api/bank-accounts/{id} body: any subset, plus the `version` read (stale → 409). The
 * server checks the CCI against the bank of the merged record.
 */
export const updateBankAccountRequestSchema = z
  .strictObject({ ...bankAccountFields, version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options)
  .superRefine(checkCciBank);
export type UpdateBankAccountRequest = z.input<typeof updateBankAccountRequestSchema>;

/** GET /api/bank-accounts query: `q` (holder, number, CCI), filters bank, kind, currency, active ('true' | 'false'). */
export const bankAccountsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['bank', 'holder', 'currency', 'kind', 'id']),
  bank: z.enum(BANK_CODES).optional(),
  kind: z.enum(BANK_ACCOUNT_KINDS).optional(),
  currency: z.enum(['PEN', 'USD']).optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type BankAccountsQuery = z.infer<typeof bankAccountsQuerySchema>;

/** GET /api/bank-accounts answer. */
export const bankAccountsPageSchema = pagedResponseSchema(bankAccountSchema);
/** One account (GET one, POST, PATCH). */
export const bankAccountResponseSchema = dataResponseSchema(bankAccountSchema);
