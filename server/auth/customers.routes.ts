import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registrationResponseSchema } from '../../src/schemas/session';
import { auditContextOf } from '../audit/audit';
import type { AppDeps } from '../context';
import { publicAuthRateLimit } from '../rate-limit';
import { CUSTOMER_BASE } from '../platform/bases';
import { REGISTRATION_MESSAGES, registerCustomer } from './customers.service';

/**
 * docs/product.md §7 row 1: POST /api/customer/register_user_customer, JSON, no auth → 201.
 * The body schema depends on today's date, so the service validates it (same 422 shape).
 */
export function customersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      `${CUSTOMER_BASE}/register_user_customer`,
      {
        config: { access: 'public', rateLimit: publicAuthRateLimit(deps.config) },
        schema: { response: { 201: registrationResponseSchema } },
      },
      async (request, reply) => {
        const id = await registerCustomer(deps, request.body, auditContextOf(request, deps.clock));
        return reply.status(201).send({ message: REGISTRATION_MESSAGES.success, data: { id } });
      },
    );
  };
}
