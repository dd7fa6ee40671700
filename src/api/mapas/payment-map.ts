import type { ApiClient } from '../client';
import { request } from '../client';
import { paymentMapResponseSchema, type PaymentMap } from '../../schemas/comercio/payment-map';

/**
 * Mapa de Pagos' call (issue 16; contract in src/schemas/comercio/payment-map.ts). Throws
 * {@link import('../client').ApiError}: 404 for an unknown subdivision key, 403 without
 * 'Acceso módulo comercial' + 'Acceso submódulo ventas', status 0 when the answer does not match.
 */
export function createPaymentMapApi(client: ApiClient) {
  return {
    /**
     * GET /api/subdivisions/{key}/payment-map: each sold lot's bucket, days late, overdue amount and
     * balance (céntimos of the subdivision's currency), and the summary per bucket, as of today.
     */
    get: async (key: string): Promise<PaymentMap> =>
      (await request(paymentMapResponseSchema, () => client.main(`subdivisions/${encodeURIComponent(key)}/payment-map`))).data,
  };
}
export type PaymentMapApi = ReturnType<typeof createPaymentMapApi>;
