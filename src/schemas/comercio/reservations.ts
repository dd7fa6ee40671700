import { z } from 'zod';
import { LIMITS } from '../limits';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema } from '../versions';

/**
 * Reservations, separaciones (Comercial; docs/domain.md "Sales cycle"): GET/POST /api/reservations,
 * GET /api/reservations/{id}, POST /api/reservations/{id}/cancel. A reservation holds a lot for a
 * customer: creating one marks the lot SEPARADO in the same transaction (only a DISPONIBLE lot: two
 * agents at once → one wins, the other gets 409 "El lote ya no está disponible"); it expires
 * `hold_days` days after it was made (server job), freeing the lot. Money in céntimos of the
 * subdivision's currency.
 */

/** PENDIENTE_PAGO → VIGENTE → CONVERTIDA | VENCIDA | ANULADA (the lot is SEPARADO while live). */
export const RESERVATION_STATUSES = ['PENDIENTE_PAGO', 'VIGENTE', 'CONVERTIDA', 'VENCIDA', 'ANULADA'] as const;
export const reservationStatusSchema = z.enum(RESERVATION_STATUSES);
export type ReservationStatus = z.infer<typeof reservationStatusSchema>;
/** The statuses that hold the lot. */
export const LIVE_RESERVATION_STATUSES: readonly ReservationStatus[] = ['PENDIENTE_PAGO', 'VIGENTE'];

export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  PENDIENTE_PAGO: 'Pendiente de pago',
  VIGENTE: 'Vigente',
  CONVERTIDA: 'Convertida en venta',
  VENCIDA: 'Vencida',
  ANULADA: 'Anulada',
};

/** Hold days: default and bounds (docs/domain.md). */
export const HOLD_DAYS = { default: 7, min: 1, max: 30 } as const;

export const RESERVATION_MESSAGES = {
  /** The words, for the lost race and any lot not DISPONIBLE. */
  lotUnavailable: 'El lote ya no está disponible',
  conditionsRequired: 'Debe aceptar las condiciones de la separación',
  unknownCustomer: 'El cliente no existe',
  inactiveCustomer: 'El cliente está inactivo',
  unknownLot: 'El lote no existe',
  unknownAgent: 'El asesor no existe o está inactivo',
  notLive: 'La separación ya no está pendiente ni vigente',
  reasonRequired: 'Indique el motivo de la anulación',
  expiredTitle: 'Separación vencida',
  expiringTitle: 'Separación vence mañana',
  cancelled: 'Separación anulada',
} as const;

/**
 * The conditions the customer accepts before a reservation is saved (consumer code, Law 29571 art.
 * 77.2.f: the terms of a reservation are shown before it is signed). `{days}` is the hold.
 */
export const RESERVATION_CONDITIONS = (days: number) =>
  `El lote queda separado ${days} día${days === 1 ? '' : 's'} desde hoy. Si la venta se concreta en ese plazo, el monto de la separación se descuenta del precio. ` +
  'Si vence sin venta o el cliente desiste, la separación se anula y el monto se devuelve en un plazo máximo de 30 días, sin penalidad, salvo lo pactado por escrito.';

const partySchema = z.object({ id: z.number().int(), display_name: z.string() });

/** A reservation as every route answers it. */
export const reservationSchema = z.object({
  id: z.number().int(),
  /** "SEP-000123". */
  number: z.string(),
  customer: partySchema.extend({ document_number: z.string().default('') }),
  lot: z.object({ id: z.number().int(), code: z.string(), subdivision_name: z.string().default('') }),
  agent: z.object({ id: z.number().int(), name: z.string(), surname: z.string() }).nullable().default(null),
  /** Céntimos of `currency`. */
  amount: z.number().int(),
  currency: z.enum(['PEN', 'USD']),
  hold_days: z.number().int(),
  /** Instant (ISO with offset) when the reservation expires unless converted or annulled. */
  expires_at: z.string(),
  status: reservationStatusSchema,
  cancel_reason: z.string().nullable().default(null),
  conditions_accepted_at: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  version: versionInAnswerSchema,
});
export type Reservation = z.infer<typeof reservationSchema>;

/**
 * POST /api/reservations body. `agent_id` defaults to the caller; `amount` in céntimos (> 0) of the
 * subdivision's currency; `conditions_accepted` must be true (the form shows
 * {@link RESERVATION_CONDITIONS} first).
 */
export const createReservationRequestSchema = z.strictObject({
  customer_id: z.number().int().positive({ error: 'Seleccione el cliente' }),
  lot_id: z.number().int().positive({ error: 'Seleccione el lote' }),
  agent_id: z.number().int().positive().optional(),
  amount: z
    .number({ error: 'Ingrese el monto' })
    .int('El monto va en céntimos')
    .min(1, 'El monto debe ser mayor que cero')
    .max(LIMITS.maxCents, 'El monto supera el máximo permitido'),
  hold_days: z
    .number()
    .int()
    .min(HOLD_DAYS.min, `Entre ${HOLD_DAYS.min} y ${HOLD_DAYS.max} días`)
    .max(HOLD_DAYS.max, `Entre ${HOLD_DAYS.min} y ${HOLD_DAYS.max} días`)
    .default(HOLD_DAYS.default),
  conditions_accepted: z.literal(true, { error: RESERVATION_MESSAGES.conditionsRequired }),
});
export type CreateReservationRequest = z.input<typeof createReservationRequestSchema>;

/** POST /api/reservations/{id}/cancel body: the reason (kept in the history) and the version read. */
export const cancelReservationRequestSchema = z.strictObject({
  reason: z.string().trim().min(3, RESERVATION_MESSAGES.reasonRequired).max(500),
  version: recordVersionSchema.optional(),
});
export type CancelReservationRequest = z.input<typeof cancelReservationRequestSchema>;

/** GET /api/reservations query: `q` (customer, document, lot code); filters by status, customer, lot, agent. */
export const reservationsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['created_at', 'expires_at', 'amount']),
  status: reservationStatusSchema.optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  lot_id: z.coerce.number().int().positive().optional(),
  agent_id: z.coerce.number().int().positive().optional(),
});
export type ReservationsQuery = z.infer<typeof reservationsQuerySchema>;

export const reservationsPageSchema = pagedResponseSchema(reservationSchema);
export const reservationResponseSchema = dataResponseSchema(reservationSchema);
