import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { paymentTermsFields, paymentTermsRules } from './terms';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema } from '../versions';
import { LIMITS } from '../limits';
import { rescissionRecordSchema, saleAdendaSchema } from './rescissions';

/**
 * Sales, ventas (Comercial; DOMAIN.md "Sales cycle" → Sale): GET/POST /api/sales, GET
 * /api/sales/{id}, POST /api/sales/{id}/annul. A sale sells one lot to its holders (TITULAR,
 * CONYUGE, COPROPIETARIO with their shares) on the terms of a quote's plan
 * (src/lib/comercio/quote-plan.ts), crediting a live reservation of the lot when there is one;
 * creating it marks the lot VENDIDO in the same transaction (two sellers at once: one wins, the
 * other gets 409 "El lote ya no está disponible"). Its schedule is stored row by row (instalments).
 * Money in céntimos of the subdivision's currency; dates ISO `YYYY-MM-DD` (Lima).
 */

/**
 * REGISTRADA → INICIAL_PENDIENTE → EN_CUOTAS → CANCELADA (paid off); ANULADA with reason (frees the
 * lot); RESUELTA: the contract resolved for unpaid instalments (Código Civil art. 1561; frees the
 * lot; docs/domain.md "Rescission").
 */
export const SALE_STATUSES = ['REGISTRADA', 'INICIAL_PENDIENTE', 'EN_CUOTAS', 'CANCELADA', 'ANULADA', 'RESUELTA'] as const;
export const saleStatusSchema = z.enum(SALE_STATUSES);
export type SaleStatus = z.infer<typeof saleStatusSchema>;
export const SALE_STATUS_LABELS: Record<SaleStatus, string> = {
  REGISTRADA: 'Registrada',
  INICIAL_PENDIENTE: 'Inicial pendiente',
  EN_CUOTAS: 'En cuotas',
  CANCELADA: 'Cancelada',
  ANULADA: 'Anulada',
  RESUELTA: 'Resuelta',
};

/** Sales that ended without being paid off: they owe nothing, hold no lot and take no payment (ANULADA, RESUELTA). */
export const ENDED_SALE_STATUSES = ['ANULADA', 'RESUELTA'] as const satisfies readonly SaleStatus[];
/** Whether a sale in `status` ended without being paid off ({@link ENDED_SALE_STATUSES}). */
export const isEndedSale = (status: string): boolean => (ENDED_SALE_STATUSES as readonly string[]).includes(status);
/** Sales that still take money (a CANCELADA sale owes nothing; an ended one is gone). */
export const LIVE_SALE_STATUSES = ['REGISTRADA', 'INICIAL_PENDIENTE', 'EN_CUOTAS'] as const satisfies readonly SaleStatus[];

/** CONTADO: no instalments; FINANCIADO: a schedule of monthly instalments. */
export const SALE_TYPES = ['CONTADO', 'FINANCIADO'] as const;
export type SaleType = (typeof SALE_TYPES)[number];
export const SALE_TYPE_LABELS: Record<SaleType, string> = { CONTADO: 'Contado', FINANCIADO: 'Financiado' };

/** The buyers of a sale (Civil Code: a married buyer's spouse co-holds under sociedad de gananciales). */
export const HOLDER_ROLES = ['TITULAR', 'CONYUGE', 'COPROPIETARIO'] as const;
export type HolderRole = (typeof HOLDER_ROLES)[number];
export const HOLDER_ROLE_LABELS: Record<HolderRole, string> = { TITULAR: 'Titular', CONYUGE: 'Cónyuge', COPROPIETARIO: 'Copropietario' };

/** Rows of a sale's schedule: the down payment's parts and the monthly instalments. */
export const INSTALMENT_KINDS = ['INICIAL', 'CUOTA'] as const;
export type InstalmentKind = (typeof INSTALMENT_KINDS)[number];

