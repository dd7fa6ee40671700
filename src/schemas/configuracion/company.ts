import { z } from 'zod';
import { isValidRuc } from '../documents';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';

/**
 * Company and locals (Configuración → Empresas): GET|PATCH /api/company, POST /api/company/logo
 * (multipart), public GET /logo; GET|POST /api/locals, GET|PATCH /api/locals/{id},
 * POST /api/locals/{id}/activate | deactivate.
 */

/** Largest logo accepted, in bytes (1 MB). */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** Logo types accepted (detected from the file's bytes, not its name). */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;

/** The back-dating window of sales when the company has not set one, in days (docs/domain.md "Sales"). */
export const DEFAULT_SALE_BACKDATE_DAYS = 60;
/** The widest back-dating window a company may set, in days (a year). */
export const MAX_SALE_BACKDATE_DAYS = 366;
const backdateMessage = `Ingrese un número de días entre 0 y ${MAX_SALE_BACKDATE_DAYS}`;

/**
 * Days an issued contract may wait for its signed scan before Registro de Contratos flags it
 * (docs/domain.md "Contract variables"; migration 0041): 1 … 365, default 15.
 */
export const DEFAULT_CONTRACT_SIGNATURE_DAYS = 15;
export const MAX_CONTRACT_SIGNATURE_DAYS = 365;
const signatureDaysMessage = `Ingrese un número de días entre 1 y ${MAX_CONTRACT_SIGNATURE_DAYS}`;
/** Messages of the contract settings of the company. */
export const COMPANY_CONTRACT_MESSAGES = {
  representativeDni: 'El DNI del representante debe tener 8 dígitos',
  signatureDays: signatureDaysMessage,
} as const;

/** The company as GET /api/company answers it; `logo_url` is the public logo path (versioned) or null. */
export const companySchema = z.object({
  id: z.number().int(),
  business_name: z.string(),
  ruc: z.string(),
  address: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  legal_representative: z.string().nullable(),
  /** Days before today a sale may be dated (docs/domain.md "Sales"); a server without it reads as the default. */
  sale_backdate_days: z.number().int().catch(DEFAULT_SALE_BACKDATE_DAYS).default(DEFAULT_SALE_BACKDATE_DAYS),
  /**
   * Segregation of duties on payments (docs/domain.md "Payments: segregation of duties"): whoever
   * registered a payment cannot approve it; a server without it reads as the default (on).
   */
  payment_approval_segregation: z.boolean().catch(true).default(true),
  /** The legal representative's DNI, as contracts name them (8 digits). */
  legal_representative_dni: z.string().nullable().catch(null).default(null),
  /** SUNARP registry entry of the representative's power ("Partida 11223344, asiento C00002"). */
  legal_representative_power_entry: z.string().nullable().catch(null).default(null),
  /** Where contracts are signed ("Lima"). */
  contract_place: z.string().nullable().catch(null).default(null),
  /** Days an issued contract may wait for its signed scan before it is flagged (1–365). */
  contract_signature_days: z.number().int().catch(DEFAULT_CONTRACT_SIGNATURE_DAYS).default(DEFAULT_CONTRACT_SIGNATURE_DAYS),
  logo_url: z.string().nullable(),
  /** Edit counter (src/schemas/versions.ts); a logo upload raises it too. */
  version: versionInAnswerSchema,
});
export type Company = z.infer<typeof companySchema>;

/** PATCH /api/company body (any subset; RUC checked with its mod-11 digit). */
export const updateCompanyRequestSchema = z
  .strictObject({
    business_name: z.string().trim().min(1, 'Ingrese la razón social').max(200),
    ruc: z.string().trim().refine(isValidRuc, { message: 'El RUC no es válido (11 dígitos con dígito verificador)' }),
    address: z.string().trim().min(1, 'Ingrese la dirección').max(250),
    phone: z
      .string()
      .trim()
      .regex(/^\d{6,15}$/, 'El teléfono debe tener entre 6 y 15 dígitos')
      .nullable(),
    email: z.email({ error: 'Ingrese un correo electrónico válido' }).max(120).nullable(),
    legal_representative: z.string().trim().min(1).max(200).nullable(),
    /** Days before today a sale may be dated, 0 … {@link MAX_SALE_BACKDATE_DAYS}. */
    sale_backdate_days: z
      .number({ error: backdateMessage })
      .int(backdateMessage)
      .min(0, backdateMessage)
      .max(MAX_SALE_BACKDATE_DAYS, backdateMessage),
    /** Whether who registered a payment is barred from approving it (true | false). */
    payment_approval_segregation: z.boolean({ error: 'Indique sí o no' }),
    /** The representative's DNI: 8 digits, or null. */
    legal_representative_dni: z
      .string({ error: COMPANY_CONTRACT_MESSAGES.representativeDni })
      .trim()
      .regex(/^\d{8}$/, COMPANY_CONTRACT_MESSAGES.representativeDni)
      .nullable(),
    /** The registry entry of the representative's power (free text ≤ 200), or null. */
    legal_representative_power_entry: z.string().trim().min(1).max(200, 'Use como máximo 200 caracteres').nullable(),
    /** The place of signing (≤ 120), or null. */
    contract_place: z.string().trim().min(1).max(120, 'Use como máximo 120 caracteres').nullable(),
    /** 1 … {@link MAX_CONTRACT_SIGNATURE_DAYS}. */
    contract_signature_days: z
      .number({ error: signatureDaysMessage })
      .int(signatureDaysMessage)
      .min(1, signatureDaysMessage)
      .max(MAX_CONTRACT_SIGNATURE_DAYS, signatureDaysMessage),
    /** The version read (stale → 409). */
    version: recordVersionSchema,
  })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateCompanyRequest = z.input<typeof updateCompanyRequestSchema>;

/** One company answer (GET, PATCH, logo upload). */
export const companyResponseSchema = dataResponseSchema(companySchema);

/** A local (branch) of the company. */
export const localRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  active: z.boolean(),
  /** Edit counter (src/schemas/versions.ts); activating and deactivating raise it too. */
  version: versionInAnswerSchema,
});
export type LocalRecord = z.infer<typeof localRecordSchema>;

/** GET /api/locals query: `q` searches name and address; filter `active` ('true' | 'false'). */
export const localsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['name', 'id']),
  active: z.enum(['true', 'false']).optional(),
});
export type LocalsQuery = z.infer<typeof localsQuerySchema>;

/** POST /api/locals body. */
export const createLocalRequestSchema = z.strictObject({
  name: z.string().trim().min(1, 'Ingrese el nombre del local').max(120),
  address: z.string().trim().min(1, 'Ingrese la dirección').max(250),
});
export type CreateLocalRequest = z.input<typeof createLocalRequestSchema>;
/** PATCH /api/locals/{id} body; `version` the version read (stale → 409). */
export const updateLocalRequestSchema = createLocalRequestSchema
  .extend({ version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);

export type UpdateLocalRequest = z.input<typeof updateLocalRequestSchema>;

/** GET /api/locals answer. */
export const localsPageSchema = pagedResponseSchema(localRecordSchema);
/** One local answer. */
export const localResponseSchema = dataResponseSchema(localRecordSchema);
