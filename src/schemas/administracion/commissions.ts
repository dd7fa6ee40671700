import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { LIMITS } from '../limits';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';

/**
 * Commissions (Administración → Comisiones y Pagos; docs/domain.md "Commissions"): the policies per
 * subdivision and role, each sale's commissions PROYECTADA → DEVENGADA → LIQUIDADA → PAGADA (or
 * ANULADA; REVERTIDA negative lines), the settlements BORRADOR → APROBADA → PAGADA and the agents'
 * settings (sales head, recibos por honorarios). Requests are strict; answers are read tolerantly
 * (docs/contracts.md). Money is integer céntimos plus `currency`; percents are basis points
 * (1 % = 100): src/lib/administracion/commission-amounts.ts.
 */

/** Who a policy pays: the selling agent, the agent's sales head, the agent who captured the buyer. */
export const COMMISSION_ROLES = ['ASESOR', 'JEFE_VENTAS', 'CAPTADOR'] as const;
export const commissionRoleSchema = z.enum(COMMISSION_ROLES, { error: 'Rol no válido' });
export type CommissionRole = z.infer<typeof commissionRoleSchema>;
export const COMMISSION_ROLE_LABELS: Record<CommissionRole, string> = {
  ASESOR: 'Asesor',
  JEFE_VENTAS: 'Jefe de ventas',
  CAPTADOR: 'Captador',
};

/** PORCENTAJE of the net price (price after discount) or a MONTO_FIJO in the subdivision's currency. */
export const COMMISSION_BASES = ['PORCENTAJE', 'MONTO_FIJO'] as const;
export const commissionBaseSchema = z.enum(COMMISSION_BASES, { error: 'Base no válida' });
export type CommissionBase = z.infer<typeof commissionBaseSchema>;
export const COMMISSION_BASE_LABELS: Record<CommissionBase, string> = {
  PORCENTAJE: 'Porcentaje del precio neto',
  MONTO_FIJO: 'Monto fijo',
};

/**
 * When a commission is earned: the down payment fully approved (the default), a percent of the
 * price collected (approved money), or the contract FIRMADO.
 */
export const COMMISSION_TRIGGERS = ['INICIAL_APROBADA', 'PORCENTAJE_COBRADO', 'CONTRATO_FIRMADO'] as const;
export const commissionTriggerSchema = z.enum(COMMISSION_TRIGGERS, { error: 'Disparador no válido' });
export type CommissionTrigger = z.infer<typeof commissionTriggerSchema>;
export const COMMISSION_TRIGGER_LABELS: Record<CommissionTrigger, string> = {
  INICIAL_APROBADA: 'Inicial aprobada',
  PORCENTAJE_COBRADO: 'Porcentaje cobrado',
  CONTRATO_FIRMADO: 'Contrato firmado',
};

/** A tranche is paid at the policy's trigger (TRIGGER) or when the sale is CANCELADA (fully paid). */
export const TRANCHE_MOMENTS = ['TRIGGER', 'CANCELADA'] as const;
export const trancheMomentSchema = z.enum(TRANCHE_MOMENTS, { error: 'Momento no válido' });
export type TrancheMoment = z.infer<typeof trancheMomentSchema>;
export const TRANCHE_MOMENT_LABELS: Record<TrancheMoment, string> = { TRIGGER: 'Al disparador', CANCELADA: 'Venta cancelada' };

/** A commission's states; REVERTIDA is the state of a negative line that takes back a paid one. */
export const COMMISSION_STATES = ['PROYECTADA', 'DEVENGADA', 'LIQUIDADA', 'PAGADA', 'ANULADA', 'REVERTIDA'] as const;
export const commissionStateSchema = z.enum(COMMISSION_STATES, { error: 'Estado no válido' });
export type CommissionState = z.infer<typeof commissionStateSchema>;
export const COMMISSION_STATE_LABELS: Record<CommissionState, string> = {
  PROYECTADA: 'Proyectada',
  DEVENGADA: 'Devengada',
  LIQUIDADA: 'Liquidada',
  PAGADA: 'Pagada',
  ANULADA: 'Anulada',
  REVERTIDA: 'Revertida',
};

