import { z } from 'zod';
import { documentNumberError } from '../documents';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { createCustomerRequestSchema, staffOptionSchema } from './customers';

/**
 * Leads of the CRM (CRM → LEADS; docs/domain.md "CRM", docs/decisions.md "Leads"): GET/POST
 * /api/leads, GET /api/leads/summary, GET /api/leads/duplicates, GET/PATCH /api/leads/{id},
 * GET/POST /api/leads/{id}/activities, POST /api/leads/{id}/merge, POST /api/leads/{id}/convert.
 * An agent sees and edits only the leads assigned to them unless they hold {@link
 * import('../permissions').ACTION}.supervisarLeads.
 */

/** POR_ATENDER → EN_ATENCION → CONCRETADO | NO_CONCRETADO (with reason). */
export const LEAD_STATUSES = ['POR_ATENDER', 'EN_ATENCION', 'CONCRETADO', 'NO_CONCRETADO'] as const;
export const leadStatusSchema = z.enum(LEAD_STATUSES, { error: 'Seleccione el estado' });
export type LeadStatus = z.infer<typeof leadStatusSchema>;
/** Open statuses: the lead still needs work (follow-ups can be overdue). */
export const OPEN_LEAD_STATUSES: readonly LeadStatus[] = ['POR_ATENDER', 'EN_ATENCION'];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  POR_ATENDER: 'Por atender',
  EN_ATENCION: 'En atención',
  CONCRETADO: 'Concretado',
  NO_CONCRETADO: 'No concretado',
};

/**
 * The status changes a user may make (docs/decisions.md "Leads"): a lead is attended or discarded;
 * an attended one is closed either way; a discarded one can be reopened. CONCRETADO is final and
 * needs a customer (the lead was converted); a reservation or sale of that customer sets it by itself.
 */
export const LEAD_TRANSITIONS: Record<LeadStatus, readonly LeadStatus[]> = {
  POR_ATENDER: ['EN_ATENCION', 'NO_CONCRETADO'],
  EN_ATENCION: ['CONCRETADO', 'NO_CONCRETADO'],
  NO_CONCRETADO: ['EN_ATENCION'],
  CONCRETADO: [],
};

/**
 * The statuses a lead may be moved to now ({@link LEAD_TRANSITIONS}; CONCRETADO only once it has a
 * customer): the panel's status buttons, the board's drop targets and its "Mover a…" menu.
 */
export function leadMoves(lead: Pick<{ status: LeadStatus; customer: unknown }, 'status' | 'customer'>): LeadStatus[] {
  return LEAD_TRANSITIONS[lead.status].filter((s) => s !== 'CONCRETADO' || lead.customer !== null);
}

/**
 * Where a lead came from: the issue's list (Facebook, Instagram, TikTok, WhatsApp, web, referido,
 * feria, valla, walk-in) joined with docs/domain.md "Catalogues" (landing, caseta, otro).
 */
export const LEAD_CHANNELS = [
  'FACEBOOK',
  'INSTAGRAM',
  'TIKTOK',
  'WHATSAPP',
  'WEB',
  'LANDING',
  'REFERIDO',
  'FERIA',
  'VALLA',
  'CASETA',
  'WALK_IN',
  'OTRO',
] as const;
export const leadChannelSchema = z.enum(LEAD_CHANNELS, { error: 'Seleccione el canal' });
export type LeadChannel = z.infer<typeof leadChannelSchema>;
export const LEAD_CHANNEL_LABELS: Record<LeadChannel, string> = {
  FACEBOOK: 'Facebook',
  INSTAGRAM: 'Instagram',
  TIKTOK: 'TikTok',
  WHATSAPP: 'WhatsApp',
  WEB: 'Web',
  LANDING: 'Landing page',
  REFERIDO: 'Referido',
  FERIA: 'Feria',
  VALLA: 'Valla',
  CASETA: 'Caseta de ventas',
  WALK_IN: 'Visita directa',
  OTRO: 'Otro',
};

/** Activity kinds of a lead's log. */
export const LEAD_ACTIVITY_KINDS = ['LLAMADA', 'WHATSAPP', 'VISITA', 'EMAIL', 'NOTA'] as const;
export const leadActivityKindSchema = z.enum(LEAD_ACTIVITY_KINDS, { error: 'Seleccione el tipo de actividad' });
export type LeadActivityKind = z.infer<typeof leadActivityKindSchema>;
export const LEAD_ACTIVITY_LABELS: Record<LeadActivityKind, string> = {
  LLAMADA: 'Llamada',
  WHATSAPP: 'WhatsApp',
  VISITA: 'Visita al proyecto',
  EMAIL: 'Correo electrónico',
  NOTA: 'Nota',
};

