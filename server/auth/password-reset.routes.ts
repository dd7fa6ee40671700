import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../src/schemas/common';
import { newPasswordSchema, resetLinkQuerySchema, resetRequestSchema, resetTypeSchema } from '../../src/schemas/session';
import { auditContextOf } from '../audit/audit';
import type { AppDeps } from '../context';
import { publicAuthRateLimit } from '../rate-limit';
import { CUSTOMER_BASE, MAIN_BASE } from '../platform/bases';
import { checkPasswordResetLink, RESET_MESSAGES, requestPasswordReset, resetPassword } from './password-reset.service';

/**
 * docs/product.md §7 rows 4 and 5 (request a link: staff on the main base, customers on the customer base)
 * and row 6 (POST /api/password_reset_{type}, one route per known type; any other type is 404), and
 * GET /api/password_reset_{type}?id= (the link checked without being used: 200, or 422 on `id`).
 */
export function passwordResetRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: 'public' as const, rateLimit: publicAuthRateLimit(deps.config) };
    const requestPaths = {
      collaborator: `${MAIN_BASE}/request_password_reset_collaborator`,
      customer: `${CUSTOMER_BASE}/request_password_reset_customer`,
    } as const;

    for (const type of resetTypeSchema.options) {
      app.post(
        requestPaths[type],
        { config, schema: { body: resetRequestSchema, response: { 200: messageResponseSchema } } },
        async (request) => {
          await requestPasswordReset(deps, type, request.body.dni, request.log);
          return { message: RESET_MESSAGES.requested };
        },
      );

      app.get(
        `${MAIN_BASE}/password_reset_${type}`,
        { config, schema: { querystring: resetLinkQuerySchema, response: { 200: messageResponseSchema } } },
        async (request) => {
          await checkPasswordResetLink(deps, type, request.query.id);
          return { message: RESET_MESSAGES.linkValid };
        },
      );

      app.post(
        `${MAIN_BASE}/password_reset_${type}`,
        { config, schema: { body: newPasswordSchema, response: { 200: messageResponseSchema } } },
        async (request) => {
          await resetPassword(deps, type, request.body, auditContextOf(request, deps.clock));
          return { message: RESET_MESSAGES.done };
        },
      );
    }
  };
}
