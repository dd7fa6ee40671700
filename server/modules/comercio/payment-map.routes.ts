import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentMapResponseSchema } from '../../../src/schemas/comercio/payment-map';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { subdivisionKeyParamsSchema } from '../../../src/schemas/proyectos/projects';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { MAIN_BASE } from '../../platform/bases';
import { subdivisionNotFound } from '../proyectos/subdivisions.service';
import { getPaymentMap } from './payment-map.service';

/** Who reads the payment map: the screen's permission, 'Acceso módulo comercial' + 'Acceso submódulo ventas'. */
export const PAYMENT_MAP_ACCESS = staffWith(MODULE.comercial, SUBMODULE.ventas);

/**
 * Comercial → Mapa de Pagos: GET /api/subdivisions/{key}/payment-map (src/schemas/comercio/payment-map.ts).
 * Not kept between calls: the figures move with every approved or annulled payment and with the day,
 * and the answer is two bounded queries (payment-map.service.ts). An unknown key is a 404.
 */
export function paymentMapRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${MAIN_BASE}/subdivisions/:key/payment-map`,
      {
        config: { access: PAYMENT_MAP_ACCESS },
        schema: { params: subdivisionKeyParamsSchema, response: { 200: paymentMapResponseSchema } },
      },
      async (request) => {
        const id = deps.ids.decode(request.params.key);
        if (id === null) throw subdivisionNotFound();
        return { data: await getPaymentMap(deps, id) };
      },
    );
  };
}
