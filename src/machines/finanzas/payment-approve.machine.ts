import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Payment, PaymentAllocation } from '../../schemas/finanzas/payments';
import { errorMessage, errorStatus } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * "Aprobar" a payment (issue 16: "Aprobar shows the allocation before confirming (late fees first,
 * then capital, oldest instalment first) and applies it"): idle → (`approve.request {payment}`)
 * loading (GET payments/{id}: the payment as it is now, with `allocation_preview` or
 * `preview_error`) → confirming → (`approve.confirm`) approving (POST payments/{id}/approve with the
 * version read) → idle, emitting `done {payment}` with the payment APROBADO.
 *
 * A sale payment whose preview is null (`preview_error`: more than the debt…) cannot be confirmed;
 * a reservation payment has no preview (it pays the reservation's amount). A refusal (409: reviewed
 * by someone else meanwhile, the debt changed; 422: no voucher yet) keeps the question open with the
 * server's message, and a 409 reads the payment again so the preview shown is the current one.
 *
 * Segregation of duties (docs/domain.md): when the payment read says the user may not approve it
 * (`self_approval`, they registered it), confirming is barred; an administrator may confirm once
 * they typed the reason of the exception (`approve.reason`), sent as `override_reason`.
 */

export interface PaymentApproveContext {
  payment: Payment | null;
  error: string | null;
  /** "Motivo de la excepción": an administrator's reason to approve a payment they registered. */
  overrideReason: string;
}

export type PaymentApproveEvent =
  | { type: 'approve.request'; payment: Payment }
  | { type: 'approve.reason'; value: string }
  | { type: 'approve.confirm' }
  | { type: 'approve.cancel' }
  | { type: 'approve.retry' };

/** Σ of what an allocation puts on late fees and on capital, in céntimos. */
export function allocationTotals(rows: readonly PaymentAllocation[]): { lateFee: number; capital: number; total: number } {
  const lateFee = rows.reduce((sum, r) => sum + r.to_late_fee, 0);
  const capital = rows.reduce((sum, r) => sum + r.to_capital, 0);
  return { lateFee, capital, total: lateFee + capital };
}

/** Fewest characters of the reason of an exception to the segregation of duties (the server's rule). */
export const OVERRIDE_REASON_MIN = 3;

/**
 * Whether approving `payment` now can be confirmed: PENDIENTE, a sale payment has a preview, and
 * segregation of duties does not bar the user (`self_approval`, docs/domain.md "Payments:
 * segregation of duties") — or they are an administrator who wrote the reason of the exception.
 */
export function canConfirmApproval(payment: Payment | null, overrideReason = ''): boolean {
  if (!payment || payment.status !== 'PENDIENTE') return false;
  if (payment.self_approval && !(payment.self_approval.may_override && overrideReason.trim().length >= OVERRIDE_REASON_MIN)) return false;
  return payment.sale === null || payment.allocation_preview !== null;
}

export const paymentApproveMachine = setup({
  types: {
    context: {} as PaymentApproveContext,
    events: {} as PaymentApproveEvent,
    emitted: {} as { type: 'done'; payment: Payment },
  },
  actors: {
    /** GET payments/{id}. */
    load: placeholder<Payment, { id: number }>('load'),
    /** POST payments/{id}/approve `{version, override_reason?}` (the reason only with `self_approval`). */
    approve: placeholder<Payment, { payment: Payment; overrideReason: string | null }>('approve'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    done: (_, _payment: Payment) => {},
  },
  guards: { canConfirm: ({ context }) => canConfirmApproval(context.payment, context.overrideReason) },
}).createMachine({
  id: 'paymentApprove',
  context: { payment: null, error: null, overrideReason: '' },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'approve.request': {
          target: 'loading',
          actions: assign(({ event }) => ({ payment: event.payment, error: null, overrideReason: '' })),
        },
      },
    },
    loading: {
      on: { 'approve.cancel': { target: 'idle', actions: assign({ payment: null, error: null }) } },
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.payment!.id }),
        onDone: { target: 'confirming', actions: assign(({ event }) => ({ payment: event.output })) },
        onError: {
          target: 'confirming',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    confirming: {
      on: {
        'approve.reason': { actions: assign({ overrideReason: ({ event }) => event.value }) },
        'approve.confirm': { guard: 'canConfirm', target: 'approving', actions: assign({ error: null }) },
        'approve.retry': { target: 'loading', actions: assign({ error: null }) },
        'approve.cancel': { target: 'idle', actions: assign({ payment: null, error: null }) },
      },
    },
    approving: {
      invoke: {
        src: 'approve',
        input: ({ context }) => ({
          payment: context.payment!,
          overrideReason: context.payment!.self_approval ? context.overrideReason.trim() : null,
        }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'done', params: ({ event }) => event.output },
            emit(({ event }) => ({ type: 'done' as const, payment: event.output })),
            assign({ payment: null, error: null }),
          ],
        },
        onError: [
          {
            // Reviewed meanwhile or the debt changed: read it again (the message stays) so the preview is current.
            guard: ({ event }) => errorStatus(event.error) === 409,
            target: 'reloading',
            actions: assign(({ event }) => ({ error: errorMessage(event.error) })),
          },
          {
            target: 'confirming',
            actions: [
              assign(({ event }) => ({ error: errorMessage(event.error) })),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        ],
      },
    },
    /** After a 409: the payment read again, the refusal's message kept. */
    reloading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.payment!.id }),
        onDone: { target: 'confirming', actions: assign(({ event }) => ({ payment: event.output })) },
        onError: { target: 'confirming', actions: { type: 'reportApiError', params: ({ event }) => event.error as ApiError } },
      },
    },
  },
});
export type PaymentApproveMachine = typeof paymentApproveMachine;