/** A settlement's states. */
export const SETTLEMENT_STATES = ['BORRADOR', 'APROBADA', 'PAGADA'] as const;
export const settlementStateSchema = z.enum(SETTLEMENT_STATES, { error: 'Estado no válido' });
export type SettlementState = z.infer<typeof settlementStateSchema>;
export const SETTLEMENT_STATE_LABELS: Record<SettlementState, string> = { BORRADOR: 'Borrador', APROBADA: 'Aprobada', PAGADA: 'Pagada' };

/** Largest settlement voucher (PDF or image), bytes: 10 MB. */
export const SETTLEMENT_VOUCHER_MAX_BYTES = 10 * 1024 * 1024;
/** Most agents one settlement names. */
export const MAX_SETTLEMENT_AGENTS = 100;
/** Most commissions one settlement may name explicitly. */
export const MAX_SETTLEMENT_COMMISSIONS = 2_000;

/** Spanish messages (422 per field, 409 conflicts). */
export const COMMISSION_MESSAGES = {
  subdivisionUnknown: 'La lotización no existe',
  policyDuplicate: 'Esta lotización ya tiene una política para ese rol',
  percentRequired: 'Indique el porcentaje (en puntos básicos: 300 = 3 %)',
  amountRequired: 'Indique el monto fijo en céntimos',
  percentOnlyWithPercent: 'El porcentaje solo va con la base «Porcentaje del precio neto»',
  amountOnlyWithFixed: 'El monto solo va con la base «Monto fijo»',
  triggerPercentRequired: 'Indique el porcentaje cobrado que dispara la comisión (1 a 10 000 puntos básicos)',
  triggerPercentOnly: 'El porcentaje cobrado solo va con el disparador «Porcentaje cobrado»',
  tranchesSum: 'Los tramos deben sumar 100 % (10 000 puntos básicos)',
  tranchesTriggerFirst: 'El primer tramo se paga al disparador',
  agentUnknown: 'El asesor no existe o no es un usuario del personal',
  agentOtherCompany: (name: string) => `${name} no pertenece a la empresa de la liquidación`,
  headSelf: 'Un asesor no puede ser su propio jefe de ventas',
  headUnknown: 'El jefe de ventas no existe o está inactivo',
  headCycle: 'Ese jefe de ventas ya depende de este asesor',
  periodOrder: 'La fecha final no puede ser anterior a la inicial',
  noLines: 'No hay comisiones devengadas ni reversiones pendientes de esos asesores en el periodo',
  commissionUnknown: 'Alguna de las comisiones no existe',
  commissionNotSettleable: (id: number) => `La comisión ${id} no está devengada: no se puede liquidar`,
  commissionAlreadySettled: (id: number, number: string) => `La comisión ${id} ya está en la liquidación ${number}`,
  commissionOtherCurrency: (id: number) => `La comisión ${id} es de otra moneda`,
  commissionOtherAgent: (id: number) => `La comisión ${id} es de un asesor que no está en la liquidación`,
  raced: 'Otra liquidación tomó algunas de estas comisiones al mismo tiempo: vuelva a intentarlo',
  notDraft: 'Solo una liquidación en borrador se puede aprobar o eliminar',
  notApproved: 'Solo una liquidación aprobada se puede pagar o recibir su comprobante',
  voucherRequired: 'Adjunte el comprobante del pago antes de marcar la liquidación como pagada',
  voucherMissing: 'Adjunte el comprobante (PDF o imagen)',
  voucherTooLarge: 'El comprobante no puede superar 10 MB',
  voucherType: 'El comprobante debe ser un PDF o una imagen PNG, JPEG o WebP',
  noVoucher: 'La liquidación no tiene comprobante',
  paidBeforeApproval: 'La fecha de pago no puede ser anterior a la aprobación',
  paidInFuture: 'La fecha de pago no puede ser posterior a hoy',
  agentNotInSettlement: 'Ese asesor no está en la liquidación',
  otherAgent: 'Esa comisión es de otro asesor',
} as const;