export const SALE_MESSAGES = {
  /** 403 to a caller with 'Solo sus ventas' on a sale of another agent (docs/security.md 31.11). */
  notYours: 'La venta es de otro asesor',
  /** The issue's words, for the lost race and any lot not for sale. */
  lotUnavailable: 'El lote ya no está disponible',
  unknownLot: 'El lote no existe',
  unknownCustomer: 'Un comprador no existe o está inactivo',
  sharesSum: 'Las participaciones deben sumar 100 %',
  oneTitular: 'Indique un titular',
  repeatedHolder: 'Un cliente figura dos veces entre los compradores',
  guarantorIsHolder: 'El garante no puede ser comprador',
  reservationNotLive: 'La separación no está vigente',
  reservationOtherLot: 'La separación es de otro lote',
  reservationOtherCustomer: 'La separación es de un cliente que no figura entre los compradores',
  heldByOther: 'El lote está separado para otro cliente',
  creditTooHigh: 'El monto de la separación supera la cuota inicial',
  reservationUnpaid:
    'La separación de este lote aún no tiene su pago aprobado: apruebe el pago en Finanzas → Pagos o anule la separación antes de vender',
  futureSaleDate: 'La fecha de venta no puede ser futura',
  saleDateTooOld: 'La fecha de venta no puede ser anterior a',
  unknownQuote: 'La cotización no existe',
  quoteOtherLot: 'La cotización es de otro lote',
  quoteOtherCustomer: 'La cotización es de un cliente que no figura entre los compradores',
  quoteAnnulled: 'La cotización está anulada',
  unknownAgent: 'El asesor no existe o está inactivo',
  /** 403: crediting the sale to an agent other than the proposed one needs 'Supervisar leads'. */
  agentNotAllowed: 'Solo un usuario con el permiso «Supervisar leads» puede acreditar la venta a otro asesor',
  notAnnullable: 'La venta ya está anulada o cancelada',
  reasonRequired: 'Indique el motivo de la anulación',
  annulled: 'Venta anulada',
  settlementRequired: 'La venta tiene pagos aprobados: indique si se reembolsan o se acreditan a otra venta',
  nothingPaid: 'La venta no tiene pagos aprobados: no hay nada que reembolsar ni acreditar',
  penaltyTooHigh: 'La penalidad no puede superar lo pagado',
  refundMismatch: 'El monto a devolver debe ser lo pagado menos la penalidad',
  targetRequired: 'Seleccione la venta a la que se acredita',
  targetSelf: 'No puede acreditar a la misma venta',
  targetNotLive: 'La venta destino no existe o ya está anulada o cancelada',
  targetOtherCustomer: 'La venta destino es de otro cliente',
  targetCurrency: 'La venta destino es en otra moneda',
  creditExceedsDebt: 'El monto a acreditar supera la deuda de la venta destino',
  paidChanged: 'Los pagos de la venta cambiaron mientras la anulaba: vuelva a abrir la anulación',
} as const;

/** Settlement modes of an annulled sale's money (docs/domain.md "Annulling a sale"). */
export const SETTLEMENT_MODES = ['REEMBOLSO', 'CREDITO'] as const;
export type SettlementMode = (typeof SETTLEMENT_MODES)[number];
export const SETTLEMENT_MODE_LABELS: Record<SettlementMode, string> = {
  REEMBOLSO: 'Reembolsar',
  CREDITO: 'Acreditar a otra venta',
};

/** A buyer: a customer, their role and their share in percent (two decimals). */
export const saleHolderRequestSchema = z.strictObject({
  customer_id: z.number().int().positive({ error: 'Seleccione el cliente' }),
  role: z.enum(HOLDER_ROLES, { error: 'Seleccione el rol' }),
  share_percent: z
    .string()
    .trim()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, 'Participación no válida')
    .refine((v) => Number(v) > 0 && Number(v) <= 100, 'Participación no válida'),
});

/**
 * One row of an edited schedule (POST /api/sales `schedule`): the plan's row by kind and number,
 * with its due date and amount in céntimos as typed in the contract stepper. The rules between rows
 * (the plan's rows, exact sums, increasing dates) are src/lib/comercio/schedule-edit.ts's.
 */
