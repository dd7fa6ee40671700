import { fromPromise } from 'xstate';
import { isEndedSale } from '../../schemas/comercio/sales';
import type { ApiClient, ApiError } from '../../api/client';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { createReservationsApi, type ReservationsApi } from '../../api/comercio/reservations';
import { createBankAccountsApi, type BankAccountsApi } from '../../api/finanzas/bank-accounts';
import { createPaymentsApi, type PaymentsApi } from '../../api/finanzas/payments';
import { createWalletsApi, type WalletsApi } from '../../api/finanzas/wallets';
import { saveBlobFile } from '../../lib/download';
import { formatMoney } from '../../lib/money';
import type { AppToaster } from '../../lib/toaster';
import { MAX_PER_PAGE } from '../../schemas/list';
import { PAYMENT_MESSAGES, type Payment } from '../../schemas/finanzas/payments';
import { forwardSessionErrors } from '../shared/api-errors';
import { createReasonActionMachine } from '../shared/reason-action.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { paymentApproveMachine } from './payment-approve.machine';
import { paymentDetailMachine, type VoucherImages } from './payment-detail.machine';
import { providePaymentForm, type ReservationOption, type SaleOption } from './payment-form.machine';
import { paymentReceiptMachine, receiptFileName } from './payment-receipt.machine';
import { createPaymentsPageMachine, paymentNoticesLogic } from './payments-page.machine';

/**
 * Finanzas → Pagos (issue 16, "the review queue"): the paged list of payments (PENDIENTE first,
 * oldest first: the server's default order), one payment's drawer with its voucher images, the
 * review actions ("Aprobar" with the allocation preview, "Rechazar" and "Anular" with a reason),
 * "Recibo" (the PDF) and "Registrar pago" (a payment received at the office), all spawned and
 * coordinated by `page` (payments-page.machine.ts); `notices` tells the page when a PAYMENT
 * notification arrives.
 */

/** "Rechazar": the reason is required (it is shown to the customer). */
export const rejectPaymentMachine = createReasonActionMachine<Payment>('rejectPayment', PAYMENT_MESSAGES.reason);
/** "Anular" an approved payment: the reason is required (what approval applied is reversed). */
export const annulPaymentMachine = createReasonActionMachine<Payment>('annulPayment', PAYMENT_MESSAGES.reason);

