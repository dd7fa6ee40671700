import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { createReservationsApi, type ReservationsApi } from '../../api/comercio/reservations';
import { RESERVATION_MESSAGES, type Reservation } from '../../schemas/comercio/reservations';
import { createReasonActionMachine } from '../shared/reason-action.machine';
import { assign, setup } from 'xstate';
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
 * (`detail`), "Anular" with its reason (`annul`) and the subdivisions of the filter (`subdivisions`);
 * the Separaciones tab: the reservations list (`reservations`) and "Anular" (`cancelReservation`);
 * the tab shown (`tab`).
 */
/** Which tab of the screen shows: the sales or the reservations. */
export type SalesTab = 'ventas' | 'separaciones';

/** The screen's tab (`tab.changed {tab}`). */
export const salesTabMachine = setup({
  types: { context: {} as { tab: SalesTab }, events: {} as { type: 'tab.changed'; tab: SalesTab }, input: {} as { tab: SalesTab } },
}).createMachine({
  id: 'salesTab',
  context: ({ input }) => ({ tab: input.tab }),
  on: { 'tab.changed': { actions: assign(({ event }) => ({ tab: event.tab })) } },
});

/** "Anular" a reservation (the reason required; the lot is freed). */
export const cancelReservationMachine = createReasonActionMachine<Reservation>('cancelReservation', RESERVATION_MESSAGES.reasonRequired);

export interface SalesMachinesDeps {
  salesApi: SalesApi;
  reservationsApi: Pick<ReservationsApi, 'list' | 'cancel'>;
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
      run: fromPromise(({ input: { record: sale, reason } }) =>
        deps.salesApi.annul(sale.id, sale.version === undefined ? { reason } : { reason, version: sale.version }),
      ),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, { record: sale }) =>
        deps.toaster.show({ severity: 'success', summary: SALE_MESSAGES.annulled, detail: `${sale.number}: ${sale.lot.code}` }),
    },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('saleSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  const reservations = resourceScreenMachines<Reservation>({
    fetchPage: deps.reservationsApi.list,
    save: () => Promise.reject(new Error('Las separaciones se registran desde el mapa')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  }).list;
  const cancelReservation = cancelReservationMachine.provide({
    actors: {
      run: fromPromise(({ input: { record, reason } }) =>
        deps.reservationsApi.cancel(record.id, record.version === undefined ? { reason } : { reason, version: record.version }),
      ),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, { record }) =>
        deps.toaster.show({ severity: 'success', summary: RESERVATION_MESSAGES.cancelled, detail: `${record.number}: ${record.lot.code}` }),
    },
  });
  return { list, detail, annul, subdivisions, reservations, cancelReservation, tab: salesTabMachine };
}
export type SalesMachines = ReturnType<typeof createSalesMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createSalesMachinesFor(
  client: ApiClient,
  deps: Omit<SalesMachinesDeps, 'salesApi' | 'reservationsApi' | 'subdivisionOptions'>,
) {
  return createSalesMachines({
    ...deps,
    salesApi: createSalesApi(client),
    reservationsApi: createReservationsApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
