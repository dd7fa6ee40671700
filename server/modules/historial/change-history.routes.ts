import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeHistoryPageSchema, changeHistoryQuerySchema } from '../../../src/schemas/historial/change-history';
import { MODULE } from '../../../src/schemas/permissions';
import type { AppDeps } from '../../context';
import { staffWith } from '../../auth/guard';
import { MAIN_BASE } from '../../platform/bases';
import { iterateChangeHistory, listChangeHistory } from './change-history.repository';
import { csvStream } from './change-history.csv';

/** Who may read the change history: staff with 'Acceso módulo historial de cambios'. */
export const CHANGE_HISTORY_ACCESS = staffWith(MODULE.historial);

/**
 * Historial de cambios (docs/domain.md "Cross-cutting: Change history"):
 * GET /api/change-history (paged, filters from/to/actor_type/actor_id/entity/record_id/action, newest
 * first) and GET /api/change-history/export.csv (same filters, every matching row, streamed).
 */
export function changeHistoryRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${MAIN_BASE}/change-history`,
      {
        config: { access: CHANGE_HISTORY_ACCESS },
        schema: { querystring: changeHistoryQuerySchema, response: { 200: changeHistoryPageSchema } },
      },
      async (request) => listChangeHistory(deps.db, request.query),
    );

    app.get(
      `${MAIN_BASE}/change-history/export.csv`,
      { config: { access: CHANGE_HISTORY_ACCESS }, schema: { querystring: changeHistoryQuerySchema } },
      async (request, reply) => {
        const stamp = deps.clock.now().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="historial-de-cambios-${stamp}.csv"`)
          .send(csvStream(iterateChangeHistory(deps.db, request.query)));
      },
    );
  };
}