export const saleScheduleRowRequestSchema = z.strictObject({
  kind: z.enum(INSTALMENT_KINDS, { error: 'Tipo de cuota no válido' }),
  number: z.number().int().min(1).max(360),
  due_date: calendarDateSchema(),
  amount: z
    .number({ error: 'Ingrese el monto' })
    .int('El monto va en céntimos')
    .min(1, 'El monto debe ser mayor que cero')
    .max(LIMITS.maxCents),
});
export type SaleScheduleRowRequest = z.infer<typeof saleScheduleRowRequestSchema>;

/** Most rows a schedule has: 12 down-payment parts + 360 instalments. */
export const MAX_SCHEDULE_ROWS = 372;

/**
 * POST /api/sales body: the lot, its buyers (1–6; one TITULAR; shares adding up to 100), an
 * optional guarantor (a customer who is no buyer), an optional live reservation of this lot by a
 * buyer (its amount is credited to the down payment), and the terms of src/lib/comercio/quote-plan.ts
 * (as POST /api/quotes), optionally with the schedule edited row by row (`schedule`).
 * `sale_date` defaults to today (Lima). `agent_id` is the selling agent (a staff user); absent or
 * null, the proposed one (GET /api/sales/proposed-agent: the reservation's, else the customer's,
 * else the lead's, else the caller) — another needs 'Supervisar leads' (docs/domain.md "Sales").
 */
export const createSaleRequestSchema = z
  .strictObject({
    lot_id: z.number().int().positive({ error: 'Seleccione el lote' }),
    holders: z.array(saleHolderRequestSchema).min(1, 'Indique al menos un comprador').max(6, 'Máximo 6 compradores'),
    guarantor_customer_id: z.number().int().positive().nullable().optional(),
    reservation_id: z.number().int().positive().nullable().optional(),
    quote_id: z.number().int().positive().nullable().optional(),
    agent_id: z.number().int().positive({ error: 'Seleccione el asesor' }).nullable().optional(),
    sale_date: calendarDateSchema().optional(),
    ...paymentTermsFields,
    /** The schedule edited row by row; absent = the plan's own. */
    schedule: z.array(saleScheduleRowRequestSchema).max(MAX_SCHEDULE_ROWS, 'El cronograma tiene demasiadas filas').optional(),
  })
  .superRefine((v, ctx) => {
    paymentTermsRules(v, ctx);
    if (!v.holders.some((h) => h.role === 'TITULAR'))
      ctx.addIssue({ code: 'custom', path: ['holders'], message: SALE_MESSAGES.oneTitular });
    const ids = v.holders.map((h) => h.customer_id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['holders'], message: SALE_MESSAGES.repeatedHolder });
    // Shares in hundredths of a percent: exact.
    const total = v.holders.reduce((sum, h) => sum + Math.round(Number(h.share_percent) * 100), 0);
    if (total !== 10_000) ctx.addIssue({ code: 'custom', path: ['holders'], message: SALE_MESSAGES.sharesSum });
    if (v.guarantor_customer_id != null && ids.includes(v.guarantor_customer_id))
      ctx.addIssue({ code: 'custom', path: ['guarantor_customer_id'], message: SALE_MESSAGES.guarantorIsHolder });
  });
export type CreateSaleRequest = z.input<typeof createSaleRequestSchema>;

const cents = (label: string) =>
  z
    .number({ error: `Ingrese ${label}` })
    .int(`${label[0]!.toUpperCase()}${label.slice(1)} va en céntimos`)
    .min(0, `${label[0]!.toUpperCase()}${label.slice(1)} no puede ser negativo`)
    .max(LIMITS.maxCents);

/**
 * What is done with an annulled sale's approved money (docs/domain.md "Annulling a sale"), in
 * céntimos of the sale's currency: REEMBOLSO — `refund` is paid back and must equal paid −
 * `penalty`; CREDITO — paid − `penalty` is applied to `target_sale_id` (another live sale of the
 * same titular, same currency). The penalty (0 ≤ penalty ≤ paid) is kept as income. The server
 * checks the amounts against what it reads (422 {@link SALE_MESSAGES}).
 */
