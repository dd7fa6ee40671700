import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import type { AppToaster } from '../../lib/toaster';
import { SALE_MESSAGES, type Sale } from '../../schemas/comercio/sales';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { annulSaleMachine, saleDetailMachine } from './sale-detail.machine';

/**
 * Comercial → Ventas (issue "CRM and sales"): the sales list (read-only list of the CRUD pattern:
 * sales are made on the map and in the contract stepper), one sale's drawer with its schedule
 * (`detail`), "Anular" with its reason (`annul`) and the subdivisions of the filter (`subdivisions`).
 */
export interface SalesMachinesDeps {
  salesApi: SalesApi;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

export function createSalesMachines(deps: SalesMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const { list } = resourceScreenMachines<Sale>({
    fetchPage: deps.salesApi.list,
    save: () => Promise.reject(new Error('Las ventas se registran desde el mapa o el contrato')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const detail = saleDetailMachine.provide({
    actors: { load: fromPromise(({ input }) => deps.salesApi.get(input.id)) },
    actions: { reportApiError: (_, error) => report(error) },
  });
  const annul = annulSaleMachine.provide({
    actors: {
      annul: fromPromise(({ input: { sale, reason } }) =>
        deps.salesApi.annul(sale.id, sale.version === undefined ? { reason } : { reason, version: sale.version }),
      ),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, sale) =>
        deps.toaster.show({ severity: 'success', summary: SALE_MESSAGES.annulled, detail: `${sale.number}: ${sale.lot.code}` }),
    },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('saleSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  return { list, detail, annul, subdivisions };
}
export type SalesMachines = ReturnType<typeof createSalesMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createSalesMachinesFor(client: ApiClient, deps: Omit<SalesMachinesDeps, 'salesApi' | 'subdivisionOptions'>) {
  return createSalesMachines({ ...deps, salesApi: createSalesApi(client), subdivisionOptions: createSubdivisionOptionsApi(client).list });
}
