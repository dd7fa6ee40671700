import type { ApiClient } from '../client';
import { request } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  reservationResponseSchema,
  reservationsPageSchema,
  type CancelReservationRequest,
  type CreateReservationRequest,
  type Reservation,
} from '../../schemas/comercio/reservations';

/**
 * Comercial → separaciones (staff base, 'Acceso módulo comercial' + 'Acceso submódulo ventas').
 * Every function throws {@link import('../client').ApiError} on failure: 422 with field errors,
 * 409 "El lote ya no está disponible" (another agent reserved or sold the lot first), a reservation
 * no longer live, or a stale version.
 */
export function createReservationsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Reservation> => (await request(reservationResponseSchema, run)).data;
  return {
    /** GET reservations: `q` (customer, document, lot code); filters `status`, `customer_id`, `lot_id`, `agent_id`. */
    list: (query: ListQuery) => request(reservationsPageSchema, () => client.main('reservations', { query: listParams(query) })),
    /** GET reservations/{id}. */
    get: (id: number) => one(() => client.main(`reservations/${id}`)),
    /** POST reservations → 201: the lot is SEPARADO from now on. */
    create: (body: CreateReservationRequest) => one(() => client.main('reservations', { method: 'POST', body })),
    /** POST reservations/{id}/cancel `{reason, version?}`: ANULADA, the lot DISPONIBLE again. */
    cancel: (id: number, body: CancelReservationRequest) => one(() => client.main(`reservations/${id}/cancel`, { method: 'POST', body })),
  };
}
export type ReservationsApi = ReturnType<typeof createReservationsApi>;