/** At most this many activities are kept per lead (a bound on work per request; the oldest stay, new ones are refused). */
export const MAX_LEAD_ACTIVITIES = 500;

export const LEAD_MESSAGES = {
  contactRequired: 'Ingrese un teléfono o un correo electrónico',
  invalidPhone: 'Ingrese un teléfono válido (celular de 9 dígitos, fijo con código o número internacional con +)',
  documentTypeRequired: 'Seleccione el tipo de documento',
  duplicate: 'Ya existe un lead con el mismo teléfono o documento',
  transition: 'Ese cambio de estado no está permitido',
  reasonRequired: 'Indique el motivo por el que no se concretó',
  needsCustomer: 'Convierta el lead en cliente antes de marcarlo como concretado',
  unknownSubdivision: 'La lotización no existe',
  unknownAgent: 'El asesor no existe o está inactivo',
  onlySupervisorAssigns: 'Solo un supervisor de leads puede asignar leads a otro asesor',
  notYours: 'El lead está asignado a otro asesor',
  futureActivity: 'La actividad no puede ser futura',
  tooManyActivities: `El lead alcanzó el máximo de ${MAX_LEAD_ACTIVITIES} actividades`,
  alreadyConverted: 'El lead ya fue convertido en cliente',
  unknownCustomer: 'El cliente no existe',
  mergeSelf: 'No se puede fusionar un lead consigo mismo',
  assignedTitle: 'Nuevo lead asignado',
  converted: 'Lead convertido en cliente',
  merged: 'Datos fusionados en el lead existente',
  importMissing: 'Adjunte el archivo de leads (CSV o XLSX)',
  importTooLarge: 'El archivo supera el máximo de 5 MB',
  importFormat: 'Formato de archivo no reconocido: use CSV o XLSX',
  importDamaged: 'El archivo está dañado y no se puede leer',
  importEmpty: 'El archivo no tiene filas de leads',
  importTooManyRows: 'El archivo tiene más de 2 000 filas: divídalo en archivos más pequeños',
  importNoName: 'Falta una columna de nombre (full_name o nombre)',
  importNoContact: 'Falta una columna de teléfono (phone_number) o de correo (email)',
  importHasErrors: 'El archivo tiene errores: corríjalos y vuelva a comprobarlo',
  importedTitle: 'Leads importados asignados',
  importOtherAgent: 'El teléfono o documento ya es de un lead de otro asesor: se omite',
} as const;

/**
 * A phone as stored and compared for duplicates: a Peruvian mobile as its 9 digits ("+51 987 654
 * 321", "p:+51987654321" as Meta's exports write it → "987654321"), a landline with its area code
 * ("01 440-5566" → "014405566"), anything else international as "+" and 8–15 digits (E.164).
 * @returns null when the text is none of these.
 */
export function normalizePhone(raw: string): string | null {
  const text = raw.trim().replace(/^p:/i, '');
  const digits = text.replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(digits)) return null;
  const bare = digits.replace(/^\+/, '');
  if (/^(51)?9\d{8}$/.test(bare) && (bare.length === 9 || digits.startsWith('+') || bare.length === 11)) return bare.slice(-9);
  if (/^0\d{7,8}$/.test(bare) && !digits.startsWith('+')) return bare;
  if (/^51\d{8}$/.test(bare)) return `0${bare.slice(2)}`;
  if (digits.startsWith('+') && /^\d{8,15}$/.test(bare)) return `+${bare}`;
  return null;
}

const partySchema = z.object({ id: z.number().int(), display_name: z.string() });

