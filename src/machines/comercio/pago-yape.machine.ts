import { assign, raise, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { amountToPay, payableInstalments } from '../../lib/finanzas/pago-yape';
import {
  PURCHASE_MESSAGES,
  customerPaymentRequestSchema,
  type CustomerPayment,
  type CustomerPaymentRequest,
  type PaymentOptions,
  type PaymentWallet,
  type PurchaseDetail,
} from '../../schemas/comercio/purchases';
import { PAYMENT_MESSAGES, VOUCHER_CONTENT_TYPES, VOUCHER_MAX_BYTES } from '../../schemas/finanzas/payments';
import { errorMessage, errorStatus, fieldErrorsFrom } from '../shared/api-errors';
import { formatDate } from '../../lib/dates';
import { placeholder } from '../shared/placeholder';

/**
 * PagoYape (issue 16 "Customer screens"): a customer pays the oldest instalments of one purchase by
 * Yape or Plin. Input `{ purchase, options, today }` (the statement, the active wallets, today in
 * Lima as `YYYY-MM-DD`).
 *
 * - `qr` region: the chosen wallet's QR image (loading → shown | none | failed), fetched as an
 *   object URL that the machine revokes when it changes and when it stops.
 * - `flow` region: editing → (`pay.submit`, valid) sending (POST the payment) → uploading (POST the
 *   capture) → done (final, output `{ message }`: "Pago enviado: queda pendiente de revisión").
 *   When the capture fails after the payment was registered: voucherFailed (`pay.retryVoucher`
 *   sends only the capture again). `pay.close` ends without paying (final `cancelled`, output
 *   `{ message: null }`) — unless the customer already typed or chose something (`dirty`): then it
 *   asks first (`confirmingDiscard`: `pay.discard` ends, `pay.keepEditing` goes back to the form;
 *   docs/decisions.md "Keyboard and focus").
 *
 * Editing events: `pay.countChanged {count}` (how many of the oldest payable instalments: the
 * checkboxes can only make a prefix), `pay.walletChanged {id}`, `pay.changed {field, value}`
 * (operation number and date), `pay.fileChosen {file}` (the capture: an image ≤ 5 MB).
 * `context.amount` is what will be sent (src/lib/finanzas/pago-yape.ts), figured on the statement
 * of the operation date: a date other than the statement's (a day from the sale's date to today)
 * goes through `refiguring`, which reads the statement as of that day (`loadStatement`) — the
 * amount approval will apply (docs/domain.md "Payments"). A 409 (the debt changed) shows the
 * server's message and the parent's statement should be reloaded.
 */

/** The form's fields with a message each. */
export type PagoYapeField = 'instalments' | 'wallet_id' | 'operation_number' | 'operation_date' | 'voucher';

export interface PagoYapeContext {
  purchase: PurchaseDetail;
  /** The day `purchase`'s figures are of (YYYY-MM-DD): today, or the operation date chosen. */
  statementDate: string;
  wallets: PaymentWallet[];
  today: string;
  /** How many of the oldest payable instalments are chosen. */
  count: number;
  walletId: number | null;
  operationNumber: string;
  operationDate: string;
  file: File | null;
  /** Late fees owed plus the chosen instalments' amounts due, céntimos. */
  amount: number;
  errors: Partial<Record<PagoYapeField, string>>;
  /** The refusal of the last send, for the whole form. */
  error: string | null;
  /** The payment once registered (kept when only its capture failed). */
  payment: CustomerPayment | null;
  message: string | null;
  /** Object URL of the chosen wallet's QR. */
  qrObjectUrl: string | null;
  /** The customer changed the form: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
}

/**
 * How the flow ended: `message` to show when the payment and its capture were sent; `registered`
 * when a payment was registered (the statement changed), even if its capture was not.
 */
export interface PagoYapeOutput {
  message: string | null;
  registered: boolean;
}

export type PagoYapeEvent =
  | { type: 'pay.countChanged'; count: number }
  | { type: 'pay.walletChanged'; id: number }
  | { type: 'pay.changed'; field: 'operation_number' | 'operation_date'; value: string }
  | { type: 'pay.fileChosen'; file: File | null }
  | { type: 'pay.submit' }
  | { type: 'pay.retryVoucher' }
  | { type: 'pay.close' }
  | { type: 'pay.discard' }
  | { type: 'pay.keepEditing' }
  | { type: 'qr.stop' };

/** The Spanish refusal of a capture the server would refuse, or null. */
export function voucherFileError(file: { type: string; size: number } | null): string | null {
  if (!file) return 'Adjunte la captura del pago';
  if (!(VOUCHER_CONTENT_TYPES as readonly string[]).includes(file.type)) return PAYMENT_MESSAGES.voucherNotImage;
  if (file.size > VOUCHER_MAX_BYTES) return PAYMENT_MESSAGES.voucherTooLarge;
  return null;
}

/** The amount could not be figured for the operation date chosen (its statement did not load). */
export const AMOUNT_NOT_FIGURED = 'No se pudo calcular el monto para esa fecha: vuelva a elegirla';

/** The body the form would send, or the messages per field. */
export function pagoYapeBody(
  context: Pick<
    PagoYapeContext,
    'purchase' | 'count' | 'walletId' | 'operationNumber' | 'operationDate' | 'amount' | 'today' | 'file' | 'statementDate'
  >,
): { ok: true; body: CustomerPaymentRequest } | { ok: false; errors: Partial<Record<PagoYapeField, string>> } {
  const errors: Partial<Record<PagoYapeField, string>> = {};
  const chosen = payableInstalments(context.purchase.schedule).slice(0, context.count);
  const body = {
    wallet_id: context.walletId ?? 0,
    instalment_ids: chosen.map((r) => r.id),
    amount: context.amount,
    operation_number: context.operationNumber,
    operation_date: context.operationDate,
  };
  const parsed = customerPaymentRequestSchema.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === 'instalment_ids' || issue.path[0] === 'amount' ? 'instalments' : String(issue.path[0]);
      const field = key as PagoYapeField;
      errors[field] ??= issue.message;
    }
  if (chosen.length === 0) errors.instalments = PURCHASE_MESSAGES.nothingSelected;
  if (context.operationDate && context.operationDate > context.today) errors.operation_date = PAYMENT_MESSAGES.futureDate;
  else if (context.operationDate && context.operationDate < context.purchase.sale_date)
    errors.operation_date = `${PAYMENT_MESSAGES.beforeTarget} (${formatDate(context.purchase.sale_date)})`;
  else if (context.operationDate && !isStatementDay(context.operationDate, context)) errors.operation_date = PAYMENT_MESSAGES.operationDate;
  else if (context.operationDate !== context.statementDate) errors.operation_date = AMOUNT_NOT_FIGURED;
  const fileError = voucherFileError(context.file);
  if (fileError) errors.voucher = fileError;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body };
}