const positiveId = (message: string) => z.number({ error: message }).int(message).positive(message);
const bp = (message: string) => z.number({ error: message }).int(message).min(1, message).max(10_000, message);

/** One tranche of a policy: its share of the commission (basis points) and when it is earned. */
export const trancheSchema = z.strictObject({
  share_bp: bp('Cada tramo es de 1 a 10 000 puntos básicos'),
  at: trancheMomentSchema,
});

/** The rules shared by create and update: base ↔ amount, trigger ↔ percent, tranches adding up. */
function checkPolicy(
  body: {
    base?: CommissionBase;
    percent_bp?: number | null;
    amount?: number | null;
    trigger?: CommissionTrigger;
    trigger_percent_bp?: number | null;
    tranches?: ReadonlyArray<{ share_bp: number; at: TrancheMoment }>;
  },
  ctx: z.RefinementCtx,
  complete: boolean,
) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (complete || body.base !== undefined) {
    if (body.base === 'PORCENTAJE') {
      if (body.percent_bp == null) issue('percent_bp', COMMISSION_MESSAGES.percentRequired);
      if (body.amount != null) issue('amount', COMMISSION_MESSAGES.amountOnlyWithFixed);
    } else if (body.base === 'MONTO_FIJO') {
      if (body.amount == null) issue('amount', COMMISSION_MESSAGES.amountRequired);
      if (body.percent_bp != null) issue('percent_bp', COMMISSION_MESSAGES.percentOnlyWithPercent);
    }
  }
  if (complete || body.trigger !== undefined) {
    if (body.trigger === 'PORCENTAJE_COBRADO' && body.trigger_percent_bp == null)
      issue('trigger_percent_bp', COMMISSION_MESSAGES.triggerPercentRequired);
    if (body.trigger !== undefined && body.trigger !== 'PORCENTAJE_COBRADO' && body.trigger_percent_bp != null)
      issue('trigger_percent_bp', COMMISSION_MESSAGES.triggerPercentOnly);
  }
  if (body.tranches !== undefined) {
    if (body.tranches.reduce((sum, t) => sum + t.share_bp, 0) !== 10_000) issue('tranches', COMMISSION_MESSAGES.tranchesSum);
    else if (body.tranches[0]?.at !== 'TRIGGER') issue('tranches', COMMISSION_MESSAGES.tranchesTriggerFirst);
  }
}

const policyFields = {
  base: commissionBaseSchema,
  /** PORCENTAJE: basis points of the net price (300 = 3 %). */
  percent_bp: bp('El porcentaje va de 1 a 10 000 puntos básicos').nullable().optional(),
  /** MONTO_FIJO: céntimos of the subdivision's currency. */
  amount: z
    .number({ error: 'Monto no válido' })
    .int('El monto va en céntimos')
    .min(1, 'El monto debe ser mayor que cero')
    .max(LIMITS.maxCents)
    .nullable()
    .optional(),
  trigger: commissionTriggerSchema,
  /** PORCENTAJE_COBRADO: the basis points of the price collected that earn it. */
  trigger_percent_bp: bp('El porcentaje cobrado va de 1 a 10 000 puntos básicos').nullable().optional(),
  tranches: z.array(trancheSchema, { error: 'Indique los tramos' }).min(1, 'Indique al menos un tramo').max(4, 'A lo más 4 tramos'),
  active: z.boolean().optional(),
};

/** POST /api/commission-policies body: one policy per subdivision and role. */
export const createCommissionPolicyRequestSchema = z
  .strictObject({
    subdivision_id: positiveId('Seleccione la lotización'),
    role: commissionRoleSchema,
    ...policyFields,
    trigger: commissionTriggerSchema.default('INICIAL_APROBADA'),
    tranches: policyFields.tranches.default([{ share_bp: 10_000, at: 'TRIGGER' }]),
  })
  .superRefine((body, ctx) => checkPolicy(body, ctx, true));
export type CreateCommissionPolicyRequest = z.input<typeof createCommissionPolicyRequestSchema>;

