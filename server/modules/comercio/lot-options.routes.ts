import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { lotOptionsQuerySchema, lotOptionsResponseSchema, MAX_LOT_OPTIONS } from '../../../src/schemas/comercio/lot-options';
import type { AppDeps } from '../../context';
import { searchPatternSql, searchTextOf } from '../../db/text-search';
import { MAIN_BASE } from '../../platform/bases';
import { RESERVATIONS_ACCESS } from './reservations.routes';

/**
 * GET /api/lot-options?q=: the lots that can be quoted (Disponible or Separado) whose code or
 * subdivision name contains `q` (case-insensitive), by subdivision and code, at most
 * {@link MAX_LOT_OPTIONS}: the lot picker of a quote made from a customer. Whoever sells (Comercial
 * + Ventas) may read it, as the map's lot panel.
 */
export function lotOptionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${MAIN_BASE}/lot-options`,
      {
        config: { access: RESERVATIONS_ACCESS },
        schema: { querystring: lotOptionsQuerySchema, response: { 200: lotOptionsResponseSchema } },
      },
      async (request) => {
        const pattern = searchPatternSql(request.query.q);
        const rows = await deps.db
          .selectFrom('lots')
          .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
          .select([
            'lots.id',
            'lots.code',
            'lots.list_price',
            'lots.status',
            'subdivisions.name as subdivision_name',
            'subdivisions.currency',
          ])
          .where('lots.status', 'in', ['DISPONIBLE', 'SEPARADO'])
          .where((eb) => eb.or([eb('lots.search_text', 'like', pattern), eb(searchTextOf(deps.db, 'subdivisions.name'), 'like', pattern)]))
          .orderBy('subdivisions.name')
          .orderBy('lots.code')
          .limit(MAX_LOT_OPTIONS)
          .execute();
        return { data: rows.map((r) => ({ ...r, list_price: Number(r.list_price) })) };
      },
    );
  };
}
