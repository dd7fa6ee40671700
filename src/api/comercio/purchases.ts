import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import type { Paged } from '../../schemas/list';
import {
  customerPaymentCreatedResponseSchema,
  customerPaymentResponseSchema,
  paymentOptionsResponseSchema,
  type PaymentOptionsQuery,
  purchaseDetailQuerySchema,
  purchaseDetailResponseSchema,
  purchasesPageSchema,
  type CustomerPayment,
  type CustomerPaymentRequest,
  type PaymentOptions,
  type Purchase,
  type PurchaseDetail,
} from '../../schemas/comercio/purchases';

/**
 * The signed-in customer's purchases (customer base; contract in src/schemas/comercio/purchases.ts):
 * Mis Compras, Detalle de Compra and PagoYape. Every function throws
 * {@link import('../client').ApiError}: 404 a sale or payment that is not the customer's (the client
 * hands it to the session like every 404), 409 the amount no longer matches the debt, 422 per field.
 */
export function createPurchasesApi(client: ApiClient) {
  /** GET a file the customer base serves (a QR, a voucher, a receipt) by its path as the answers give it. */
  const blob = async (path: string): Promise<Blob> => {
    try {
      return await client.customer<Blob, 'blob'>(path.replace(/^\/?api\/customer\//, ''), { responseType: 'blob' });
    } catch (e) {
      throw toApiError(e);
    }
  };
  return {
    /** GET customer/purchases?page&per_page: the customer's purchases, newest first. */
    list: (page: { page: number; per_page: number }): Promise<Paged<Purchase>> =>
      request(purchasesPageSchema, () => client.customer('purchases', { query: page })),
    /** GET customer/purchases/{id}[?as_of=YYYY-MM-DD]: the statement, figured as of today or of `asOf`. */
    get: async (id: number, asOf?: string): Promise<PurchaseDetail> =>
      (
        await request(purchaseDetailResponseSchema, () =>
          client.customer(`purchases/${id}`, asOf === undefined ? {} : { query: purchaseDetailQuerySchema.parse({ as_of: asOf }) }),
        )
      ).data,
    /** GET customer/payment-options[?currency=]: the active wallets and bank accounts (those in the purchase's `currency`). */
    paymentOptions: async (currency?: 'PEN' | 'USD'): Promise<PaymentOptions> =>
      (
        await request(paymentOptionsResponseSchema, () =>
          client.customer('payment-options', currency === undefined ? {} : { query: { currency } satisfies PaymentOptionsQuery }),
        )
      ).data,
    /** POST customer/purchases/{id}/payments (PagoYape) → the payment, PENDIENTE, and the message to show. */
    pay: async (saleId: number, body: CustomerPaymentRequest): Promise<{ payment: CustomerPayment; message: string }> =>
      (await request(customerPaymentCreatedResponseSchema, () => client.customer(`purchases/${saleId}/payments`, { method: 'POST', body })))
        .data,
    /** POST customer/payments/{id}/vouchers, multipart `voucher` (an image ≤ 5 MB) → the payment with its vouchers. */
    uploadVoucher: async (paymentId: number, file: Blob, filename = 'voucher'): Promise<CustomerPayment> => {
      const body = new FormData();
      body.append('voucher', file, filename);
      return (
        await request(customerPaymentResponseSchema, () => client.customer(`payments/${paymentId}/vouchers`, { method: 'POST', body }))
      ).data;
    },
    /**
     * GET an image or PDF of the customer base (authenticated: an `<img src>` cannot send the token).
     * @param path a `qr_url`, a voucher's `url` or a `receipt_url` (`/api/customer/…`).
     */
    file: blob,
  };
}
export type PurchasesApi = ReturnType<typeof createPurchasesApi>;
