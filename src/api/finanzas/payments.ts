import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  paymentResponseSchema,
  paymentsPageSchema,
  type ApprovePaymentRequest,
  type CreatePaymentRequest,
  type Payment,
  type ReviewReasonRequest,
} from '../../schemas/finanzas/payments';

/**
 * Finanzas → Pagos (staff base, 'Acceso módulo finanzas' + 'Acceso submódulo pagos'; contract in
 * src/schemas/finanzas/payments.ts). Every function throws {@link import('../client').ApiError} on
 * failure: 422 carries field errors (a repeated operation number, more than the debt, a voucher that
 * is not an image or over 5 MB), 409 a payment already reviewed by someone else or whose debt
 * changed, 404 an unknown payment, voucher or receipt.
 */
export function createPaymentsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Payment> => (await request(paymentResponseSchema, run)).data;
  const blob = async (path: string): Promise<Blob> => {
    try {
      return await client.main<Blob, 'blob'>(path, { responseType: 'blob' });
    } catch (e) {
      throw toApiError(e);
    }
  };
  return {
    /**
     * GET payments: `q` (receipt or operation number, customer name or document, lot code); filters
     * `status`, `method`, `source`, `sale_id`, `reservation_id`, `customer_id`, `from`, `to` (ISO dates);
     * sort created_at|operation_date|amount (none: PENDIENTE first, oldest first).
     */
    list: (query: ListQuery) => request(paymentsPageSchema, () => client.main('payments', { query: listParams(query) })),
    /** GET payments/{id}: with `allocation_preview` (or `preview_error`) while a sale payment is PENDIENTE. */
    get: (id: number) => one(() => client.main(`payments/${id}`)),
    /** POST payments → 201: a payment received at the office, PENDIENTE. */
    create: (body: CreatePaymentRequest) => one(() => client.main('payments', { method: 'POST', body })),
    /** POST payments/{id}/vouchers, multipart `voucher` (PNG/JPEG/WebP ≤ 5 MB, one per call) → the payment with it. */
    uploadVoucher: (id: number, file: Blob, filename = 'comprobante') => {
      const body = new FormData();
      body.append('voucher', file, filename);
      return one(() => client.main(`payments/${id}/vouchers`, { method: 'POST', body }));
    },
    /**
     * GET a voucher image's bytes (authenticated: an `<img src>` cannot send the bearer token).
     * @param url the voucher's `url` (`/api/payments/{id}/vouchers/{voucher_id}`) or a path relative to the main base.
     */
    voucherBlob: (url: string) => blob(url.replace(/^\/?api\//, '')),
    /** POST payments/{id}/approve `{version?}` → the payment APROBADO with its allocations and receipt number. */
    approve: (id: number, body: ApprovePaymentRequest) => one(() => client.main(`payments/${id}/approve`, { method: 'POST', body })),
    /** POST payments/{id}/reject `{reason, version?}` → RECHAZADO (the customer is notified). */
    reject: (id: number, body: ReviewReasonRequest) => one(() => client.main(`payments/${id}/reject`, { method: 'POST', body })),
    /** POST payments/{id}/annul `{reason, version?}` → ANULADO (what approval applied is reversed). */
    annul: (id: number, body: ReviewReasonRequest) => one(() => client.main(`payments/${id}/annul`, { method: 'POST', body })),
    /** GET payments/{id}/receipt: the receipt as a PDF (APROBADO or ANULADO payments). */
    receipt: (id: number) => blob(`payments/${id}/receipt`),
  };
}
export type PaymentsApi = ReturnType<typeof createPaymentsApi>;