export interface PaymentsMachinesDeps {
  paymentsApi: PaymentsApi;
  salesApi: Pick<SalesApi, 'list'>;
  reservationsApi: Pick<ReservationsApi, 'list'>;
  bankAccountsApi: Pick<BankAccountsApi, 'list'>;
  walletsApi: Pick<WalletsApi, 'list'>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded PDF (defaults to a browser download; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
  /** Object URLs of the voucher images (default the browser's URL; tests pass fakes). */
  objectUrls?: { create(blob: Blob): string };
}

/** The version read, when the record carries one (a stale one is a 409). */
const withVersion = <T extends object>(payment: Payment, body: T) =>
  payment.version === undefined ? body : { ...body, version: payment.version };

/** What a payment is for, in a toast: "V-000003 · MZ A - LT 9" or "Separación MZ B - LT 4". */
export function paymentTargetText(p: Pick<Payment, 'sale' | 'reservation'>): string {
  if (p.sale) return `${p.sale.number} · ${p.sale.lot_code}`;
  if (p.reservation) return `Separación ${p.reservation.lot_code}`;
  return '';
}

/** The Pagos screen's machines, provided. */
export function createPaymentsMachines(deps: PaymentsMachinesDeps) {
  const api = deps.paymentsApi;
  const report = forwardSessionErrors(deps.reportApiError);
  const createUrl = deps.objectUrls?.create ?? ((b: Blob) => URL.createObjectURL(b));
  const success = (summary: string, p: Payment) =>
    deps.toaster.show({ severity: 'success', summary, detail: `${p.customer.display_name}: ${formatMoney(p.amount, p.currency)}` });

  const { list } = resourceScreenMachines<Payment>({
    fetchPage: api.list,
    save: () => Promise.reject(new Error('Los pagos se registran con "Registrar pago"')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const detail = paymentDetailMachine.provide({
    actors: {
      load: fromPromise(({ input }) => api.get(input.id)),
      loadImages: fromPromise(async ({ input }) => {
        const images: VoucherImages = {};
        for (const v of input.payment.vouchers) images[v.id] = createUrl(await api.voucherBlob(v.url));
        return images;
      }),
      upload: fromPromise(({ input }) => api.uploadVoucher(input.id, input.file, input.file.name)),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      uploaded: () => deps.toaster.show({ severity: 'success', summary: 'Comprobante adjuntado' }),
    },
  });
  const approve = paymentApproveMachine.provide({
    actors: {
      load: fromPromise(({ input }) => api.get(input.id)),
      approve: fromPromise(({ input: { payment, overrideReason } }) =>
        api.approve(payment.id, withVersion(payment, overrideReason ? { override_reason: overrideReason } : {})),
      ),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, p) => success(p.receipt_number ? `${PAYMENT_MESSAGES.approved}: recibo ${p.receipt_number}` : PAYMENT_MESSAGES.approved, p),
    },
  });
  const reject = rejectPaymentMachine.provide({
    actors: { run: fromPromise(({ input: { record, reason } }) => api.reject(record.id, withVersion(record, { reason }))) },
    actions: { reportApiError: (_, error) => report(error), done: (_, { record }) => success(PAYMENT_MESSAGES.rejected, record) },
  });
  const annul = annulPaymentMachine.provide({
    actors: { run: fromPromise(({ input: { record, reason } }) => api.annul(record.id, withVersion(record, { reason }))) },
    actions: { reportApiError: (_, error) => report(error), done: (_, { record }) => success(PAYMENT_MESSAGES.annulled, record) },
  });
  const receipt = paymentReceiptMachine.provide({
    actors: {
      download: fromPromise(async ({ input: { payment } }) =>
        (deps.saveBlob ?? saveBlobFile)(await api.receipt(payment.id), receiptFileName(payment)),
      ),
    },
    actions: {
      failed: (_, { message }) =>
        deps.toaster.show({ severity: 'error', summary: 'No se pudo descargar el recibo', detail: message, life: 6000 }),
      reportApiError: (_, error) => report(error),
    },
  });
  const form = providePaymentForm({
    searchSales: async (text) => {
      const page = await deps.salesApi.list({ page: 1, per_page: 20, q: text, filters: {} });
      return page.data
        .filter((s) => !isEndedSale(s.status) && s.status !== 'CANCELADA')
        .map((s): SaleOption => ({
          id: s.id,
          number: s.number,
          lot_code: s.lot.code,
          subdivision_name: s.lot.subdivision_name,
          currency: s.currency,
          balance: s.balance,
          holders: s.holders.map((h) => ({ id: h.id, display_name: h.display_name, document_number: h.document_number, role: h.role })),
        }));
    },
    searchReservations: async (text) => {
      const page = await deps.reservationsApi.list({ page: 1, per_page: 20, q: text, filters: { status: 'PENDIENTE_PAGO' } });
      return page.data.map((r): ReservationOption => ({
        id: r.id,
        number: r.number,
        lot_code: r.lot.code,
        subdivision_name: r.lot.subdivision_name,
        currency: r.currency,
        amount: r.amount,
        customer: r.customer,
      }));
    },
    loadOptions: async () => {
      const [accounts, wallets] = await Promise.all([
        deps.bankAccountsApi.list({ page: 1, per_page: MAX_PER_PAGE, sort: 'bank', filters: { active: 'true' } }),
        deps.walletsApi.list({ page: 1, per_page: MAX_PER_PAGE, sort: 'kind', filters: { active: 'true' } }),
      ]);
      return { bankAccounts: accounts.data, wallets: wallets.data };
    },
    create: api.create,
    uploadVoucher: (id, file) => api.uploadVoucher(id, file, file.name),
    reportApiError: report,
    done: ({ payment, uploadError }) => {
      success(PAYMENT_MESSAGES.registered, payment);
      if (uploadError)
        deps.toaster.show({
          severity: 'warn',
          summary: 'El pago se registró, pero un comprobante no se pudo subir',
          detail: `${uploadError}. Adjúntelo desde el detalle del pago.`,
          life: 8000,
        });
    },
  });
  const page = createPaymentsPageMachine({ list, detail, approve, reject, annul, receipt, form });
  return { page, notices: paymentNoticesLogic };
}
export type PaymentsMachines = ReturnType<typeof createPaymentsMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createPaymentsMachinesFor(
  client: ApiClient,
  deps: Omit<PaymentsMachinesDeps, 'paymentsApi' | 'salesApi' | 'reservationsApi' | 'bankAccountsApi' | 'walletsApi'>,
) {
  return createPaymentsMachines({
    ...deps,
    paymentsApi: createPaymentsApi(client),
    salesApi: createSalesApi(client),
    reservationsApi: createReservationsApi(client),
    bankAccountsApi: createBankAccountsApi(client),
    walletsApi: createWalletsApi(client),
  });
}
