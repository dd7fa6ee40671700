import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Payment } from '../../schemas/finanzas/payments';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * "Recibo" of an approved (or annulled) payment: idle → (`receipt.download {payment}`) downloading
 * (GET payments/{id}/receipt, saved as `<receipt number>.pdf`) → idle. `context.paymentId` is the
 * payment being downloaded (its button spins); `failed` ({message}) shows a refusal (404: no receipt).
 */
export const paymentReceiptMachine = setup({
  types: {
    context: {} as { paymentId: number | null; payment: Payment | null },
    events: {} as { type: 'receipt.download'; payment: Payment },
  },
  actors: { download: placeholder<void, { payment: Payment }>('download') },
  actions: {
    failed: (_, _p: { message: string }) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'paymentReceipt',
  context: { paymentId: null, payment: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'receipt.download': {
          target: 'downloading',
          actions: assign(({ event }) => ({ paymentId: event.payment.id, payment: event.payment })),
        },
      },
    },
    downloading: {
      invoke: {
        src: 'download',
        input: ({ context }) => ({ payment: context.payment! }),
        onDone: { target: 'idle', actions: assign({ paymentId: null, payment: null }) },
        onError: {
          target: 'idle',
          actions: [
            { type: 'failed', params: ({ event }) => ({ message: errorMessage(event.error) }) },
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            assign({ paymentId: null, payment: null }),
          ],
        },
      },
    },
  },
});
export type PaymentReceiptMachine = typeof paymentReceiptMachine;

/** The receipt's file name: "R001-00000042.pdf" (or "recibo-<id>.pdf" before a number is known). */
export function receiptFileName(payment: Pick<Payment, 'id' | 'receipt_number'>): string {
  return `${payment.receipt_number ?? `recibo-${payment.id}`}.pdf`;
}
