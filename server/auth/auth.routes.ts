import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../src/schemas/common';
import { changePasswordRequestSchema, loginRequestSchema, loginResponseSchema, logoutRequestSchema } from '../../src/schemas/session';
import { auditContextOf } from '../audit/audit';
import type { AppDeps } from '../context';
import { ANY_ACCOUNT, requireAuth } from './guard';
import { publicAuthRateLimit } from '../rate-limit';
import { MAIN_BASE } from '../platform/bases';
import { AUTH_MESSAGES, changePassword, login, logout } from './auth.service';

/** docs/product.md §7 rows 2 (login), 7 (logout) and 15 (password change). */
export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Row 2: JSON {user, password, user_type}; rate-limited per IP here and per account in the service.
    app.post(
      `${MAIN_BASE}/auth/login`,
      {
        config: { access: 'public', rateLimit: publicAuthRateLimit(deps.config) },
        schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } },
      },
      async (request) => ({ data: await login(deps, request.body, request.ip) }),
    );

    // Row 7: bearer, form {user_type}.
    app.post(
      `${MAIN_BASE}/auth/logout`,
      {
        config: { access: ANY_ACCOUNT },
        schema: { body: logoutRequestSchema, response: { 200: messageResponseSchema } },
      },
      async (request) => {
        await logout(deps, requireAuth(request));
        return { message: AUTH_MESSAGES.loggedOut };
      },
    );

    // Row 15: bearer, form {actual_password, new_password}.
    app.post(
      `${MAIN_BASE}/change_password_user`,
      {
        config: { access: ANY_ACCOUNT },
        schema: { body: changePasswordRequestSchema, response: { 200: messageResponseSchema } },
      },
      async (request) => {
        await changePassword(deps, requireAuth(request), request.body, auditContextOf(request, deps.clock));
        return { message: AUTH_MESSAGES.passwordChanged };
      },
    );
  };
}
