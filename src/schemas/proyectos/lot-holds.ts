import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema, listQueryShape, pagedResponseSchema } from '../paging';
import type { LotStatus } from './projects';

/**
 * Lot holds (docs/domain.md "Lot holds"; docs/security.md 31.11): a lot taken off sale by hand —
 * SEPARADO without a reservation, BLOQUEADO or RESERVA_COMERCIAL through POST /api/lots/{id}/status —
 * lasts until an end date (`until`, at most {@link LOT_HOLD_MAX_DAYS} days ahead) and needs a
 * supervisor ('Aprobar bloqueos de lotes'). A supervisor's hold applies at once; anyone else's is a
 * PENDIENTE request (the lot keeps its status) that a supervisor approves or rejects through
 * /api/lot-holds. The expiry job frees a lot whose hold's end date passed. A paid reservation
 * (Comercial → Separaciones) is not a hold: it has its own expiry.
 */

/** Target statuses of POST /api/lots/{id}/status that are holds. */
export const HOLD_STATUSES: readonly LotStatus[] = ['SEPARADO', 'BLOQUEADO', 'RESERVA_COMERCIAL'];

/** Whether `status` is a hold (see {@link HOLD_STATUSES}). */
export const isHoldStatus = (status: LotStatus): boolean => HOLD_STATUSES.includes(status);

/** Longest hold: its end date is at most this many days after today (Lima). */
export const LOT_HOLD_MAX_DAYS = 90;

/**
 * PENDIENTE (asked, waiting for a supervisor) → APROBADA (applied) | RECHAZADA; APROBADA →
 * VENCIDA (the job freed the lot after `until`) | LIBERADA (the lot's status changed by hand before).
 * A PENDIENTE request whose end date passes becomes VENCIDA too.
 */
export const LOT_HOLD_STATES = ['PENDIENTE', 'APROBADA', 'RECHAZADA', 'VENCIDA', 'LIBERADA'] as const;
export const lotHoldStateSchema = z.enum(LOT_HOLD_STATES);
export type LotHoldState = z.infer<typeof lotHoldStateSchema>;

/** Spanish messages of the holds (422 on `until`, 409 on a decision, 202's note). */
export const LOT_HOLD_MESSAGES = {
  untilRequired: 'Indique hasta qué fecha se mantiene el lote',
  untilPast: 'La fecha de término no puede ser anterior a hoy',
  untilTooFar: `La fecha de término no puede pasar de ${LOT_HOLD_MAX_DAYS} días desde hoy`,
  pending: 'Solicitud enviada: el cambio de estado queda pendiente de la aprobación de un supervisor',
  alreadyPending: 'El lote ya tiene una solicitud pendiente de aprobación',
  notPending: 'La solicitud ya fue atendida',
  lotMoved: 'El lote cambió de estado desde la solicitud: no se puede aprobar',
} as const;

/** The end date of a hold (YYYY-MM-DD, Lima); bounds checked by the server against today. */
export const holdUntilSchema = calendarDateSchema();

/**
 * A hold as /api/lot-holds answers it. Tolerant reader (docs/contracts.md): only the hold, its lot,
 * statuses, end date and request instant are required; who asked and the decision default to null.
 */
export const lotHoldSchema = z.object({
  id: z.number().int(),
  lot: z.object({ id: z.number().int(), code: z.string(), subdivision_id: z.number().int() }),
  status: z.string(),
  state: z.string(),
  reason: z.string().nullable().default(null),
  until: z.string(),
  requested_by: z.object({ id: z.number().int(), name: z.string() }).nullable().catch(null).default(null),
  requested_at: z.string(),
  decided_by: z.object({ id: z.number().int(), name: z.string() }).nullable().catch(null).default(null),
  decided_at: z.string().nullable().default(null),
  decision_reason: z.string().nullable().default(null),
});
export type LotHold = z.infer<typeof lotHoldSchema>;

/**
 * GET /api/lot-holds query: by state (default PENDIENTE) and subdivision, a page of `per_page`.
 * Always oldest request first, no text search: `sort` and `q` are refused (422) rather than ignored.
 * Without the approval permission, only one's own requests.
 */
export const lotHoldsQuerySchema = z.strictObject({
  page: listQueryShape.page,
  per_page: listQueryShape.per_page,
  state: lotHoldStateSchema.default('PENDIENTE'),
  subdivision_id: z.coerce.number().int().positive().optional(),
});
export type LotHoldsQuery = z.infer<typeof lotHoldsQuerySchema>;

export const lotHoldsPageSchema = pagedResponseSchema(lotHoldSchema);
export const lotHoldResponseSchema = dataResponseSchema(lotHoldSchema);

/** POST /api/lot-holds/{id}/approve and /reject body: an optional note (the rejection's reason). */
export const decideLotHoldRequestSchema = z.strictObject({ reason: z.string().trim().max(300).nullable().optional() });
