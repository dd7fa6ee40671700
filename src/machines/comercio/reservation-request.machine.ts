import { assign, setup } from 'xstate';
import { Temporal } from 'temporal-polyfill';
import type { ApiError } from '../../api/client';
import { planQuote, type QuotePlan } from '../../lib/comercio/quote-plan';
import type { ReservationRequest } from '../../schemas/comercio/portal-sales';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';
import { nextMonthStart } from './terms-form';

/**
 * "Simular y solicitar separación" on a customer's map (issue "CRM and sales", /COMERCIO/ventasClientes):
 * closed → (`request.open {subdivisionKey, lot, today}`) editing — the customer picks the down
 * payment (%) and the number of instalments and sees the schedule simulated without interest (the
 * agent confirms the real terms) when the lot's price is public — → (`request.submit`) submitting →
 * sent (the server's message) → closed. An error (lot taken, already asked) stays in `error`.
 * A change marks the form `dirty`: `request.close` then asks first (`confirmingDiscard`:
 * `request.discard` closes, `request.keepEditing` goes back to the form; docs/decisions.md
 * "Keyboard and focus").
 */

/** The lot as the public map shows it. */
export interface RequestLot {
  code: string;
  currency: 'PEN' | 'USD';
  /** Céntimos; null when the subdivision does not publish prices. */
  listPrice: number | null;
}

export interface ReservationRequestContext {
  subdivisionKey: string;
  lot: RequestLot | null;
  today: string;
  downPercent: number;
  instalments: number;
  message: string;
  plan: QuotePlan | null;
  error: string | null;
  sentMessage: string | null;
  /** The customer changed the form: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
}

export type ReservationRequestEvent =
  | { type: 'request.open'; subdivisionKey: string; lot: RequestLot; today: string }
  | { type: 'request.changed'; downPercent?: number; instalments?: number; message?: string }
  | { type: 'request.submit' }
  | { type: 'request.close' }
  | { type: 'request.discard' }
  | { type: 'request.keepEditing' };

/** The interest-free simulation of a price (null without a public price or with terms out of range). */
export function simulateRequest(c: Pick<ReservationRequestContext, 'lot' | 'downPercent' | 'instalments' | 'today'>): QuotePlan | null {
  if (!c.lot || c.lot.listPrice === null) return null;
  const instalments = Math.min(Math.max(0, Math.trunc(c.instalments)), 360);
  const result = planQuote({
    listPriceCents: c.lot.listPrice,
    downPaymentPercent: instalments === 0 ? 100 : Math.min(Math.max(0, Math.trunc(c.downPercent)), 100),
    downPaymentParts: 1,
    instalments,
    monthlyRatePercent: 0,
    method: 'SIN_INTERES',
    firstDueDate: Temporal.PlainDate.from(nextMonthStart(c.today)),
    today: Temporal.PlainDate.from(c.today),
  });
  return result.ok ? result.plan : null;
}

export const reservationRequestMachine = setup({
  types: { context: {} as ReservationRequestContext, events: {} as ReservationRequestEvent },
  actors: { submit: placeholder<string, { body: ReservationRequest }>('submit') },
  actions: { reportApiError: (_, _error: ApiError) => {} },
}).createMachine({
  id: 'reservationRequest',
  context: {
    subdivisionKey: '',
    lot: null,
    today: '1970-01-01',
    downPercent: 20,
    instalments: 24,
    message: '',
    plan: null,
    error: null,
    sentMessage: null,
    dirty: false,
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'request.open': {
          target: 'editing',
          actions: assign(({ event }) => {
            const base = { lot: event.lot, today: event.today, downPercent: 20, instalments: 24 };
            return {
              ...base,
              subdivisionKey: event.subdivisionKey,
              message: '',
              plan: simulateRequest(base),
              error: null,
              sentMessage: null,
              dirty: false,
            };
          }),
        },
      },
    },
    editing: {
      on: {
        'request.changed': {
          actions: assign(({ context, event }) => {
            const next = {
              ...context,
              ...(event.downPercent !== undefined ? { downPercent: event.downPercent } : {}),
              ...(event.instalments !== undefined ? { instalments: event.instalments } : {}),
              ...(event.message !== undefined ? { message: event.message } : {}),
            };
            return {
              downPercent: next.downPercent,
              instalments: next.instalments,
              message: next.message,
              plan: simulateRequest(next),
              dirty: true,
            };
          }),
        },
        'request.submit': { target: 'submitting', actions: assign({ error: null }) },
        'request.close': [{ guard: ({ context }) => context.dirty, target: 'confirmingDiscard' }, { target: 'closed' }],
      },
    },
    /** "¿Descartar los cambios?": the form stays as it was until the customer answers. */
    confirmingDiscard: {
      on: { 'request.discard': 'closed', 'request.keepEditing': 'editing' },
    },
    submitting: {
      invoke: {
        src: 'submit',
        input: ({ context }) => ({
          body: {
            subdivision_key: context.subdivisionKey,
            lot_code: context.lot!.code,
            instalments: Math.min(Math.max(0, Math.trunc(context.instalments)), 360),
            down_payment_percent: Math.min(Math.max(0, Math.trunc(context.downPercent)), 100),
            ...(context.message.trim() ? { message: context.message.trim().slice(0, 500) } : {}),
          },
        }),
        onDone: { target: 'sent', actions: assign(({ event }) => ({ sentMessage: event.output })) },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    sent: { on: { 'request.close': 'closed' } },
  },
});
export type ReservationRequestMachine = typeof reservationRequestMachine;
