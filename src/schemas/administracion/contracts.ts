import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema } from '../versions';
import { CONTRACT_KINDS, CONTRACT_VARIABLES_BY_KEY, contractKindSchema, variableValueSchema } from './contract-templates';

/**
 * Contracts (Administración → Generar Contrato and Registro de Contratos; docs/domain.md
 * "Contracts"): the document of a sale made from a PUBLICADA template version, BORRADOR while its
 * missing data is supplied, EMITIDO with its number (C-YYYY-NNNNNN, per company and year, gapless)
 * and its PDF stored as issued, FIRMADO once the signed scan is uploaded, then RESUELTO
 * (rescission) or ANULADO (reason). Requests are strict; answers are read tolerantly
 * (docs/contracts.md).
 */

/** States of a contract. */
export const CONTRACT_STATES = ['BORRADOR', 'EMITIDO', 'FIRMADO', 'RESUELTO', 'ANULADO'] as const;
export const contractStateSchema = z.enum(CONTRACT_STATES, { error: 'Estado no válido' });
export type ContractState = z.infer<typeof contractStateSchema>;

/** Spanish labels of the states. */
export const CONTRACT_STATE_LABELS: Record<ContractState, string> = {
  BORRADOR: 'Borrador',
  EMITIDO: 'Emitido',
  FIRMADO: 'Firmado',
  RESUELTO: 'Resuelto',
  ANULADO: 'Anulado',
};

/** The signed scan: PDF, JPEG or PNG (sniffed by their first bytes), at most this many bytes. */
export const SIGNED_SCAN_MAX_BYTES = 10 * 1024 * 1024;
/** Longest text a user may supply for one variable. */
export const CONTRACT_OVERRIDE_MAX_LENGTH = 2000;

/** Spanish messages of the contracts (409 conflicts, 422 per field). */
export const CONTRACT_MESSAGES = {
  saleRequired: 'Seleccione la venta',
  saleNotFound: 'La venta no existe',
  saleAnnulled: 'La venta está anulada: no se genera su contrato',
  templateNotFound: 'La plantilla no existe',
  templateNotPublished: 'Solo una plantilla publicada genera contratos: publique la plantilla primero',
  templateOtherSubdivision: 'La plantilla es de otra lotización',
  templateWrongKind: 'La plantilla no es del tipo de contrato de esta venta',
  noPublishedTemplate: 'La lotización no tiene una plantilla publicada para este tipo de contrato',
  duplicate: 'La venta ya tiene un contrato de este tipo vigente',
  onlyDraftEditable: 'Solo un contrato en borrador se corrige',
  onlyDraftIssues: 'Solo un contrato en borrador se emite',
  missingValues: (labels: readonly string[]) => `Faltan datos para emitir el contrato: ${labels.join(', ')}`,
  unknownVariable: (key: string) => `Variable desconocida: «${key}»`,
  overrideTooLong: `Cada dato admite como máximo ${CONTRACT_OVERRIDE_MAX_LENGTH} caracteres`,
  scanOnlyIssued: 'Solo un contrato emitido recibe el escaneo firmado',
  scanMissing: 'Adjunte el contrato firmado (PDF, JPEG o PNG)',
  scanTooLarge: 'El contrato firmado supera los 10 MB',
  scanNotDocument: 'El archivo no es un PDF ni una imagen JPEG o PNG',
  noScan: 'El contrato no tiene escaneo firmado',
  noPdf: 'El contrato aún no se emitió',
  notAnnullable: 'Un contrato firmado, resuelto o anulado no se anula',
  reasonRequired: 'Indique el motivo de la anulación',
  notResolvable: 'Solo un contrato emitido o firmado se resuelve',
} as const;

/** POST /api/contracts: the contract of a sale; without `template_id`, the subdivision's latest PUBLICADA of the sale's kind. */
export const createContractRequestSchema = z.strictObject({
  sale_id: z.number({ error: CONTRACT_MESSAGES.saleRequired }).int().positive(CONTRACT_MESSAGES.saleRequired),
  template_id: z.number({ error: CONTRACT_MESSAGES.templateNotFound }).int().positive(CONTRACT_MESSAGES.templateNotFound).optional(),
});
export type CreateContractRequest = z.input<typeof createContractRequestSchema>;

/**
 * PATCH /api/contracts/{id}: a BORRADOR's supplied or corrected values, catalogue key → text (null
 * or an empty text removes it, the resolved value is used again), with the version read.
 */
export const updateContractRequestSchema = z.strictObject({
  version: recordVersionSchema,
  overrides: z
    .record(z.string(), z.string().trim().max(CONTRACT_OVERRIDE_MAX_LENGTH, CONTRACT_MESSAGES.overrideTooLong).nullable())
    .superRefine((overrides, ctx) => {
      for (const key of Object.keys(overrides))
        if (!CONTRACT_VARIABLES_BY_KEY.has(key))
          ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.unknownVariable(key), path: [key] });
    }),
});
export type UpdateContractRequest = z.input<typeof updateContractRequestSchema>;

/** POST /api/contracts/{id}/issue: the version read. */
export const issueContractRequestSchema = z.strictObject({ version: recordVersionSchema });
export type IssueContractRequest = z.input<typeof issueContractRequestSchema>;

