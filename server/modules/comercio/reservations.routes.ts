import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancelReservationRequestSchema,
  createReservationRequestSchema,
  reservationResponseSchema,
  reservationsPageSchema,
  reservationsQuerySchema,
} from '../../../src/schemas/comercio/reservations';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { cancelReservation, createReservation, getReservation, listReservations } from './reservations.service';

/** Who may reserve lots: 'Acceso módulo comercial' + 'Acceso submódulo ventas'. */
export const RESERVATIONS_ACCESS = staffWith(MODULE.comercial, SUBMODULE.ventas);

/**
 * Comercial → separaciones: GET/POST /api/reservations, GET /api/reservations/{id},
 * POST /api/reservations/{id}/cancel. Expiry is the server's job (reservation-expiry.ts).
 */
export function reservationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: RESERVATIONS_ACCESS };

    app.get(
      `${MAIN_BASE}/reservations`,
      { config, schema: { querystring: reservationsQuerySchema, response: { 200: reservationsPageSchema } } },
      async (request) => listReservations(deps.db, request.query),
    );

    app.post(
      `${MAIN_BASE}/reservations`,
      { config, schema: { body: createReservationRequestSchema, response: { 201: reservationResponseSchema } } },
      async (request, reply) => {
        const data = await createReservation(deps, auditContextOf(request, deps.clock), request.body);
        return reply.status(201).send({ data });
      },
    );

    app.get(
      `${MAIN_BASE}/reservations/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: reservationResponseSchema } } },
      async (request) => ({ data: await getReservation(deps.db, parseId(request.params.id)) }),
    );

    app.post(
      `${MAIN_BASE}/reservations/:id/cancel`,
      { config, schema: { params: idParamsSchema, body: cancelReservationRequestSchema, response: { 200: reservationResponseSchema } } },
      async (request) => ({
        data: await cancelReservation(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
  };
}