/** PATCH /api/commission-policies/{id} body (the version read; base and trigger sent with their figure). Applies to sales registered after it. */
export const updateCommissionPolicyRequestSchema = z
  .strictObject({
    version: recordVersionSchema,
    base: policyFields.base.optional(),
    percent_bp: policyFields.percent_bp,
    amount: policyFields.amount,
    trigger: policyFields.trigger.optional(),
    trigger_percent_bp: policyFields.trigger_percent_bp,
    tranches: policyFields.tranches.optional(),
    active: z.boolean().optional(),
  })
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options)
  .superRefine((body, ctx) => checkPolicy(body, ctx, false));
export type UpdateCommissionPolicyRequest = z.input<typeof updateCommissionPolicyRequestSchema>;

const idFilter = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).optional();

/** GET /api/commission-policies query. */
export const commissionPoliciesQuerySchema = z.strictObject({
  page: listQueryShape.page,
  per_page: listQueryShape.per_page,
  subdivision_id: idFilter('Lotización no válida'),
});
export type CommissionPoliciesQuery = z.infer<typeof commissionPoliciesQuerySchema>;

/** A policy as answered. */
export const commissionPolicySchema = z.object({
  id: z.number().int(),
  subdivision: z.object({ id: z.number().int(), name: z.string().default(''), currency: z.enum(['PEN', 'USD']).catch('PEN') }),
  role: commissionRoleSchema.catch('ASESOR'),
  base: commissionBaseSchema.catch('PORCENTAJE'),
  percent_bp: z.number().int().nullable().default(null),
  amount: z.number().int().nullable().default(null),
  trigger: commissionTriggerSchema.catch('INICIAL_APROBADA'),
  trigger_percent_bp: z.number().int().nullable().default(null),
  tranches: z.array(z.object({ share_bp: z.number().int(), at: trancheMomentSchema.catch('TRIGGER') })).catch([]),
  active: z.boolean().default(true),
  updated_at: z.string().default(''),
  version: versionInAnswerSchema,
});
export type CommissionPolicy = z.infer<typeof commissionPolicySchema>;
export const commissionPoliciesPageSchema = pagedResponseSchema(commissionPolicySchema);
export const commissionPolicyResponseSchema = dataResponseSchema(commissionPolicySchema);

const period = {
  period_from: calendarDateSchema('Fecha inicial no válida (AAAA-MM-DD)').optional(),
  period_to: calendarDateSchema('Fecha final no válida (AAAA-MM-DD)').optional(),
};

/**
 * GET /api/commissions query: `q` (sale number, lot code, agent), filters by state, agent, role,
 * subdivision, currency, settlement and period (the day it was earned, or projected while not yet).
 * An agent narrowed by 'Solo sus comisiones y las de su equipo' sees only theirs and their team's.
 */
export const commissionsQuerySchema = z
  .strictObject({
    ...listQueryShape,
    sort: sortSchema(['id', 'amount', 'accrued_on', 'projected_on', 'state']),
    state: commissionStateSchema.optional(),
    agent_id: idFilter('Asesor no válido'),
    role: commissionRoleSchema.optional(),
    subdivision_id: idFilter('Lotización no válida'),
    sale_id: idFilter('Venta no válida'),
    settlement_id: idFilter('Liquidación no válida'),
    currency: z.enum(['PEN', 'USD'], { error: 'Moneda no válida' }).optional(),
    ...period,
  })
  .refine((q) => !q.period_from || !q.period_to || q.period_from <= q.period_to, {
    path: ['period_to'],
    message: COMMISSION_MESSAGES.periodOrder,
  });
export type CommissionsQuery = z.infer<typeof commissionsQuerySchema>;

