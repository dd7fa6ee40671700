import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PORTAL_SALES_MESSAGES,
  portalSubdivisionsResponseSchema,
  reservationRequestResponseSchema,
  reservationRequestSchema,
} from '../../../src/schemas/comercio/portal-sales';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { requireAuth, type RouteAccess } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { CUSTOMER_BASE } from '../../platform/bases';
import { listPortalSubdivisions, requestReservation } from './portal-sales.service';

/** Customers only, with 'Acceso módulo comercial' + 'Acceso submódulo ventas customers' (every customer holds them). */
export const PORTAL_SALES_ACCESS: RouteAccess = { userTypes: ['CUSTOMER'], permission: [MODULE.comercial, SUBMODULE.ventasCustomers] };

/**
 * Comercial → Ventas for customers (issue "CRM and sales"): GET /api/customer/subdivisions (the
 * published subdivisions on sale) and POST /api/customer/reservation-requests (a request to
 * reserve a lot: a lead for an agent, notified in real time).
 */
export function portalSalesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: PORTAL_SALES_ACCESS };
    app.get(`${CUSTOMER_BASE}/subdivisions`, { config, schema: { response: { 200: portalSubdivisionsResponseSchema } } }, async () => ({
      data: await listPortalSubdivisions(deps),
    }));
    app.post(
      `${CUSTOMER_BASE}/reservation-requests`,
      { config, schema: { body: reservationRequestSchema, response: { 201: reservationRequestResponseSchema } } },
      async (request, reply) => {
        const { events } = await requestReservation(
          deps,
          auditContextOf(request, deps.clock),
          requireAuth(request).accountId,
          request.body,
        );
        deps.broadcaster.publish(events);
        return reply.status(201).send({ data: { message: PORTAL_SALES_MESSAGES.requested } });
      },
    );
  };
}
