import { assign, enqueueActions, raise, setup, type AnyActorRef } from 'xstate';
import type { ApiError } from '../../api/client';
import type { CustomerPayment, PaymentOptions, PurchaseDetail } from '../../schemas/comercio/purchases';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';
import { paymentNoticesLogic } from '../finanzas/payments-page.machine';
import { pagoYapeMachine, type PagoYapeOutput } from './pago-yape.machine';

/**
 * Detalle de Compra (/COMERCIO/DetalleCompra?venta={id}; issue 16 "Customer screens"): the
 * statement of one of the customer's purchases and what can be done from it. Input `{ id, today }`
 * (the sale id from the address, today in Lima). Parallel regions:
 *
 * - `statement`: loading (GET customer/purchases/{id}) → ready | failure (`detail.retry`);
 *   `detail.reload` loads again from ready.
 * - `options`: the company's active wallets and bank accounts in the purchase's currency (GET
 *   customer/payment-options?currency=), waiting (for the statement, which gives the currency) →
 *   loading → ready | failure (`options.retry`).
 * - `payment`: closed → (`pay.yape`) yape, which invokes {@link pagoYapeMachine} (id `pagoYape`)
 *   with the statement and the wallets; when it ends, back to closed with its message in
 *   `notice` and the statement reloaded if a payment was registered. `pay.bank` shows the bank
 *   accounts with their CCI (`pay.close` closes either).
 * - `receipt`: idle → (`receipt.download {payment}`) downloading → idle; `failed` toasts a refusal.
 *
 * - While it runs it watches the session's notifications (input `notifications`, the actor or null):
 *   a new PAYMENT notification (the payment was approved or rejected) reloads the statement.
 *
 * `notice.dismiss` clears the notice. Injected: actors `load`, `loadOptions`, `downloadReceipt`
 * and the PagoYape machine's own; actions `reportApiError`, `failed` ({message}).
 */
export interface PurchaseDetailContext {
  id: number;
  /** The session's notifications actor, watched for PAYMENT notifications (null: none running). */
  notifications: AnyActorRef | null;
  today: string;
  purchase: PurchaseDetail | null;
  error: string | null;
  options: PaymentOptions | null;
  optionsError: string | null;
  /** After PagoYape: "Pago enviado: queda pendiente de revisión", or why the capture is missing. */
  notice: { intent: 'success' | 'warning'; text: string } | null;
  /** The payment whose receipt is being downloaded. */
  receiptPaymentId: number | null;
}

export type PurchaseDetailEvent =
  | { type: 'detail.retry' }
  | { type: 'detail.reload' }
  | { type: 'options.retry' }
  | { type: 'pay.yape' }
  | { type: 'pay.bank' }
  | { type: 'pay.close' }
  | { type: 'receipt.download'; payment: CustomerPayment }
  | { type: 'contract.download' }
  | { type: 'notice.dismiss' }
  | { type: 'payments.notified' };

/** What the customer reads when the payment was registered but its capture could not be sent. */
export const VOUCHER_MISSING_NOTICE =
  'El pago quedó registrado, pero sin la captura: sin ella no puede aprobarse. Comuníquese con la empresa o registre el pago de nuevo.';