const revoke = (url: string | null) => {
  if (url) URL.revokeObjectURL(url);
};

const FIELDS: readonly PagoYapeField[] = ['instalments', 'wallet_id', 'operation_number', 'operation_date', 'voucher'];

/** Whether `value` is a day the statement can be figured for: a calendar date from the sale's date to today. */
export function isStatementDay(value: string, context: Pick<PagoYapeContext, 'purchase' | 'today'>): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value > context.today || value < context.purchase.sale_date) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The chosen count kept within the payable rows of a statement, and its amount. */
const figured = (purchase: PurchaseDetail, count: number) => {
  const kept = Math.max(0, Math.min(count, payableInstalments(purchase.schedule).length));
  return { count: kept, amount: amountToPay(purchase.schedule, kept) };
};

export const pagoYapeMachine = setup({
  types: {
    context: {} as PagoYapeContext,
    events: {} as PagoYapeEvent,
    input: {} as { purchase: PurchaseDetail; options: PaymentOptions; today: string },
    output: {} as PagoYapeOutput,
  },
  actors: {
    /** GET the QR image of a wallet → an object URL. */
    loadQr: placeholder<string, { url: string }>('loadQr'),
    /** GET customer/purchases/{id}?as_of: the statement figured for a day. */
    loadStatement: placeholder<PurchaseDetail, { saleId: number; asOf: string }>('loadStatement'),
    /** POST customer/purchases/{id}/payments. */
    pay: placeholder<{ payment: CustomerPayment; message: string }, { saleId: number; body: CustomerPaymentRequest }>('pay'),
    /** POST customer/payments/{id}/vouchers. */
    upload: placeholder<CustomerPayment, { paymentId: number; file: File }>('upload'),
  },
  actions: { reportApiError: (_, _error: ApiError) => {} },
  guards: {
    valid: ({ context }) => pagoYapeBody(context).ok,
    walletHasQr: ({ context }) => context.wallets.find((w) => w.id === context.walletId)?.qr_url != null,
    /** A new operation date the statement is not figured for yet. */
    /** The form holds what the customer typed or chose: closing asks first. */
    isDirty: ({ context }) => context.dirty,
    /** Back from the question with an operation date whose statement is not figured yet. */
    needsRefigure: ({ context }) => context.operationDate !== context.statementDate && isStatementDay(context.operationDate, context),
    refigures: ({ context, event }) =>
      event.type === 'pay.changed' &&
      event.field === 'operation_date' &&
      event.value !== context.statementDate &&
      isStatementDay(event.value, context),
  },
}).createMachine({
  id: 'pagoYape',
  type: 'parallel',
  context: ({ input }) => {
    const first = input.options.wallets[0] ?? null;
    const count = payableInstalments(input.purchase.schedule).length > 0 ? 1 : 0;
    return {
      purchase: input.purchase,
      statementDate: input.today,
      wallets: input.options.wallets,
      today: input.today,
      count,
      walletId: first?.id ?? null,
      operationNumber: '',
      operationDate: input.today,
      file: null,
      amount: amountToPay(input.purchase.schedule, count),
      errors: {},
      error: null,
      payment: null,
      message: null,
      qrObjectUrl: null,
      dirty: false,
    };
  },
  exit: ({ context }) => revoke(context.qrObjectUrl),
  states: {
    qr: {
      initial: 'choosing',
      on: { 'pay.walletChanged': { target: '.choosing', reenter: true }, 'qr.stop': '.stopped' },
      states: {
        choosing: {
          entry: assign(({ context }) => {
            revoke(context.qrObjectUrl);
            return { qrObjectUrl: null };
          }),
          always: [{ guard: 'walletHasQr', target: 'loading' }, { target: 'none' }],
        },
        loading: {
          invoke: {
            src: 'loadQr',
            input: ({ context }) => ({ url: context.wallets.find((w) => w.id === context.walletId)!.qr_url! }),
            onDone: { target: 'shown', actions: assign(({ event }) => ({ qrObjectUrl: event.output })) },
            onError: { target: 'failed', actions: { type: 'reportApiError', params: ({ event }) => event.error as ApiError } },
          },
        },
        shown: {},
        none: {},
        failed: {},
        stopped: { type: 'final' },
      },
    },
    flow: {
      initial: 'editing',
      on: { 'pay.close': '.cancelled' },
      states: {
        editing: {
          on: {
            'pay.close': [{ guard: 'isDirty', target: 'confirmingDiscard' }, { target: 'cancelled' }],
            'pay.countChanged': {
              actions: assign(({ context, event }) => ({
                dirty: true,
                ...figured(context.purchase, event.count),
                errors: { ...context.errors, instalments: undefined },
              })),
            },
            'pay.walletChanged': {
              actions: assign(({ context, event }) => ({
                dirty: true,
                walletId: event.id,
                errors: { ...context.errors, wallet_id: undefined },
              })),
            },
            'pay.changed': [
              {
                guard: 'refigures',
                target: 'refiguring',
                actions: assign(({ context, event }) => ({
                  dirty: true,
                  operationDate: event.value,
                  errors: { ...context.errors, operation_date: undefined },
                })),
              },
              {
                actions: assign(({ context, event }) =>
                  event.field === 'operation_number'
                    ? { dirty: true, operationNumber: event.value, errors: { ...context.errors, operation_number: undefined } }
                    : { dirty: true, operationDate: event.value, errors: { ...context.errors, operation_date: undefined } },
                ),
              },
            ],
            'pay.fileChosen': {
              actions: assign(({ context, event }) => ({
                dirty: true,
                file: event.file,
                errors: { ...context.errors, voucher: voucherFileError(event.file) ?? undefined },
              })),
            },
            'pay.submit': [
              { guard: 'valid', target: 'sending', actions: assign({ errors: {}, error: null }) },
              {
                actions: assign(({ context }) => {
                  const result = pagoYapeBody(context);
                  return { errors: result.ok ? {} : result.errors };
                }),
              },
            ],
          },
        },
        refiguring: {
          on: {
            'pay.close': [{ guard: 'isDirty', target: 'confirmingDiscard' }, { target: 'cancelled' }],
            'pay.changed': [
              {
                guard: 'refigures',
                target: 'refiguring',
                reenter: true,
                actions: assign(({ event }) => ({ operationDate: event.value })),
              },
              {
                guard: ({ event }) => event.field === 'operation_number',
                actions: assign(({ event }) => ({ operationNumber: event.value })),
              },
            ],
          },
          invoke: {
            src: 'loadStatement',
            input: ({ context }) => ({ saleId: context.purchase.id, asOf: context.operationDate }),
            onDone: {
              target: 'editing',
              actions: assign(({ context, event }) => ({
                purchase: event.output,
                statementDate: context.operationDate,
                ...figured(event.output, context.count),
                error: null,
              })),
            },
            onError: {
              target: 'editing',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        /** "¿Descartar los cambios?": the form stays as it was until the customer answers. */
        confirmingDiscard: {
          on: {
            'pay.discard': 'cancelled',
            'pay.keepEditing': [{ guard: 'needsRefigure', target: 'refiguring' }, { target: 'editing' }],
            'pay.close': {},
          },
        },
        sending: {
          invoke: {
            src: 'pay',
            input: ({ context }) => {
              const result = pagoYapeBody(context);
              if (!result.ok) throw new Error('pagoYape: sending an invalid form');
              return { saleId: context.purchase.id, body: result.body };
            },
            onDone: {
              target: 'uploading',
              actions: assign(({ event }) => ({ payment: event.output.payment, message: event.output.message })),
            },
            onError: {
              target: 'editing',
              actions: [
                assign(({ event }) => {
                  const { fields, rest } = fieldErrorsFrom(event.error, FIELDS);
                  const status = errorStatus(event.error);
                  return {
                    errors: fields,
                    error: status === 422 && Object.keys(fields).length > 0 && rest.length === 0 ? null : errorMessage(event.error),
                  };
                }),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        uploading: {
          invoke: {
            src: 'upload',
            input: ({ context }) => ({ paymentId: context.payment!.id, file: context.file! }),
            onDone: { target: 'done', actions: assign(({ event }) => ({ payment: event.output, error: null })) },
            onError: {
              target: 'voucherFailed',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        voucherFailed: {
          on: {
            'pay.fileChosen': {
              actions: assign(({ event }) => ({ file: event.file, errors: { voucher: voucherFileError(event.file) ?? undefined } })),
            },
            'pay.retryVoucher': { guard: ({ context }) => voucherFileError(context.file) === null, target: 'uploading' },
          },
        },
        done: { type: 'final', entry: raise({ type: 'qr.stop' }) },
        cancelled: { type: 'final', entry: raise({ type: 'qr.stop' }) },
      },
    },
  },
  output: ({ context }) => ({
    message: context.payment && context.payment.vouchers.length > 0 ? (context.message ?? PURCHASE_MESSAGES.sent) : null,
    registered: context.payment !== null,
  }),
});
export type PagoYapeMachine = typeof pagoYapeMachine;
