import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { documentNumberError } from '../documents';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';

/**
 * Customers of the CRM (CRM → Clientes; docs/domain.md "CRM"): GET/POST /api/customers,
 * GET/PATCH/DELETE /api/customers/{id}, POST /api/customers/{id}/send-password-reset, and the
 * staff picker GET /api/staff-options. The same rows are the customer portal's accounts
 * (self-registration, spec call 1): `portal_user` says whether one has a password
 * (docs/decisions.md "CRM customers and portal accounts: one table").
 */

/** NATURAL (a person) or JURIDICA (a company, RUC starting with 20). */
export const PERSON_TYPES = ['NATURAL', 'JURIDICA'] as const;
export const personTypeSchema = z.enum(PERSON_TYPES, { error: 'Seleccione el tipo de persona' });
export type PersonType = z.infer<typeof personTypeSchema>;

/** Marital status (docs/domain.md "Catalogues"). */
export const MARITAL_STATUSES = ['SOLTERO', 'CASADO', 'VIUDO', 'DIVORCIADO', 'CONVIVIENTE'] as const;
export const maritalStatusSchema = z.enum(MARITAL_STATUSES, { error: 'Seleccione el estado civil' });
export type MaritalStatus = z.infer<typeof maritalStatusSchema>;
/** The statuses with a spouse or partner (co-holder of a sale under sociedad de gananciales, Civil Code art. 301/326). */
export const STATUSES_WITH_SPOUSE: readonly MaritalStatus[] = ['CASADO', 'CONVIVIENTE'];

/**
 * Property regime of a married customer (Código Civil art. 295; migration 0041): the contracts name
 * it beside the marital status ("bajo el régimen de sociedad de gananciales").
 */
export const PROPERTY_REGIMES = ['SOCIEDAD_GANANCIALES', 'SEPARACION_PATRIMONIOS'] as const;
export const propertyRegimeSchema = z.enum(PROPERTY_REGIMES, { error: 'Seleccione el régimen patrimonial' });
export type PropertyRegime = z.infer<typeof propertyRegimeSchema>;
export const PROPERTY_REGIME_LABELS: Record<PropertyRegime, string> = {
  SOCIEDAD_GANANCIALES: 'Sociedad de gananciales',
  SEPARACION_PATRIMONIOS: 'Separación de patrimonios',
};

/** Spanish labels of the codes (the UI shows these; the wire carries the codes). */
export const PERSON_TYPE_LABELS: Record<PersonType, string> = { NATURAL: 'Persona natural', JURIDICA: 'Persona jurídica' };
export const MARITAL_STATUS_LABELS: Record<MaritalStatus, string> = {
  SOLTERO: 'Soltero(a)',
  CASADO: 'Casado(a)',
  VIUDO: 'Viudo(a)',
  DIVORCIADO: 'Divorciado(a)',
  CONVIVIENTE: 'Conviviente',
};

/** Messages of the customer rules, shared by the schema and the server. */
export const CUSTOMER_MESSAGES = {
  juridicaNeedsRuc: 'Una persona jurídica se identifica con RUC que empieza con 20',
  naturalRuc: 'El RUC de una persona natural empieza con 10',
  surnameRequired: 'Ingrese los apellidos',
  representativeRequired: 'Ingrese el representante legal',
  spouseOnlyWhenMarried: 'Solo un cliente casado o conviviente registra cónyuge',
  regimeOnlyWhenMarried: 'Solo un cliente casado registra régimen patrimonial',
  unknownUbigeo: 'Seleccione un distrito de la lista',
  duplicateDocument: 'El documento ya está registrado',
  duplicateEmail: 'El correo electrónico ya está registrado',
  unknownSpouse: 'El cónyuge no existe',
  spouseIsSelf: 'Un cliente no puede ser su propio cónyuge',
  spouseNotNatural: 'El cónyuge debe ser una persona natural',
  unknownStaff: 'El colaborador no existe o está inactivo',
  futureBirthday: 'La fecha de nacimiento no puede ser futura',
  portalUserDelete: 'El cliente tiene usuario del portal: desactívelo en lugar de eliminarlo',
  noEmailForReset: 'El cliente no tiene correo electrónico',
  inactiveReset: 'No se puede enviar el enlace a un cliente inactivo',
  resetSent: 'Se envió al cliente el enlace para crear su contraseña',
  /** 403 to a caller with 'Solo sus clientes' on a customer of another asesor (docs/security.md 31.11). */
  notYours: 'El cliente está asignado a otro asesor',
  /** 422 on agent_id: a caller with 'Solo sus clientes' assigns customers only to themselves. */
  onlyOwnAgent: 'Solo puede registrar clientes con usted como asesor',
} as const;