/** A lead as every route answers it. Instants are ISO 8601 with offset. */
export const leadSchema = z.object({
  id: z.number().int(),
  /** Full name as the lead gave it. */
  name: z.string(),
  /** Normalised ({@link normalizePhone}). */
  phone: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  /** SUNAT catalogue 06 code, with `document_number`; both null when unknown. */
  id_document_type: z.string().nullable().default(null),
  document_number: z.string().nullable().default(null),
  /** A {@link LEAD_CHANNELS} code; another server's new code is shown as is. */
  channel: z.string(),
  campaign: z.string().nullable().default(null),
  notes: z.string().nullable().default(null),
  /** Subdivisions of interest. */
  subdivisions: z
    .array(z.object({ id: z.number().int(), name: z.string() }))
    .catch([])
    .default([]),
  agent: staffOptionSchema.nullable().catch(null).default(null),
  status: leadStatusSchema,
  lost_reason: z.string().nullable().default(null),
  next_follow_up_at: z.string().nullable().default(null),
  /** Open and its follow-up is past. */
  overdue: z.boolean().default(false),
  /** The customer it was converted into. */
  customer: partySchema.nullable().catch(null).default(null),
  last_activity_at: z.string().nullable().default(null),
  /** When the lead arrived (an import's `created_time`; else its creation). */
  received_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  version: versionInAnswerSchema,
});
export type Lead = z.infer<typeof leadSchema>;

