import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createPortalSalesApi, type PortalSalesApi } from '../../api/comercio/portal-sales';
import type { PortalSubdivision } from '../../schemas/comercio/portal-sales';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';

/**
 * Comercial → Ventas for customers (/COMERCIO/ventasClientes; issue "CRM and sales"): the
 * published subdivisions on sale (`subdivisions`: loading → ready | failure, `options.retry`). The
 * map of each, with "Solicitar separación", is MapSalesCustomer (the maps' module).
 */
export function createPortalSalesMachines(deps: { api: Pick<PortalSalesApi, 'subdivisions'>; reportApiError: (error: ApiError) => void }) {
  const report = forwardSessionErrors(deps.reportApiError);
  const subdivisions = createLoadOnceMachine<PortalSubdivision[]>('portalSubdivisions', []).provide({
    actors: {
      load: fromPromise(async () => {
        try {
          return await deps.api.subdivisions();
        } catch (error) {
          report(error);
          throw error;
        }
      }),
    },
  });
  return { subdivisions };
}
export type PortalSalesMachines = ReturnType<typeof createPortalSalesMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createPortalSalesMachinesFor(client: ApiClient, deps: { reportApiError: (error: ApiError) => void }) {
  return createPortalSalesMachines({ api: createPortalSalesApi(client), reportApiError: deps.reportApiError });
}