/** A staff user as pickers show them (agent, collector). */
export const staffOptionSchema = z.object({ id: z.number().int(), name: z.string(), surname: z.string() });
export type StaffOption = z.infer<typeof staffOptionSchema>;

/** A customer as every customers route answers it (never a password or hash). */
export const customerSchema = z.object({
  id: z.number().int(),
  person_type: personTypeSchema,
  /** SUNAT catalogue 06 code (src/schemas/documents.ts). */
  id_document_type: z.string(),
  document_number: z.string(),
  /** Names (NATURAL) or business name, razón social (JURIDICA). */
  name: z.string(),
  /** Surnames (NATURAL); null for JURIDICA. */
  surname: z.string().nullable(),
  /** "Names Surnames" or the business name. */
  display_name: z.string(),
  legal_representative: z.string().nullable().default(null),
  /** ISO date YYYY-MM-DD. */
  birthday_date: z.string().nullable().default(null),
  marital_status: maritalStatusSchema.nullable().catch(null).default(null),
  /** A married customer's property regime (Código Civil art. 295); null otherwise or not recorded. */
  property_regime: propertyRegimeSchema.nullable().catch(null).default(null),
  spouse: z.object({ id: z.number().int(), display_name: z.string() }).nullable().default(null),
  email: z.string().nullable().default(null),
  phone: z.string().nullable().default(null),
  alternate_phone: z.string().nullable().default(null),
  address: z.string().nullable().default(null),
  /** INEI district code (6 digits), src/lib/ubigeo.ts. */
  ubigeo: z.string().nullable().default(null),
  agent: staffOptionSchema.nullable().default(null),
  collector: staffOptionSchema.nullable().default(null),
  status: z.enum(['ACTIVO', 'INACTIVO']),
  /** Whether the customer can sign in to the portal (has a password). */
  portal_user: z.boolean().default(false),
  created_at: z.string(),
  updated_at: z.string(),
  version: versionInAnswerSchema,
});
export type Customer = z.infer<typeof customerSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const phoneSchema = z
  .string()
  .trim()
  .regex(/^9\d{8}$/, 'El celular debe tener 9 dígitos y empezar con 9');

const staffIdSchema = z.number().int().positive().nullable().optional();

/** Fields of a customer a request may send (create and update). */
const customerFields = {
  person_type: personTypeSchema,
  id_document_type: z.enum(['1', '4', '6', '7'], { error: 'Seleccione un tipo de documento válido' }),
  document_number: z.string().trim().min(1, 'Ingrese el número de documento').max(20),
  name: z.string().trim().min(1, 'Ingrese los nombres o la razón social').max(150),
  surname: optionalText(120),
  legal_representative: optionalText(150),
  birthday_date: calendarDateSchema().nullable().optional(),
  marital_status: maritalStatusSchema.nullable().optional(),
  /** Only with marital_status CASADO (422 otherwise). */
  property_regime: propertyRegimeSchema.nullable().optional(),
  spouse_id: z.number().int().positive().nullable().optional(),
  email: z
    .email({ error: 'Ingrese un correo electrónico válido' })
    .max(120)
    .or(z.literal('').transform(() => null))
    .nullable()
    .optional(),
  phone: phoneSchema,
  alternate_phone: phoneSchema
    .or(z.literal('').transform(() => null))
    .nullable()
    .optional(),
  address: optionalText(200),
  ubigeo: z
    .string()
    .regex(/^\d{6}$/, CUSTOMER_MESSAGES.unknownUbigeo)
    .or(z.literal('').transform(() => null))
    .nullable()
    .optional(),
  agent_id: staffIdSchema,
  collector_id: staffIdSchema,
};

/** The rules between fields, for a full record (create) or the merged record of an update. */
export interface CustomerRuleInput {
  person_type?: PersonType;
  id_document_type?: string;
  document_number?: string;
  surname?: string | null;
  legal_representative?: string | null;
  marital_status?: MaritalStatus | null;
  property_regime?: PropertyRegime | null;
  spouse_id?: number | null;
}