export const purchaseDetailMachine = setup({
  types: {
    context: {} as PurchaseDetailContext,
    events: {} as PurchaseDetailEvent,
    input: {} as { id: number; today: string; notifications?: AnyActorRef | null },
  },
  actors: {
    load: placeholder<PurchaseDetail, { id: number }>('load'),
    loadOptions: placeholder<PaymentOptions, { currency: 'PEN' | 'USD' }>('loadOptions'),
    downloadReceipt: placeholder<void, { payment: CustomerPayment }>('downloadReceipt'),
    /** The issued contract's PDF (`contract_pdf_url`, through the client with the customer's session). */
    downloadContract: placeholder<void, { purchase: PurchaseDetail }>('downloadContract'),
    pagoYape: pagoYapeMachine,
    notices: paymentNoticesLogic,
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    failed: (_, _p: { message: string }) => {},
  },
  guards: {
    canPay: ({ context }) => context.purchase !== null && context.options !== null && context.purchase.next_instalment !== null,
  },
}).createMachine({
  id: 'purchaseDetail',
  type: 'parallel',
  context: ({ input }) => ({
    id: input.id,
    notifications: input.notifications ?? null,
    today: input.today,
    purchase: null,
    error: null,
    options: null,
    optionsError: null,
    notice: null,
    receiptPaymentId: null,
  }),
  invoke: { src: 'notices', input: ({ context, self }) => ({ notifications: context.notifications, page: self }) },
  on: {
    'notice.dismiss': { actions: assign({ notice: null }) },
    // An approval or rejection was notified: read the statement again (from ready; a load in flight reads it anyway).
    'payments.notified': { actions: raise({ type: 'detail.reload' }) },
  },
  states: {
    statement: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'load',
            input: ({ context }) => ({ id: context.id }),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ purchase: event.output, error: null })) },
            onError: {
              target: 'failure',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        ready: { on: { 'detail.reload': 'loading' } },
        failure: { on: { 'detail.retry': 'loading' } },
      },
    },
    options: {
      initial: 'waiting',
      states: {
        /** The bank accounts offered are those in the purchase's currency: the statement tells it. */
        waiting: { always: { guard: ({ context }) => context.purchase !== null, target: 'loading' } },
        loading: {
          invoke: {
            src: 'loadOptions',
            input: ({ context }) => ({ currency: context.purchase!.currency }),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ options: event.output, optionsError: null })) },
            onError: {
              target: 'failure',
              actions: [
                assign(({ event }) => ({ optionsError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        ready: {},
        failure: { on: { 'options.retry': 'loading' } },
      },
    },
    payment: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'pay.yape': { guard: 'canPay', target: 'yape', actions: assign({ notice: null }) },
            'pay.bank': { target: 'bank' },
          },
        },
        yape: {
          // The dialog talks to the child (`pay.*`, `pay.close` included); its end brings the region back.
          invoke: {
            id: 'pagoYape',
            src: 'pagoYape',
            input: ({ context }) => ({ purchase: context.purchase!, options: context.options!, today: context.today }),
            onDone: {
              target: 'closed',
              actions: [
                assign(({ event }) => {
                  const output: PagoYapeOutput = event.output;
                  if (output.message) return { notice: { intent: 'success' as const, text: output.message } };
                  return { notice: output.registered ? { intent: 'warning' as const, text: VOUCHER_MISSING_NOTICE } : null };
                }),
                enqueueActions(({ event, enqueue }) => {
                  if ((event.output as PagoYapeOutput).registered) enqueue.raise({ type: 'detail.reload' });
                }),
              ],
            },
          },
        },
        bank: { on: { 'pay.close': 'closed' } },
      },
    },
    receipt: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'receipt.download': { target: 'downloading', actions: assign(({ event }) => ({ receiptPaymentId: event.payment.id })) } },
        },
        downloading: {
          invoke: {
            src: 'downloadReceipt',
            input: ({ context }) => ({ payment: context.purchase!.payments.find((p) => p.id === context.receiptPaymentId)! }),
            onDone: { target: 'idle', actions: assign({ receiptPaymentId: null }) },
            onError: {
              target: 'idle',
              actions: [
                { type: 'failed', params: ({ event }) => ({ message: errorMessage(event.error) }) },
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                assign({ receiptPaymentId: null }),
              ],
            },
          },
        },
      },
    },
    /** "Descargar contrato": idle → (`contract.download`, the purchase has `contract_pdf_url`) downloading → idle. */
    contractPdf: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'contract.download': { guard: ({ context }) => Boolean(context.purchase?.contract_pdf_url), target: 'downloading' } },
        },
        downloading: {
          invoke: {
            src: 'downloadContract',
            input: ({ context }) => ({ purchase: context.purchase! }),
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: [
                { type: 'failed', params: ({ event }) => ({ message: errorMessage(event.error) }) },
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
      },
    },
  },
});
export type PurchaseDetailMachine = typeof purchaseDetailMachine;
