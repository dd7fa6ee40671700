import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createPurchasesApi, type PurchasesApi } from '../../api/comercio/purchases';
import { saveBlobFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import type { CustomerPayment, CustomerPaymentRequest, PaymentOptions, PurchaseDetail } from '../../schemas/comercio/purchases';
import type { Paged } from '../../schemas/list';
import type { Purchase } from '../../schemas/comercio/purchases';
import { forwardSessionErrors } from '../shared/api-errors';
import { pagoYapeMachine } from './pago-yape.machine';
import { purchaseDetailMachine } from './purchase-detail.machine';
import { purchasesListMachine } from './purchases-list.machine';

/**
 * The customer's purchases (issue 16 "Customer screens"): Mis Compras (`list`), Detalle de Compra
 * with PagoYape (`detail`), provided with the customer api, the toaster and the session's error
 * routing. A receipt downloads as `R001-….pdf`.
 */
export interface PurchasesMachinesDeps {
  api: PurchasesApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded file (default: the browser's download). */
  save?: (blob: Blob, fileName: string) => void;
}

export function createPurchasesMachines(deps: PurchasesMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const save = deps.save ?? saveBlobFile;
  const reportApiError = (_: unknown, error: ApiError) => report(error);
  const list = purchasesListMachine.provide({
    actors: { fetchPage: fromPromise<Paged<Purchase>, { page: number; per_page: number }>(({ input }) => deps.api.list(input)) },
    actions: { reportApiError },
  });
  const pagoYape = pagoYapeMachine.provide({
    actors: {
      loadQr: fromPromise<string, { url: string }>(async ({ input }) => URL.createObjectURL(await deps.api.file(input.url))),
      loadStatement: fromPromise<PurchaseDetail, { saleId: number; asOf: string }>(({ input }) => deps.api.get(input.saleId, input.asOf)),
      pay: fromPromise<{ payment: CustomerPayment; message: string }, { saleId: number; body: CustomerPaymentRequest }>(({ input }) =>
        deps.api.pay(input.saleId, input.body),
      ),
      upload: fromPromise<CustomerPayment, { paymentId: number; file: File }>(({ input }) =>
        deps.api.uploadVoucher(input.paymentId, input.file, input.file.name || 'captura'),
      ),
    },
    actions: { reportApiError },
  });
  const detail = purchaseDetailMachine.provide({
    actors: {
      load: fromPromise<PurchaseDetail, { id: number }>(({ input }) => deps.api.get(input.id)),
      loadOptions: fromPromise<PaymentOptions, { currency: 'PEN' | 'USD' }>(({ input }) => deps.api.paymentOptions(input.currency)),
      downloadReceipt: fromPromise<void, { payment: CustomerPayment }>(async ({ input }) => {
        if (!input.payment.receipt_url) return;
        save(await deps.api.file(input.payment.receipt_url), `${input.payment.receipt_number ?? `recibo-${input.payment.id}`}.pdf`);
      }),
      downloadContract: fromPromise<void, { purchase: PurchaseDetail }>(async ({ input }) => {
        if (!input.purchase.contract_pdf_url) return;
        save(await deps.api.file(input.purchase.contract_pdf_url), `contrato-${input.purchase.number ?? input.purchase.id}.pdf`);
      }),
      pagoYape,
    },
    actions: {
      reportApiError,
      failed: (_, { message }) => deps.toaster.show({ severity: 'error', summary: message }),
    },
  });
  return { list, detail };
}
export type PurchasesMachines = ReturnType<typeof createPurchasesMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screens). */
export function createPurchasesMachinesFor(client: ApiClient, deps: { reportApiError: (error: ApiError) => void; toaster: AppToaster }) {
  return createPurchasesMachines({ api: createPurchasesApi(client), reportApiError: deps.reportApiError, toaster: deps.toaster });
}