export const saleSettlementRequestSchema = z.discriminatedUnion(
  'mode',
  [
    z.strictObject({ mode: z.literal('REEMBOLSO'), penalty: cents('la penalidad'), refund: cents('el monto a devolver') }),
    z.strictObject({
      mode: z.literal('CREDITO'),
      penalty: cents('la penalidad'),
      target_sale_id: z.number({ error: SALE_MESSAGES.targetRequired }).int().positive(SALE_MESSAGES.targetRequired),
    }),
  ],
  { error: 'Indique si se reembolsa o se acredita a otra venta' },
);
export type SaleSettlementRequest = z.input<typeof saleSettlementRequestSchema>;

/**
 * POST /api/sales/{id}/annul body: the reason (kept in the history), the version read and, when
 * the sale has approved money on it, the settlement (required then; refused when nothing is paid).
 */
export const annulSaleRequestSchema = z.strictObject({
  reason: z.string().trim().min(3, SALE_MESSAGES.reasonRequired).max(500),
  version: recordVersionSchema.optional(),
  settlement: saleSettlementRequestSchema.optional(),
});
export type AnnulSaleRequest = z.input<typeof annulSaleRequestSchema>;

/** A sale the annulled sale's money may be credited to (GET /api/sales/{id}/annulment). */
export const creditTargetSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  lot_code: z.string().default(''),
  subdivision_name: z.string().default(''),
  /** What it owes today (amounts and late fees), céntimos. */
  debt: z.number().int().default(0),
});
export type CreditTarget = z.infer<typeof creditTargetSchema>;

/**
 * GET /api/sales/{id}/annulment: what annulling the sale involves — `paid`, the approved money on
 * it in céntimos of `currency` (late fees included), and the titular's other live sales in the
 * same currency it may be credited to.
 */
export const saleAnnulmentSchema = z.object({
  sale_id: z.number().int(),
  currency: z.enum(['PEN', 'USD']),
  paid: z.number().int(),
  credit_targets: z.array(creditTargetSchema).catch([]).default([]),
});
export type SaleAnnulment = z.infer<typeof saleAnnulmentSchema>;
export const saleAnnulmentResponseSchema = dataResponseSchema(saleAnnulmentSchema);

const party = z.object({ id: z.number().int(), display_name: z.string(), document_number: z.string().default('') });

/** One row of a sale's schedule. */
export const saleInstalmentSchema = z.object({
  kind: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  amount: z.number().int(),
  capital: z.number().int().default(0),
  interest: z.number().int().default(0),
  paid: z.number().int().default(0),
  status: z.string().default('PENDIENTE'),
  /** Late fee (issue 16; DOMAIN.md "Late fee"), céntimos: accrued as last figured, paid, waived (0 from a server without them). */
  late_fee_accrued: z.number().int().default(0),
  late_fee_paid: z.number().int().default(0),
  late_fee_waived: z.number().int().default(0),
  /** The schedule the row came from: 1 = the sale's own, n + 1 after the n-th adenda (docs/domain.md "Rescheduling (adenda)"). */
  schedule_number: z.number().int().optional(),
});
export type SaleInstalment = z.infer<typeof saleInstalmentSchema>;

