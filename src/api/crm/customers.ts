import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import { messageResponseSchema } from '../../schemas/common';
import type { ListQuery } from '../../schemas/list';
import {
  customerResponseSchema,
  customersPageSchema,
  staffOptionsPageSchema,
  type CreateCustomerRequest,
  type Customer,
  type UpdateCustomerRequest,
} from '../../schemas/crm/customers';

/**
 * CRM → Clientes (staff base, 'Acceso módulo CRM' + 'Acceso submódulo clientes'). Every function
 * throws {@link import('../client').ApiError} on failure (422 carries field errors, 409 a stale
 * edit or a refused deletion).
 */
export function createCustomersApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Customer> => (await request(customerResponseSchema, run)).data;
  return {
    /** GET customers: `q` (names, business name, document, e-mail, phones); filters `status`, `person_type`, `agent_id`, `collector_id`, `portal_user`. */
    list: (query: ListQuery) => request(customersPageSchema, () => client.main('customers', { query: listParams(query) })),
    /** GET customers/{id}. */
    get: (id: number) => one(() => client.main(`customers/${id}`)),
    /** POST customers (no portal login: see `sendPasswordReset`). */
    create: (body: CreateCustomerRequest) => one(() => client.main('customers', { method: 'POST', body })),
    /** PATCH customers/{id} with the `version` read. */
    update: (id: number, body: UpdateCustomerRequest) => one(() => client.main(`customers/${id}`, { method: 'PATCH', body })),
    /** DELETE customers/{id} (409 when the customer has a portal login). */
    remove: async (id: number): Promise<void> => {
      try {
        await client.main(`customers/${id}`, { method: 'DELETE' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** POST customers/{id}/send-password-reset → `{message}`: e-mails the customer a link to create their portal password. */
    sendPasswordReset: (id: number) =>
      request(messageResponseSchema, () => client.main(`customers/${id}/send-password-reset`, { method: 'POST' })),
    /** GET staff-options: active staff for the agent and collector pickers (`q`: names or DNI). */
    staffOptions: (q: string) =>
      request(staffOptionsPageSchema, () => client.main('staff-options', { query: { per_page: 100, ...(q ? { q } : {}) } })),
  };
}
export type CustomersApi = ReturnType<typeof createCustomersApi>;
