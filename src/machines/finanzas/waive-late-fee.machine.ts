import { assign, emit, setup } from 'xstate';
import { ApiError } from '../../api/client';
import { centsToInput, parseMoneyInput } from '../../lib/money';
import { INSTALMENT_MESSAGES, waiveLateFeeRequestSchema, type InstalmentRow } from '../../schemas/finanzas/instalments';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/** Field errors of the "Condonar mora" form (Spanish, the first message per field). */
export interface WaiveErrors {
  amount?: string;
  reason?: string;
}

export interface WaiveLateFeeContext {
  /** The instalment whose late fee is waived (null while closed). */
  row: InstalmentRow | null;
  /** The amount as typed, in soles or dollars ("15.00"). */
  amountText: string;
  reason: string;
  errors: WaiveErrors;
  /** A refusal that is not a field's (409, network), Spanish. */
  error: string | null;
  /** The user changed the form: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
}

export type WaiveLateFeeEvent =
  | { type: 'waive.open'; row: InstalmentRow }
  | { type: 'waive.changed'; field: 'amount' | 'reason'; value: string }
  | { type: 'waive.submit' }
  | { type: 'waive.close' }
  | { type: 'waive.discard' }
  | { type: 'waive.keepEditing' };

/** The form's values as the request body, or its field errors (same schema as the server's). */
export function waiveBody(
  context: Pick<WaiveLateFeeContext, 'amountText' | 'reason' | 'row'>,
): { ok: true; body: { amount: number; reason: string } } | { ok: false; errors: WaiveErrors } {
  const cents = parseMoneyInput(context.amountText);
  const errors: WaiveErrors = {};
  if (cents === null || cents <= 0) errors.amount = INSTALMENT_MESSAGES.amount;
  else if (context.row && cents > context.row.late_fee_due) errors.amount = INSTALMENT_MESSAGES.exceedsOwed;
  const parsed = waiveLateFeeRequestSchema.safeParse({ amount: cents ?? 0, reason: context.reason });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'reason' && !errors.reason) errors.reason = issue.message;
    }
  if (errors.amount || errors.reason || !parsed.success) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/**
 * "Condonar mora" of one instalment (issue 16: "waive with a reason"): closed → (`waive.open
 * {row}`, amount prefilled with the fee owed) editing → (`waive.submit`, checked with the request's
 * schema and ≤ the fee owed) submitting → closed, emitting `waived {row}` with the row the server
 * answered; a 422 shows its field messages, another refusal its message, and the form stays open.
 * Provide actor `waive` ({id, body} → the row) and actions `waived` (a toast) and `reportApiError`.
 * A change marks the form `dirty`: `waive.close` then asks first (`confirmingDiscard`:
 * `waive.discard` closes, `waive.keepEditing` goes back to the form; docs/decisions.md
 * "Keyboard and focus").
 */
export const waiveLateFeeMachine = setup({
  types: {
    context: {} as WaiveLateFeeContext,
    events: {} as WaiveLateFeeEvent,
    emitted: {} as { type: 'waived'; row: InstalmentRow },
  },
  actors: { waive: placeholder<InstalmentRow, { id: number; body: { amount: number; reason: string } }>('waive') },
  actions: { waived: (_, _p: { row: InstalmentRow }) => {}, reportApiError: (_, _error: unknown) => {} },
  guards: { valid: ({ context }) => waiveBody(context).ok },
}).createMachine({
  id: 'waiveLateFee',
  context: { row: null, amountText: '', reason: '', errors: {}, error: null, dirty: false },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'waive.open': {
          target: 'editing',
          actions: assign(({ event }) => ({
            row: event.row,
            amountText: centsToInput(event.row.late_fee_due),
            reason: '',
            errors: {},
            error: null,
            dirty: false,
          })),
        },
      },
    },
    editing: {
      on: {
        'waive.changed': {
          actions: assign(({ context, event }) =>
            event.field === 'amount'
              ? { amountText: event.value, errors: { ...context.errors, amount: undefined }, error: null, dirty: true }
              : { reason: event.value, errors: { ...context.errors, reason: undefined }, error: null, dirty: true },
          ),
        },
        'waive.submit': [
          { guard: 'valid', target: 'submitting' },
          {
            actions: assign(({ context }) => {
              const result = waiveBody(context);
              return { errors: result.ok ? {} : result.errors };
            }),
          },
        ],
        'waive.close': [
          { guard: ({ context }) => context.dirty, target: 'confirmingDiscard' },
          { target: 'closed', actions: assign({ row: null, errors: {}, error: null }) },
        ],
      },
    },
    /** "¿Descartar los cambios?": the form stays as it was until the user answers. */
    confirmingDiscard: {
      on: {
        'waive.discard': { target: 'closed', actions: assign({ row: null, errors: {}, error: null, dirty: false }) },
        'waive.keepEditing': 'editing',
      },
    },
    submitting: {
      invoke: {
        src: 'waive',
        input: ({ context }) => {
          const result = waiveBody(context);
          return { id: context.row!.id, body: result.ok ? result.body : { amount: 0, reason: '' } };
        },
        onDone: {
          target: 'closed',
          actions: [
            { type: 'waived', params: ({ event }) => ({ row: event.output }) },
            emit(({ event }) => ({ type: 'waived' as const, row: event.output })),
            assign({ row: null, errors: {}, error: null }),
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => {
              const error = event.error;
              if (error instanceof ApiError && error.status === 422) {
                const errors: WaiveErrors = { amount: error.issues.amount?.[0], reason: error.issues.reason?.[0] };
                return { errors, error: errors.amount || errors.reason ? null : errorMessage(error) };
              }
              return { errors: {}, error: errorMessage(error) };
            }),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
  },
});
export type WaiveLateFeeMachine = typeof waiveLateFeeMachine;
