import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createCustomersApi, type CustomersApi } from '../../api/crm/customers';
import type { AppToaster } from '../../lib/toaster';
import type { CreateCustomerRequest, Customer, StaffOption, UpdateCustomerRequest } from '../../schemas/crm/customers';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { createRecordActionsMachine } from '../shared/record-actions.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { createLeadsApi } from '../../api/crm/leads';
import { createQuotesApi } from '../../api/comercio/quotes';
import { createReservationsApi } from '../../api/comercio/reservations';
import { createSalesApi } from '../../api/comercio/sales';
import { customerDetailMachine, loadCustomerDetail, type CustomerDetailApis } from './customer-detail.machine';
import { createLotOptionsApi } from '../../api/comercio/lot-options';
import type { QuotesApi } from '../../api/comercio/quotes';
import type { LotOption } from '../../schemas/comercio/lot-options';
import { QUOTES_UNAVAILABLE, quoteDialogFor } from '../comercio/quote-form.machine';

/**
 * CRM → Clientes (issue "CRM and sales"): the CRUD pattern's list and editor over the customers
 * api; the staff for the agent and collector pickers, loaded once (`staff`); the spouse picker's
 * search over the customers (`spouseLookup`); the row actions "Enviar acceso al portal",
 * "Desactivar" and "Reactivar" (`actions`, asked first); a customer's detail with their leads,
 * quotes, reservations, sales and balances (`detail`, customer-detail.machine.ts).
 */

export type CustomerActionKind = 'sendPasswordReset' | 'deactivate' | 'reactivate';

/** Spanish success toasts per action. */
export const CUSTOMER_ACTION_DONE: Record<CustomerActionKind, string> = {
  sendPasswordReset: 'Enlace de acceso enviado',
  deactivate: 'Cliente desactivado',
  reactivate: 'Cliente reactivado',
};

/** A customer the spouse and reservation pickers offer. */
export interface CustomerChoice {
  id: number;
  display_name: string;
  document_number: string;
}

/** `spouseLookup`: the spouse picker's search (src/machines/shared/lookup.machine.ts). */
export const customerLookupMachine = createLookupMachine<CustomerChoice>('customerLookup');

export interface CustomersMachinesDeps {
  customersApi: CustomersApi;
  /** The list calls the customer's detail reads, filtered by `customer_id`. */
  detailApis: CustomerDetailApis;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** "Cotizar" from a customer's detail (absent in view tests that do not quote: its calls then fail). */
  quotesApi?: Pick<QuotesApi, 'create' | 'changeStatus' | 'pdf'>;
  lotOptions?: (text: string) => Promise<LotOption[]>;
}

/** The Clientes screen's machines, provided. */
export function createCustomersMachines(deps: CustomersMachinesDeps) {
  const { customersApi, toaster } = deps;
  const screen = resourceScreenMachines<Customer, CreateCustomerRequest, UpdateCustomerRequest>({
    fetchPage: customersApi.list,
    save: (input) => (input.mode === 'edit' ? customersApi.update(input.record.id, input.body) : customersApi.create(input.body)),
    fetchOne: (record) => customersApi.get(record.id),
    remove: (record) => customersApi.remove(record.id),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const actions = createRecordActionsMachine<CustomerActionKind, Customer>('customerActions').provide({
    actors: {
      run: fromPromise<unknown, { kind: CustomerActionKind; record: Customer }>(({ input: { kind, record } }) => {
        if (kind === 'sendPasswordReset') return customersApi.sendPasswordReset(record.id);
        // The status change carries the version read: a customer edited meanwhile is a 409.
        const status = kind === 'deactivate' ? 'INACTIVO' : 'ACTIVO';
        return customersApi.update(record.id, record.version === undefined ? { status } : { status, version: record.version });
      }),
    },
    actions: {
      done: (_, { kind }) => toaster.show({ severity: 'success', summary: CUSTOMER_ACTION_DONE[kind] }),
      failed: (_, { message }) => toaster.show({ severity: 'error', summary: 'No se pudo completar', detail: message, life: 6000 }),
      reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error),
    },
  });
  const staff = createLoadOnceMachine<StaffOption[]>('customerStaff', []).provide({
    actors: { load: fromPromise(async () => (await customersApi.staffOptions('')).data) },
  });
  const spouseLookup = customerLookupMachine.provide({
    actors: {
      search: fromPromise<CustomerChoice[], { text: string }>(async ({ input }) => {
        const page = await customersApi.list({ page: 1, per_page: 10, q: input.text, filters: { person_type: 'NATURAL' } });
        return page.data.map((c) => ({ id: c.id, display_name: c.display_name, document_number: c.document_number }));
      }),
    },
  });
  const detail = customerDetailMachine.provide({
    actors: { load: fromPromise(({ input }) => loadCustomerDetail(deps.detailApis, input.customerId, input.sections)) },
  });
  // "Cotizar" from the customer's detail: the quote dialog with the lot picked in it.
  const quote = quoteDialogFor({
    customersApi,
    quotesApi: deps.quotesApi ?? QUOTES_UNAVAILABLE,
    ...(deps.lotOptions ? { lotOptions: deps.lotOptions } : {}),
    reportApiError: deps.reportApiError,
    toaster,
  });
  return { ...screen, actions, staff, spouseLookup, detail, quote };
}
export type CustomersMachines = ReturnType<typeof createCustomersMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createCustomersMachinesFor(
  client: ApiClient,
  deps: Omit<CustomersMachinesDeps, 'customersApi' | 'detailApis' | 'quotesApi' | 'lotOptions'>,
) {
  return createCustomersMachines({
    ...deps,
    customersApi: createCustomersApi(client),
    quotesApi: createQuotesApi(client),
    lotOptions: createLotOptionsApi(client).search,
    detailApis: {
      leads: createLeadsApi(client).list,
      quotes: createQuotesApi(client).list,
      reservations: createReservationsApi(client).list,
      sales: createSalesApi(client).list,
    },
  });
}
