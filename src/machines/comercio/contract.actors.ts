import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { createReservationsApi, type ReservationsApi } from '../../api/comercio/reservations';
import { createQuotesApi, type QuotesApi } from '../../api/comercio/quotes';
import { createCustomersApi, type CustomersApi } from '../../api/crm/customers';
import { createLotsApi, type LotsApi } from '../../api/proyectos/lots';
import type { AppToaster } from '../../lib/toaster';
import { contractPath } from '../../config/paths';
import { LIVE_RESERVATION_STATUSES } from '../../schemas/comercio/reservations';
import { STATUSES_WITH_SPOUSE } from '../../schemas/crm/customers';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { CONTRACT_MESSAGES, createContractMachine } from './contract-form.machine';
import type { ReservationCustomer } from './reservation-form.machine';
import { searchActiveCustomers } from '../crm/customer-search';

/**
 * Comercial → Contrato (/COMERCIO/Contrato/{id_sale}; issue "CRM and sales"): the stepper's machine
 * (contract-form.machine.ts) over the api — GET lots/{id} and the lot's live reservation (GET
 * reservations?lot_id=), its quotes (GET quotes?lot_id=), GET customers?q= for the buyers and the
 * guarantor, GET customers/{id} for the titular's spouse, GET sales/proposed-agent and, for a user
 * who may choose the agent, GET staff-options; POST sales, GET sales/{id}. A registered sale is
 * shown at its own address.
 */
export interface ContractMachinesDeps {
  salesApi: Pick<SalesApi, 'get' | 'create' | 'proposedAgent'>;
  reservationsApi: Pick<ReservationsApi, 'list'>;
  quotesApi: Pick<QuotesApi, 'list'>;
  customersApi: Pick<CustomersApi, 'list' | 'get' | 'staffOptions'>;
  lotsApi: Pick<LotsApi, 'get'>;
  reportApiError: (error: ApiError) => void;
  toaster: Pick<AppToaster, 'show'>;
  navigate: (to: string) => void;
}

export function createContractMachines(deps: ContractMachinesDeps) {
  const searchCustomers = searchActiveCustomers(deps.customersApi);
  const lookup = createLookupMachine<ReservationCustomer>('contractCustomers').provide({
    actors: { search: fromPromise(({ input }) => searchCustomers(input.text)) },
  });
  const contract = createContractMachine(lookup).provide({
    actors: {
      loadSale: fromPromise(({ input }) => deps.salesApi.get(input.id)),
      loadLot: fromPromise(async ({ input }) => {
        const [lot, reservations, quotes, staff] = await Promise.all([
          deps.lotsApi.get(input.id),
          deps.reservationsApi.list({ page: 1, per_page: 20, filters: { lot_id: String(input.id) } }),
          // The newest quotes of the lot (a quote is valid 30 days at most: the valid ones are among them).
          deps.quotesApi.list({ page: 1, per_page: 100, sort: '-created_at', filters: { lot_id: String(input.id) } }),
          input.staff ? deps.customersApi.staffOptions('') : null,
        ]);
        const live = reservations.data.find((r) => (LIVE_RESERVATION_STATUSES as readonly string[]).includes(r.status)) ?? null;
        return {
          lot: { id: lot.id, code: lot.code, area_m2: lot.area_m2, currency: lot.currency, list_price: lot.list_price, status: lot.status },
          reservation: live
            ? {
                id: live.id,
                number: live.number,
                amount: live.amount,
                status: live.status,
                customer: {
                  id: live.customer.id,
                  display_name: live.customer.display_name,
                  document_number: live.customer.document_number,
                },
              }
            : null,
          quotes: quotes.data,
          staff: staff?.data ?? [],
        };
      }),
      proposeAgent: fromPromise(({ input }) => deps.salesApi.proposedAgent(input.lotId, input.customerIds)),
      loadSpouse: fromPromise(async ({ input }) => {
        const customer = await deps.customersApi.get(input.customerId);
        if (!customer.spouse || !customer.marital_status || !STATUSES_WITH_SPOUSE.includes(customer.marital_status)) return null;
        const spouse = await deps.customersApi.get(customer.spouse.id);
        return { id: spouse.id, display_name: spouse.display_name, document_number: spouse.document_number };
      }),
      submit: fromPromise(({ input }) => deps.salesApi.create(input.body)),
    },
    actions: {
      reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error),
      saved: (_, sale) => {
        deps.toaster.show({ severity: 'success', summary: CONTRACT_MESSAGES.saved, detail: `${sale.number}: ${sale.lot.code}` });
        deps.navigate(contractPath(sale.id));
      },
    },
  });
  return { contract };
}
export type ContractMachines = ReturnType<typeof createContractMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createContractMachinesFor(client: ApiClient, deps: Pick<ContractMachinesDeps, 'reportApiError' | 'toaster' | 'navigate'>) {
  return createContractMachines({
    ...deps,
    salesApi: createSalesApi(client),
    reservationsApi: createReservationsApi(client),
    quotesApi: createQuotesApi(client),
    customersApi: createCustomersApi(client),
    lotsApi: createLotsApi(client),
  });
}
