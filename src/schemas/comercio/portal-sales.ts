import { z } from 'zod';
import { dataResponseSchema } from '../paging';

/**
 * Comercial → Ventas for customers (/COMERCIO/ventasClientes; issue "CRM and sales"): a signed-in
 * customer browses the subdivisions on sale (GET /api/customer/subdivisions), opens their public
 * map, simulates a schedule for a lot and asks to reserve it (POST /api/customer/reservation-requests):
 * that creates a lead for them, assigned to an agent in turn, who is notified. No internal data
 * (agents, other customers, internal statuses) is answered. Money in céntimos of the subdivision's
 * currency; areas in m².
 */

export const PORTAL_SALES_MESSAGES = {
  /** 201: what the customer reads after asking. */
  requested: 'Solicitud enviada: un asesor se comunicará con usted para separar el lote',
  /** 409: the same lot asked for while the first request is open. */
  alreadyRequested: 'Ya solicitó este lote: un asesor se comunicará con usted',
  /** 409: the lot is not Disponible any more. */
  unavailable: 'El lote ya no está disponible',
  /** 404: unknown or unpublished subdivision, unknown lot. */
  unknownLot: 'El lote no existe',
  /** 429: more requests in a day than the company allows one customer (docs/security.md 30.4). */
  dailyLimit: 'Alcanzó el máximo de solicitudes de separación por hoy: un asesor se comunicará con usted por las que ya envió',
  /** 503-like 409 when no agent can take it. */
  noAgent: 'No hay asesores disponibles en este momento: intente más tarde',
} as const;

/** A subdivision on sale as a customer sees it (published ones only). */
export const portalSubdivisionSchema = z.object({
  /** The opaque key of its public map (/COMERCIO/MapSalesCustomer/{name}/{key}). */
  key: z.string(),
  name: z.string(),
  district: z.string().default(''),
  province: z.string().default(''),
  department: z.string().default(''),
  currency: z.enum(['PEN', 'USD']),
  /** Lots Disponible now. */
  available_lots: z.number().int().default(0),
  /** Lowest and highest list price of those lots (céntimos); null when prices are not public. */
  price_from: z.number().int().nullable().default(null),
  price_to: z.number().int().nullable().default(null),
});
export type PortalSubdivision = z.infer<typeof portalSubdivisionSchema>;

/** GET /api/customer/subdivisions answer. */
export const portalSubdivisionsResponseSchema = z.object({ data: z.array(portalSubdivisionSchema) });

/**
 * POST /api/customer/reservation-requests body: the lot by its subdivision's key and its code
 * (what the public map shows), and optionally the plan the customer simulated and a message.
 */
export const reservationRequestSchema = z.strictObject({
  subdivision_key: z.string().trim().min(1, 'Seleccione la lotización').max(40),
  lot_code: z.string().trim().min(1, 'Seleccione el lote').max(40),
  /** The simulated plan: instalments (0 = cash) and down payment %, kept in the lead's notes. */
  instalments: z.number().int().min(0).max(360).optional(),
  down_payment_percent: z.number().int().min(0).max(100).optional(),
  message: z.string().trim().max(500, 'Máximo 500 caracteres').optional(),
});
export type ReservationRequest = z.input<typeof reservationRequestSchema>;

/** POST /api/customer/reservation-requests 201 answer: only the message (no lead or agent data). */
export const reservationRequestResponseSchema = dataResponseSchema(z.object({ message: z.string() }));