/**
 * Field errors of the rules between a customer's fields (docs/domain.md "CRM", "Catalogues"):
 * the document number fits its SUNAT type; JURIDICA is a RUC starting with 20 and has a legal
 * representative; NATURAL has surnames and, with a RUC, one starting with 10; only CASADO or
 * CONVIVIENTE carry a spouse; only CASADO a property regime.
 * @returns `{ field: message }`, empty when the record keeps every rule.
 */
export function customerRuleErrors(value: CustomerRuleInput): Record<string, string> {
  const errors: Record<string, string> = {};
  if (value.id_document_type !== undefined && value.document_number !== undefined) {
    const docError = documentNumberError(value.id_document_type, value.document_number);
    if (docError) errors.document_number = docError;
  }
  if (value.person_type === 'JURIDICA') {
    if (value.id_document_type !== '6' || !value.document_number?.startsWith('20')) {
      errors.id_document_type = CUSTOMER_MESSAGES.juridicaNeedsRuc;
    }
    if (!value.legal_representative) errors.legal_representative = CUSTOMER_MESSAGES.representativeRequired;
  } else if (value.person_type === 'NATURAL') {
    if (!value.surname) errors.surname = CUSTOMER_MESSAGES.surnameRequired;
    if (value.id_document_type === '6' && value.document_number && !value.document_number.startsWith('10') && !errors.document_number) {
      errors.document_number = CUSTOMER_MESSAGES.naturalRuc;
    }
  }
  if (value.spouse_id != null && !STATUSES_WITH_SPOUSE.includes(value.marital_status ?? 'SOLTERO')) {
    errors.spouse_id = CUSTOMER_MESSAGES.spouseOnlyWhenMarried;
  }
  if (value.property_regime != null && value.marital_status !== 'CASADO') {
    errors.property_regime = CUSTOMER_MESSAGES.regimeOnlyWhenMarried;
  }
  return errors;
}

/**
 * POST /api/customers body (staff create a customer; no password: the customer gets a portal login
 * by registering or by a link staff send, docs/decisions.md). Rules between fields:
 * {@link customerRuleErrors}. The server adds: document and e-mail unique, spouse an existing
 * NATURAL customer other than this one, agent and collector active staff users, ubigeo a district
 * of src/lib/ubigeo.ts, birthday not in the future (America/Lima).
 */
export const createCustomerRequestSchema = z.strictObject(customerFields).superRefine((value, ctx) => {
  for (const [path, message] of Object.entries(customerRuleErrors(value))) ctx.addIssue({ code: 'custom', path: [path], message });
});
export type CreateCustomerRequest = z.input<typeof createCustomerRequestSchema>;

/**
 * PATCH /api/customers/{id} body: any subset of the create fields plus `status` (INACTIVO ends the
 * customer's portal sessions) and `version` (stale → 409). The rules between fields are checked by
 * the server on the merged record.
 */
export const updateCustomerRequestSchema = z
  .strictObject({ ...customerFields, status: z.enum(['ACTIVO', 'INACTIVO']), version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateCustomerRequest = z.input<typeof updateCustomerRequestSchema>;

/**
 * GET /api/customers query: `q` searches names, business name, document, e-mail and phones;
 * filters `status`, `person_type`, `agent_id`, `collector_id`, `portal_user` ('true' | 'false').
 */
export const customersQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['name', 'surname', 'document_number', 'created_at']),
  status: z.enum(['ACTIVO', 'INACTIVO']).optional(),
  person_type: personTypeSchema.optional(),
  agent_id: z.coerce.number().int().positive().optional(),
  collector_id: z.coerce.number().int().positive().optional(),
  portal_user: z.enum(['true', 'false']).optional(),
});
export type CustomersQuery = z.infer<typeof customersQuerySchema>;

/** GET /api/customers answer. */
export const customersPageSchema = pagedResponseSchema(customerSchema);
/** GET/POST/PATCH on one customer answer. */
export const customerResponseSchema = dataResponseSchema(customerSchema);

/** GET /api/staff-options query: active staff users matching `q` (names, DNI), paged. */
export const staffOptionsQuerySchema = z.strictObject({ ...listQueryShape, sort: sortSchema(['surname', 'name']) });
export type StaffOptionsQuery = z.infer<typeof staffOptionsQuerySchema>;
/** GET /api/staff-options answer. */
export const staffOptionsPageSchema = pagedResponseSchema(staffOptionSchema);
