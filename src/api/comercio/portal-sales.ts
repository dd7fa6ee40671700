import type { ApiClient } from '../client';
import { request } from '../client';
import {
  portalSubdivisionsResponseSchema,
  reservationRequestResponseSchema,
  type PortalSubdivision,
  type ReservationRequest,
} from '../../schemas/comercio/portal-sales';

/**
 * Comercial → Ventas for customers (customer base; a signed-in customer). Throws
 * {@link import('../client').ApiError}: 404 unknown lot, 409 not Disponible or already asked, 422
 * on the body.
 */
export function createPortalSalesApi(client: ApiClient) {
  return {
    /** GET customer/subdivisions: the published subdivisions on sale. */
    subdivisions: async (): Promise<PortalSubdivision[]> =>
      (await request(portalSubdivisionsResponseSchema, () => client.customer('subdivisions'))).data,
    /** POST customer/reservation-requests → the message to show. */
    requestReservation: async (body: ReservationRequest): Promise<string> =>
      (await request(reservationRequestResponseSchema, () => client.customer('reservation-requests', { method: 'POST', body }))).data
        .message,
  };
}
export type PortalSalesApi = ReturnType<typeof createPortalSalesApi>;