/** A commission (or a REVERTIDA line) as answered. */
export const commissionSchema = z.object({
  id: z.number().int(),
  sale: z.object({
    id: z.number().int(),
    number: z.string(),
    status: z.string().default(''),
    lot_code: z.string().default(''),
    subdivision_id: z.number().int(),
    subdivision_name: z.string().default(''),
    net_price: z.number().int().default(0),
  }),
  agent: z.object({ id: z.number().int(), name: z.string().default('') }),
  role: commissionRoleSchema.catch('ASESOR'),
  /** 1-based tranche of `tranche_count`; `tranche_at` when it is earned. */
  tranche: z.number().int().default(1),
  tranche_count: z.number().int().default(1),
  tranche_share_bp: z.number().int().default(10_000),
  tranche_at: trancheMomentSchema.catch('TRIGGER'),
  trigger: commissionTriggerSchema.catch('INICIAL_APROBADA'),
  trigger_percent_bp: z.number().int().nullable().default(null),
  base: commissionBaseSchema.catch('PORCENTAJE'),
  percent_bp: z.number().int().nullable().default(null),
  /** Céntimos of `currency`; negative on a REVERTIDA line. */
  amount: z.number().int(),
  currency: z.enum(['PEN', 'USD']).catch('PEN'),
  state: commissionStateSchema.catch('PROYECTADA'),
  /** The PAGADA (or LIQUIDADA) commission a REVERTIDA line takes back. */
  reverses_id: z.number().int().nullable().default(null),
  settlement: z
    .object({ id: z.number().int(), number: z.string(), state: z.string().default('') })
    .nullable()
    .catch(null)
    .default(null),
  projected_on: z.string(),
  accrued_on: z.string().nullable().default(null),
  paid_on: z.string().nullable().default(null),
  annulled_on: z.string().nullable().default(null),
  reason: z.string().nullable().default(null),
  version: versionInAnswerSchema,
});
export type Commission = z.infer<typeof commissionSchema>;
export const commissionsPageSchema = pagedResponseSchema(commissionSchema);

// ---- Agents' settings ----

/** GET /api/commission-agents query: `q` (name, DNI). */
export const commissionAgentsQuerySchema = z.strictObject({
  page: listQueryShape.page,
  per_page: listQueryShape.per_page,
  q: listQueryShape.q,
});
export type CommissionAgentsQuery = z.infer<typeof commissionAgentsQuerySchema>;

/** A staff user's commission settings: sales head (their team) and whether they issue recibos por honorarios. */
export const commissionAgentSchema = z.object({
  id: z.number().int(),
  name: z.string().default(''),
  dni: z.string().default(''),
  status: z.string().default('ACTIVO'),
  issues_fee_receipts: z.boolean().default(false),
  sales_head: z
    .object({ id: z.number().int(), name: z.string().default('') })
    .nullable()
    .catch(null)
    .default(null),
  version: versionInAnswerSchema,
});
export type CommissionAgent = z.infer<typeof commissionAgentSchema>;
export const commissionAgentsPageSchema = pagedResponseSchema(commissionAgentSchema);
export const commissionAgentResponseSchema = dataResponseSchema(commissionAgentSchema);

/** PATCH /api/commission-agents/{id} body. */
export const updateCommissionAgentRequestSchema = z
  .strictObject({
    version: recordVersionSchema,
    issues_fee_receipts: z.boolean().optional(),
    sales_head_id: positiveId('Jefe de ventas no válido').nullable().optional(),
  })
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateCommissionAgentRequest = z.input<typeof updateCommissionAgentRequestSchema>;

// ---- Settlements ----

/**
 * POST /api/commission-settlements body: the currency, the period (commissions earned in it, and
 * every pending REVERTIDA line up to its end) and the agents; optionally the exact DEVENGADA
 * commissions to take (else all of those agents in the period).
 */
export const createSettlementRequestSchema = z
  .strictObject({
    currency: z.enum(['PEN', 'USD'], { error: 'Moneda no válida' }).default('PEN'),
    period_from: calendarDateSchema('Fecha inicial no válida (AAAA-MM-DD)'),
    period_to: calendarDateSchema('Fecha final no válida (AAAA-MM-DD)'),
    agent_ids: z
      .array(positiveId('Asesor no válido'), { error: 'Seleccione los asesores' })
      .min(1, 'Seleccione al menos un asesor')
      .max(MAX_SETTLEMENT_AGENTS, `A lo más ${MAX_SETTLEMENT_AGENTS} asesores`),
    commission_ids: z.array(positiveId('Comisión no válida')).min(1).max(MAX_SETTLEMENT_COMMISSIONS).optional(),
    note: z.string().trim().max(500).nullable().optional(),
  })
  .refine((b) => b.period_from <= b.period_to, { path: ['period_to'], message: COMMISSION_MESSAGES.periodOrder });