/** A sale as the routes answer it (`instalments_detail` only on GET one and POST). */
export const saleSchema = z.object({
  id: z.number().int(),
  /** "V-000123". */
  number: z.string(),
  sale_date: z.string(),
  type: z.string(),
  lot: z.object({
    id: z.number().int(),
    code: z.string(),
    subdivision_name: z.string().default(''),
    area_m2: z.number().nullable().default(null),
  }),
  holders: z.array(party.extend({ role: z.string(), share_percent: z.string() })).catch([]),
  guarantor: party.nullable().catch(null).default(null),
  agent: z.object({ id: z.number().int(), name: z.string(), surname: z.string() }).nullable().catch(null).default(null),
  reservation_id: z.number().int().nullable().default(null),
  /** The quote the sale came from (then ACEPTADA), else null. */
  quote_id: z.number().int().nullable().optional(),
  currency: z.enum(['PEN', 'USD']),
  list_price: z.number().int(),
  discount: z.number().int().default(0),
  final_price: z.number().int(),
  down_payment: z.number().int(),
  reservation_credit: z.number().int().default(0),
  financed: z.number().int(),
  instalments: z.number().int(),
  monthly_rate_percent: z.string().default('0'),
  method: z.string(),
  total_interest: z.number().int().default(0),
  paid: z.number().int().default(0),
  balance: z.number().int(),
  status: saleStatusSchema.catch('REGISTRADA'),
  annul_reason: z.string().nullable().default(null),
  /** An annulled sale's settlement of its money (GET one and the annul answer; null or absent otherwise; docs/domain.md "Annulling a sale"). */
  settlement: z
    .object({
      mode: z.enum(SETTLEMENT_MODES),
      paid: z.number().int(),
      penalty: z.number().int(),
      refund: z.number().int(),
      credited: z.number().int(),
      target_sale: z.object({ id: z.number().int(), number: z.string() }).nullable().default(null),
    })
    .nullable()
    .optional()
    .catch(undefined),
  /** A RESUELTA sale's rescission (GET one and the rescind answer; null or absent otherwise; docs/domain.md "Rescission"). */
  rescission: rescissionRecordSchema.nullable().optional().catch(undefined),
  /** The latest adenda and its document (GET one and the reschedule answer; null or absent without one; docs/domain.md "Rescission and rescheduling: their documents"). */
  adenda: saleAdendaSchema.nullable().optional().catch(undefined),
  schedule: z.array(saleInstalmentSchema).catch([]).default([]),
  created_at: z.string(),
  updated_at: z.string(),
  version: versionInAnswerSchema,
});
export type Sale = z.infer<typeof saleSchema>;

/** GET /api/sales query: `q` (number, buyer, document, lot code); filters by status, type, subdivision, agent, customer, lot. */
export const salesQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['sale_date', 'final_price', 'created_at']),
  status: saleStatusSchema.optional(),
  type: z.enum(SALE_TYPES).optional(),
  subdivision_id: z.coerce.number().int().positive().optional(),
  agent_id: z.coerce.number().int().positive().optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  lot_id: z.coerce.number().int().positive().optional(),
});
export type SalesQuery = z.infer<typeof salesQuerySchema>;

export const salesPageSchema = pagedResponseSchema(saleSchema);
export const saleResponseSchema = dataResponseSchema(saleSchema);

/** Where a sale's proposed agent comes from (docs/domain.md "Sales": who is the selling agent). */
export const AGENT_SOURCES = ['RESERVA', 'CLIENTE', 'LEAD', 'USUARIO'] as const;
export type AgentSource = (typeof AGENT_SOURCES)[number];
/** How the stepper says where the proposed agent comes from. */
export const AGENT_SOURCE_LABELS: Record<AgentSource, string> = {
  RESERVA: 'asesor de la separación',
  CLIENTE: 'asesor del cliente',
  LEAD: 'asesor del lead',
  USUARIO: 'usted registra la venta',
};

/**
 * GET /api/sales/proposed-agent query: the lot and the buyers (customer ids, the titular first) of
 * the sale being entered.
 */
export const proposedAgentQuerySchema = z.strictObject({
  lot_id: z.coerce.number().int().positive({ error: 'Seleccione el lote' }),
  customer_ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,5}$/, 'Lista de clientes no válida')
    .transform((v) => v.split(',').map(Number))
    .optional(),
});
export type ProposedAgentQuery = z.infer<typeof proposedAgentQuerySchema>;

/**
 * GET /api/sales/proposed-agent answer: the agent a sale of that lot to those buyers is credited to
 * when none is chosen, and where it comes from; `agent` null only when the caller is no staff user.
 */
export const proposedAgentSchema = z.object({
  agent: z.object({ id: z.number().int(), name: z.string(), surname: z.string() }).nullable().catch(null),
  source: z.enum(AGENT_SOURCES).catch('USUARIO'),
});
export type ProposedAgent = z.infer<typeof proposedAgentSchema>;
export const proposedAgentResponseSchema = dataResponseSchema(proposedAgentSchema);