/** POST /api/contracts/{id}/annul: the version read and the reason. */
export const annulContractRequestSchema = z.strictObject({
  version: recordVersionSchema,
  reason: z.string({ error: CONTRACT_MESSAGES.reasonRequired }).trim().min(3, CONTRACT_MESSAGES.reasonRequired).max(500),
});
export type AnnulContractRequest = z.input<typeof annulContractRequestSchema>;

/**
 * GET /api/contracts query (Registro de Contratos): by state, kind, subdivision, the sale's agent,
 * the issue date range (Lima, inclusive), `overdue=true` (EMITIDO past the signature days without
 * the scan); `q` over the contract number, sale number, lot code and the sale's buyers (any
 * holder's name or document, as the sales list's `q`).
 */
export const contractsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['number', 'issued_at', 'created_at', 'state']),
  state: contractStateSchema.optional(),
  kind: contractKindSchema.optional(),
  subdivision_id: z.coerce.number({ error: 'Lotización no válida' }).int().positive('Lotización no válida').optional(),
  agent_id: z.coerce.number({ error: 'Asesor no válido' }).int().positive('Asesor no válido').optional(),
  sale_id: z.coerce.number({ error: 'Venta no válida' }).int().positive('Venta no válida').optional(),
  issued_from: calendarDateSchema().optional(),
  issued_to: calendarDateSchema().optional(),
  overdue: z.enum(['true', 'false']).optional(),
});
export type ContractsQuery = z.infer<typeof contractsQuerySchema>;

const person = z.object({ id: z.number().int(), name: z.string() }).nullable().catch(null).default(null);

/**
 * A contract as the routes answer it. `signature_overdue`: EMITIDO for longer than the company's
 * `contract_signature_days` without the signed scan; `signature_due_on` the last day (Lima) of that
 * window. `overrides`: the values supplied by the user. `has_pdf`: issued (GET …/pdf serves it).
 */
export const contractSchema = z.object({
  id: z.number().int(),
  number: z.string().nullable().default(null),
  kind: z.string(),
  state: z.string(),
  sale: z.object({
    id: z.number().int(),
    number: z.string(),
    status: z.string().optional(),
    type: z.string().optional(),
    currency: z.string().optional(),
    final_price: z.number().int().optional(),
    titular: z.string().default(''),
    agent: person,
  }),
  lot: z.object({ id: z.number().int(), code: z.string(), subdivision_id: z.number().int(), subdivision_name: z.string() }),
  template: z.object({ id: z.number().int(), name: z.string(), version_number: z.number().int() }),
  overrides: z.record(z.string(), z.string()).catch({}).default({}),
  issued_at: z.string().nullable().default(null),
  issued_by: person,
  signed_at: z.string().nullable().default(null),
  signature_due_on: z.string().nullable().default(null),
  signature_overdue: z.boolean().default(false),
  has_pdf: z.boolean().default(false),
  signed_scan: z.object({ name: z.string(), content_type: z.string() }).nullable().catch(null).default(null),
  annul_reason: z.string().nullable().default(null),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  version: versionInAnswerSchema,
});
export type Contract = z.infer<typeof contractSchema>;

/** One state change of a contract. */
export const contractEventSchema = z.object({
  id: z.number().int(),
  from_state: z.string().nullable().default(null),
  to_state: z.string(),
  note: z.string().nullable().default(null),
  user: person,
  created_at: z.string(),
});
export type ContractEvent = z.infer<typeof contractEventSchema>;

/** GET /api/contracts/{id} (and the writes' answers): the contract with its history, oldest first. */
export const contractDetailSchema = contractSchema.extend({ events: z.array(contractEventSchema).catch([]).default([]) });
export type ContractDetail = z.infer<typeof contractDetailSchema>;
export const contractResponseSchema = dataResponseSchema(contractDetailSchema);
export const contractsPageSchema = pagedResponseSchema(contractSchema);

/**
 * GET /api/contracts/{id}/preview: the template's document with every variable replaced by its
 * value (`doc`, the same node types as a template; a TABLE value as a `table` node, a LIST as a
 * `bulletList`, a missing value as a `variable` node left in place), the values by key, and the
 * keys the document uses whose value is missing (to be supplied with PATCH before issue). An
 * issued contract answers its stored document and values, `missing` empty.
 */
export const contractPreviewSchema = z.object({
  doc: z.unknown(),
  // (The record, not each value, falls back: a `.catch` inside a record's values breaks the OpenAPI
  // description — @fastify/swagger walks `additionalProperties` as a map.)
  values: z.record(z.string(), variableValueSchema.nullable()).catch({}),
  missing: z.array(z.object({ key: z.string(), label: z.string() })).default([]),
});
export type ContractPreview = z.infer<typeof contractPreviewSchema>;
export const contractPreviewResponseSchema = dataResponseSchema(contractPreviewSchema);

/** The kinds a sale's contract takes by the sale's type: CONTADO → COMPRAVENTA_CONTADO, FINANCIADO → COMPRAVENTA_PLAZOS. */
export function saleContractKind(saleType: string): (typeof CONTRACT_KINDS)[number] {
  return saleType === 'CONTADO' ? 'COMPRAVENTA_CONTADO' : 'COMPRAVENTA_PLAZOS';
}
