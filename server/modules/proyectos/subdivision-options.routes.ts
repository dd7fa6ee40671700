import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { subdivisionOptionsResponseSchema } from '../../../src/schemas/proyectos/subdivision-options';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { staffWithAnyOf } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { MAIN_BASE } from '../../platform/bases';

/** Who may list subdivision names for pickers: whoever manages subdivisions, leads, customers, sales or titles at SUNARP. */
export const SUBDIVISION_OPTIONS_ACCESS = staffWithAnyOf(
  [MODULE.proyectos, SUBMODULE.lotizaciones],
  [MODULE.crm, SUBMODULE.leads],
  [MODULE.crm, SUBMODULE.clientes],
  [MODULE.comercial, SUBMODULE.ventas],
  [MODULE.administracion, SUBMODULE.partidasTitulos],
);

/** Most subdivisions one answer lists (an installation has tens, not thousands). */
const MAX_OPTIONS = 500;

/**
 * GET /api/subdivision-options: every subdivision's id, key, name and status by name, for pickers
 * (a lead's subdivisions of interest, list filters) of users without the Lotizaciones screen.
 */
export function subdivisionOptionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${MAIN_BASE}/subdivision-options`,
      { config: { access: SUBDIVISION_OPTIONS_ACCESS }, schema: { response: { 200: subdivisionOptionsResponseSchema } } },
      async () => {
        const rows = await deps.db
          .selectFrom('subdivisions')
          .select(['id', 'name', 'status'])
          .orderBy('name')
          .orderBy('id')
          .limit(MAX_OPTIONS)
          .execute();
        // The key names the subdivision in map addresses and calls (Mapa de Pagos' select).
        return { data: rows.map((r) => ({ ...r, key: deps.ids.encode(r.id) })) };
      },
    );
  };
}
