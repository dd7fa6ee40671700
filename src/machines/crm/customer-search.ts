import type { CustomersApi } from '../../api/crm/customers';
import type { ReservationCustomer } from '../comercio/reservation-form.machine';

/**
 * The customer pickers' search (reservation, quote, contract stepper): GET customers?q= of the
 * active customers, first 10, as `{id, display_name, document_number}`.
 * @throws ApiError as the customers api does.
 */
export function searchActiveCustomers(customersApi: Pick<CustomersApi, 'list'>) {
  return async (text: string): Promise<ReservationCustomer[]> =>
    (await customersApi.list({ page: 1, per_page: 10, q: text, filters: { status: 'ACTIVO' } })).data.map((c) => ({
      id: c.id,
      display_name: c.display_name,
      document_number: c.document_number,
    }));
}