/** One entry of a lead's activity log. */
export const leadActivitySchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  outcome: z.string(),
  occurred_at: z.string(),
  user: staffOptionSchema.nullable().catch(null).default(null),
});
export type LeadActivity = z.infer<typeof leadActivitySchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Máximo ${max} caracteres`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/** A phone field: '' → null; otherwise {@link normalizePhone}d or refused. */
export const leadPhoneSchema = z
  .string()
  .max(40, LEAD_MESSAGES.invalidPhone)
  .transform((v, ctx) => {
    if (v.trim() === '') return null;
    const phone = normalizePhone(v);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: LEAD_MESSAGES.invalidPhone });
      return z.NEVER;
    }
    return phone;
  })
  .nullable()
  .optional();

const instantSchema = z.iso.datetime({ offset: true, error: 'Fecha y hora inválidas' });

/** Fields of a lead a request may send (create, update, merge). */
const leadFields = {
  name: z.string().trim().min(1, 'Ingrese el nombre').max(150, 'Máximo 150 caracteres'),
  phone: leadPhoneSchema,
  email: z
    .email({ error: 'Ingrese un correo electrónico válido' })
    .max(120)
    .or(z.literal('').transform(() => null))
    .nullable()
    .optional(),
  id_document_type: z
    .enum(['1', '4', '6', '7'], { error: 'Seleccione un tipo de documento válido' })
    .or(z.literal('').transform(() => null))
    .nullable()
    .optional(),
  document_number: optionalText(20),
  channel: leadChannelSchema,
  campaign: optionalText(150),
  notes: optionalText(1000),
  /** Subdivisions of interest (ids). */
  subdivision_ids: z.array(z.number().int().positive()).max(20, 'Máximo 20 lotizaciones').optional(),
  /** Staff user; defaults to the caller. Only a supervisor assigns someone else. */
  agent_id: z.number().int().positive().nullable().optional(),
  next_follow_up_at: instantSchema.nullable().optional(),
};

/** The rules between a lead's fields, for a full record (create) or the merged record of an update. */
export function leadRuleErrors(value: {
  phone?: string | null;
  email?: string | null;
  id_document_type?: string | null;
  document_number?: string | null;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!value.phone && !value.email) errors.phone = LEAD_MESSAGES.contactRequired;
  if (value.document_number) {
    if (!value.id_document_type) errors.id_document_type = LEAD_MESSAGES.documentTypeRequired;
    else {
      const docError = documentNumberError(value.id_document_type, value.document_number);
      if (docError) errors.document_number = docError;
    }
  }
  return errors;
}

const withLeadRules = <T extends Parameters<typeof leadRuleErrors>[0]>(value: T, ctx: z.RefinementCtx) => {
  for (const [path, message] of Object.entries(leadRuleErrors(value))) ctx.addIssue({ code: 'custom', path: [path], message });
};

/**
 * POST /api/leads body. Rules: {@link leadRuleErrors}. The server adds: subdivisions exist, the
 * agent is active staff (and someone else only for a supervisor), and no other lead has the same
 * phone or document unless `on_duplicate` is 'KEEP' (else 409 {@link LEAD_MESSAGES}.duplicate:
 * the form offers to merge into one of GET /api/leads/duplicates or keep both).
 */
export const createLeadRequestSchema = z
  .strictObject({ ...leadFields, on_duplicate: z.enum(['KEEP']).optional() })
  .superRefine(withLeadRules);
export type CreateLeadRequest = z.input<typeof createLeadRequestSchema>;

/**
 * PATCH /api/leads/{id} body: any subset of the fields, `status` (a {@link LEAD_TRANSITIONS} step),
 * `lost_reason` (required for NO_CONCRETADO) and `version` (stale → 409).
 */
export const updateLeadRequestSchema = z
  .strictObject({
    ...leadFields,
    status: leadStatusSchema,
    lost_reason: optionalText(300),
    version: recordVersionSchema,
  })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateLeadRequest = z.input<typeof updateLeadRequestSchema>;

/**
 * POST /api/leads/{id}/merge body: a new contact's data folded into this lead (blank fields
 * filled, subdivisions joined, the contact written to the activity log as a note).
 */
export const mergeLeadRequestSchema = z.strictObject(leadFields).superRefine(withLeadRules);
export type MergeLeadRequest = z.input<typeof mergeLeadRequestSchema>;

/**
 * POST /api/leads/{id}/activities body. `occurred_at` defaults to now (not in the future);
 * `next_follow_up_at` (optional) sets the lead's next follow-up. A POR_ATENDER lead becomes
 * EN_ATENCION.
 */
export const createLeadActivityRequestSchema = z.strictObject({
  kind: leadActivityKindSchema,
  outcome: z.string().trim().min(1, 'Describa el resultado').max(1000, 'Máximo 1000 caracteres'),
  occurred_at: instantSchema.optional(),
  next_follow_up_at: instantSchema.nullable().optional(),
});
export type CreateLeadActivityRequest = z.input<typeof createLeadActivityRequestSchema>;

/**
 * POST /api/leads/{id}/convert body: link an existing customer (`customer_id`) or create one
 * (`customer`, the body of POST /api/customers) and link it. A POR_ATENDER lead becomes
 * EN_ATENCION. `version` is the lead's.
 */
export const convertLeadRequestSchema = z.union([
  z.strictObject({ customer_id: z.number().int().positive(), version: recordVersionSchema.optional() }),
  z.strictObject({ customer: createCustomerRequestSchema, version: recordVersionSchema.optional() }),
]);
export type ConvertLeadRequest = z.input<typeof convertLeadRequestSchema>;

const leadFilters = {
  status: leadStatusSchema.optional(),
  channel: leadChannelSchema.optional(),
  agent_id: z.coerce.number().int().positive().optional(),
  subdivision_id: z.coerce.number().int().positive().optional(),
  /** The customer the lead became (the customer's detail in Clientes lists their leads). */
  customer_id: z.coerce.number().int().positive().optional(),
  /** 'true': only the caller's leads ("Mis leads"). */
  mine: z.enum(['true', 'false']).optional(),
  /** 'true': open leads whose follow-up is past. */
  overdue: z.enum(['true', 'false']).optional(),
};

/** GET /api/leads query: `q` (name, phone, e-mail, document, campaign) and the filters; sorted by arrival, follow-up or name. */
export const leadsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['received_at', 'next_follow_up_at', 'name', 'updated_at']),
  ...leadFilters,
});
export type LeadsQuery = z.infer<typeof leadsQuerySchema>;

/** GET /api/leads/summary query: the list's filters but status and paging. */
export const leadsSummaryQuerySchema = z.strictObject({
  q: listQueryShape.q,
  channel: leadFilters.channel,
  agent_id: leadFilters.agent_id,
  subdivision_id: leadFilters.subdivision_id,
  mine: leadFilters.mine,
});
export type LeadsSummaryQuery = z.infer<typeof leadsSummaryQuerySchema>;

/** GET /api/leads/summary answer: leads per status and the overdue ones, under the filters. */
export const leadsSummaryResponseSchema = z.object({
  data: z.object({
    counts: z.record(z.string(), z.number().int()).catch({}),
    overdue: z.number().int().default(0),
  }),
});
export type LeadsSummary = z.infer<typeof leadsSummaryResponseSchema>['data'];

/** GET /api/leads/duplicates query: a phone (normalised like the field) and/or a document number. */
export const leadDuplicatesQuerySchema = z
  .strictObject({
    phone: z.string().max(40).optional(),
    document_number: z.string().trim().max(20).optional(),
    /** A lead to leave out (the one being edited). */
    except_id: z.coerce.number().int().positive().optional(),
  })
  .refine((q) => Boolean(q.phone?.trim() || q.document_number), { message: 'Indique un teléfono o un documento', path: ['phone'] });
export type LeadDuplicatesQuery = z.infer<typeof leadDuplicatesQuerySchema>;

/** The most duplicates one answer lists. */
export const MAX_LEAD_DUPLICATES = 5;

export const leadsPageSchema = pagedResponseSchema(leadSchema);
export const leadResponseSchema = dataResponseSchema(leadSchema);
/** GET /api/leads/duplicates answer (at most {@link MAX_LEAD_DUPLICATES}; any agent's, name and status only for others'). */
export const leadDuplicatesResponseSchema = z.object({ data: z.array(leadSchema) });
export const leadActivitiesResponseSchema = z.object({ data: z.array(leadActivitySchema) });
export const leadActivityResponseSchema = dataResponseSchema(leadActivitySchema);

// ——— Import (CSV/XLSX, e.g. a Meta lead-ads export) ———

/** Rows one lead file may hold (a bound on the work of one request; split bigger files). */
export const MAX_LEAD_IMPORT_ROWS = 2_000;
/** Most bytes of a lead file. */
export const LEAD_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Rows of the preview answer (the counts cover the whole file). */
export const LEAD_IMPORT_PREVIEW_ROWS = 100;

/** What to do with a row whose phone or document is an existing lead's: fold it into that lead, or create another. */
export const LEAD_IMPORT_DUPLICATE_MODES = ['MERGE', 'KEEP'] as const;
export type LeadImportDuplicateMode = (typeof LEAD_IMPORT_DUPLICATE_MODES)[number];

/**
 * The text fields sent with the file (multipart) to both import calls: the channel of rows
 * without one, the agent of every row (a supervisor's choice; others get their own), and what to
 * do with duplicates.
 */
export const leadImportOptionsSchema = z.strictObject({
  channel: leadChannelSchema.default('FACEBOOK'),
  agent_id: z.coerce.number().int().positive().optional(),
  duplicates: z.enum(LEAD_IMPORT_DUPLICATE_MODES).default('MERGE'),
});
/** The options as the web app sends them (text fields of the multipart). */
export interface LeadImportOptions {
  channel?: LeadChannel;
  agent_id?: number;
  duplicates?: LeadImportDuplicateMode;
}

/** One problem of a lead file: an ERROR stops the import, a WARNING is shown and the row goes in as said. */
export const leadImportIssueSchema = z.object({
  severity: z.enum(['ERROR', 'WARNING']).catch('ERROR'),
  /** 1-based row of the file (the header is row 1); null for the whole file. */
  row: z.number().int().nullable().default(null),
  field: z.string().nullable().default(null),
  message: z.string(),
});
export type LeadImportIssue = z.infer<typeof leadImportIssueSchema>;

/** A row of the preview as it would be stored. */
export const leadImportRowSchema = z.object({
  row: z.number().int(),
  name: z.string(),
  phone: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  channel: z.string(),
  campaign: z.string().nullable().default(null),
  received_at: z.string().nullable().default(null),
  /**
   * NUEVO: a new lead; FUSIONAR: folded into `duplicate_of` (a lead within the caller's scope);
   * REPETIDO: the same contact as an earlier row (skipped); OTRO_ASESOR: the contact is only
   * another agent's lead (skipped; which lead is not said); ERROR: see the issues.
   */
  action: z.string(),
  duplicate_of: z.object({ id: z.number().int(), name: z.string() }).nullable().catch(null).default(null),
});
export type LeadImportRow = z.infer<typeof leadImportRowSchema>;

/** POST /api/leads/imports/preview answer (nothing stored). */
export const leadImportPreviewResponseSchema = z.object({
  data: z.object({
    total: z.number().int(),
    /** Rows that would create a lead. */
    create: z.number().int().default(0),
    /** Rows that would be merged into an existing lead. */
    merge: z.number().int().default(0),
    /** Rows left out (repeated within the file, or another agent's contact: OTRO_ASESOR). */
    skip: z.number().int().default(0),
    errors: z.number().int().default(0),
    rows: z.array(leadImportRowSchema).catch([]),
    issues: z.array(leadImportIssueSchema).catch([]),
  }),
});
export type LeadImportPreview = z.infer<typeof leadImportPreviewResponseSchema>['data'];

/** POST /api/leads/imports answer: what was stored, in one transaction. */
export const leadImportResultResponseSchema = z.object({
  data: z.object({ created: z.number().int(), merged: z.number().int().default(0), skipped: z.number().int().default(0) }),
});
export type LeadImportResult = z.infer<typeof leadImportResultResponseSchema>['data'];
