import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../src/schemas/common';
import { storeStylesRequestSchema } from '../../src/schemas/session';
import { auditContextOf } from '../audit/audit';
import type { AppDeps } from '../context';
import { requireAuth, STAFF_ONLY } from '../auth/guard';
import { MAIN_BASE } from './bases';
import { saveStyles, STYLES_MESSAGES } from './styles.service';

/** docs/product.md §7 row 8: POST /api/store_or_update_user_style_config, bearer (staff only), form {styles: JSON string}. */
export function stylesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      `${MAIN_BASE}/store_or_update_user_style_config`,
      {
        config: { access: STAFF_ONLY },
        schema: { body: storeStylesRequestSchema, response: { 200: messageResponseSchema } },
      },
      async (request) => {
        await saveStyles(deps, requireAuth(request).accountId, request.body.styles, auditContextOf(request, deps.clock));
        return { message: STYLES_MESSAGES.saved };
      },
    );
  };
}