export type CreateSettlementRequest = z.input<typeof createSettlementRequestSchema>;

/** POST /api/commission-settlements/{id}/approve body. */
export const approveSettlementRequestSchema = z.strictObject({ version: recordVersionSchema.optional() });
export type ApproveSettlementRequest = z.input<typeof approveSettlementRequestSchema>;

/** POST /api/commission-settlements/{id}/pay body: the bank operation number and the day it was paid (the voucher uploaded before). */
export const paySettlementRequestSchema = z.strictObject({
  version: recordVersionSchema.optional(),
  operation_number: z
    .string({ error: 'Indique el número de operación' })
    .trim()
    .min(1, 'Indique el número de operación')
    .max(40, 'A lo más 40 caracteres')
    .regex(/^[A-Za-z0-9-]+$/, 'El número de operación lleva letras, dígitos y guiones'),
  paid_on: calendarDateSchema('Fecha de pago no válida (AAAA-MM-DD)'),
});
export type PaySettlementRequest = z.input<typeof paySettlementRequestSchema>;

/** GET /api/commission-settlements query. */
export const settlementsQuerySchema = z.strictObject({
  page: listQueryShape.page,
  per_page: listQueryShape.per_page,
  sort: sortSchema(['id', 'created_at', 'total']),
  state: settlementStateSchema.optional(),
  currency: z.enum(['PEN', 'USD'], { error: 'Moneda no válida' }).optional(),
});
export type SettlementsQuery = z.infer<typeof settlementsQuerySchema>;

/** One agent's totals in a settlement (céntimos of the settlement's currency). */
export const settlementAgentSchema = z.object({
  agent: z.object({ id: z.number().int(), name: z.string().default('') }),
  issues_fee_receipts: z.boolean().default(false),
  lines: z.number().int().default(0),
  gross: z.number().int(),
  withholding: z.number().int().default(0),
  net: z.number().int(),
});
export type SettlementAgent = z.infer<typeof settlementAgentSchema>;

/** A settlement as listed. `number` "LQ-000012". */
export const settlementSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  state: settlementStateSchema.catch('BORRADOR'),
  currency: z.enum(['PEN', 'USD']).catch('PEN'),
  period_from: z.string(),
  period_to: z.string(),
  company: z
    .object({ id: z.number().int(), name: z.string().default('') })
    .nullable()
    .catch(null)
    .default(null),
  /** Σ the lines (gross), Σ withholdings, Σ net. */
  total: z.number().int(),
  withholding: z.number().int().default(0),
  net: z.number().int().default(0),
  agents_count: z.number().int().default(0),
  lines_count: z.number().int().default(0),
  note: z.string().nullable().default(null),
  approved_at: z.string().nullable().default(null),
  operation_number: z.string().nullable().default(null),
  paid_on: z.string().nullable().default(null),
  has_voucher: z.boolean().default(false),
  created_at: z.string(),
  version: versionInAnswerSchema,
});
export type Settlement = z.infer<typeof settlementSchema>;

/** A settlement with its agents' totals and its lines (GET one and every action). */
export const settlementDetailSchema = settlementSchema.extend({
  agents: z.array(settlementAgentSchema).catch([]).default([]),
  lines: z.array(commissionSchema).catch([]).default([]),
});
export type SettlementDetail = z.infer<typeof settlementDetailSchema>;
export const settlementsPageSchema = pagedResponseSchema(settlementSchema);
export const settlementResponseSchema = dataResponseSchema(settlementDetailSchema);

/** Settlement number as shown: "LQ-000012". */
export const settlementNumber = (id: number): string => `LQ-${String(id).padStart(6, '0')}`;
