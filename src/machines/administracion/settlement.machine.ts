import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { CreateSettlementRequest, PaySettlementRequest, SettlementDetail } from '../../schemas/administracion/commissions';
import { errorMessage, fieldErrorsFrom } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * Administración → Comisiones y Pagos → Liquidaciones: one settlement at a time in a drawer.
 * closed → (`settlement.open {id}`) loading → ready; from ready: `settlement.approve` (BORRADOR →
 * APROBADA), `settlement.voucher {file}` (the bank's voucher, PDF or image), `settlement.pay
 * {operation_number, paid_on}` (APROBADA → PAGADA), `settlement.delete` (a draft), `settlement.excel`,
 * `settlement.pdf {agentId}`; each runs and comes back to ready with the fresh settlement (or the
 * server's Spanish message in `error`). Creating one: `create.open` → creating (a form in context)
 * → `create.submit {body}` → submitting → the new settlement opens (ready), or back to creating
 * with `fieldErrors`. Emits `changed` after every write, so the page refreshes its lists.
 */
export interface SettlementContext {
  /** The open settlement's id. */
  id: number | null;
  settlement: SettlementDetail | null;
  error: string | null;
  fieldErrors: Record<string, string>;
}

export type SettlementEvent =
  | { type: 'settlement.open'; id: number }
  | { type: 'settlement.close' }
  | { type: 'settlement.approve' }
  | { type: 'settlement.voucher'; file: File }
  | { type: 'settlement.pay'; body: PaySettlementRequest }
  | { type: 'settlement.delete' }
  | { type: 'settlement.excel' }
  | { type: 'settlement.pdf'; agentId: number }
  | { type: 'create.open' }
  | { type: 'create.submit'; body: CreateSettlementRequest };

/** A write on the open settlement (or the files it downloads). */
export type SettlementWork =
  | { kind: 'approve'; settlement: SettlementDetail }
  | { kind: 'voucher'; settlement: SettlementDetail; file: File }
  | { kind: 'pay'; settlement: SettlementDetail; body: PaySettlementRequest }
  | { kind: 'delete'; settlement: SettlementDetail }
  | { kind: 'excel'; settlement: SettlementDetail }
  | { kind: 'pdf'; settlement: SettlementDetail; agentId: number };

/** The form's fields whose 422 messages are shown on them. */
const FIELDS = ['currency', 'period_from', 'period_to', 'agent_ids', 'commission_ids', 'operation_number', 'paid_on', 'voucher'] as const;

/**
 * A refused call, shown once: a message about one of the form's fields goes under that field only
 * (as the other forms show it, e.g. title-create.machine.ts; the server's 422 of one field repeats
 * the field's text as its message, server/errors.ts `fieldError`), and `error` — the drawer's
 * callout — holds a message about no field (a 409, an issue on another path, a network failure).
 */
function refusal(error: unknown): Pick<SettlementContext, 'error' | 'fieldErrors'> {
  const { fields, rest } = fieldErrorsFrom(error, FIELDS);
  const onFields = Object.keys(fields).length > 0;
  return { error: rest[0] ?? (onFields ? null : errorMessage(error)), fieldErrors: fields as Record<string, string> };
}

/** Spanish toast of a finished work. */
const DONE: Record<SettlementWork['kind'], string | null> = {
  approve: 'Liquidación aprobada',
  voucher: 'Comprobante adjuntado',
  pay: 'Liquidación pagada',
  delete: 'Liquidación eliminada',
  excel: null,
  pdf: null,
};

export const settlementMachine = setup({
  types: {
    context: {} as SettlementContext & { work: SettlementWork | null },
    events: {} as SettlementEvent,
    emitted: {} as { type: 'changed' },
  },
  actors: {
    load: placeholder<SettlementDetail, { id: number }>('load'),
    create: placeholder<SettlementDetail, CreateSettlementRequest>('create'),
    /** Runs `work`: the settlement after it (null after a delete or a download). */
    run: placeholder<SettlementDetail | null, SettlementWork>('run'),
  },
  actions: {
    done: (_, _p: { message: string }) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'settlement',
  context: { id: null, settlement: null, error: null, fieldErrors: {}, work: null },
  initial: 'closed',
  on: {
    'settlement.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ id: event.id, settlement: null, error: null, fieldErrors: {} })),
    },
    'create.open': { target: '.creating', actions: assign({ id: null, settlement: null, error: null, fieldErrors: {} }) },
    'settlement.close': { target: '.closed', actions: assign({ id: null, settlement: null, error: null, fieldErrors: {} }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ settlement: event.output })) },
        onError: {
          target: 'failure',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failure: {},
    creating: {
      on: { 'create.submit': 'submitting' },
    },
    submitting: {
      invoke: {
        src: 'create',
        input: ({ event }) => (event as Extract<SettlementEvent, { type: 'create.submit' }>).body,
        onDone: {
          target: 'ready',
          actions: [
            assign(({ event }) => ({ settlement: event.output, id: event.output.id, fieldErrors: {}, error: null })),
            emit({ type: 'changed' as const }),
            { type: 'done', params: ({ event }) => ({ message: `Liquidación ${event.output.number} creada` }) },
          ],
        },
        onError: {
          target: 'creating',
          actions: [
            assign(({ event }) => {
              return refusal(event.error);
            }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    ready: {
      on: {
        'settlement.approve': {
          target: 'working',
          actions: assign(({ context }) => ({ work: { kind: 'approve' as const, settlement: context.settlement! } })),
        },
        'settlement.voucher': {
          target: 'working',
          actions: assign(({ context, event }) => ({
            work: { kind: 'voucher' as const, settlement: context.settlement!, file: event.file },
          })),
        },
        'settlement.pay': {
          target: 'working',
          actions: assign(({ context, event }) => ({ work: { kind: 'pay' as const, settlement: context.settlement!, body: event.body } })),
        },
        'settlement.delete': {
          target: 'working',
          actions: assign(({ context }) => ({ work: { kind: 'delete' as const, settlement: context.settlement! } })),
        },
        'settlement.excel': {
          target: 'working',
          actions: assign(({ context }) => ({ work: { kind: 'excel' as const, settlement: context.settlement! } })),
        },
        'settlement.pdf': {
          target: 'working',
          actions: assign(({ context, event }) => ({
            work: { kind: 'pdf' as const, settlement: context.settlement!, agentId: event.agentId },
          })),
        },
      },
    },
    working: {
      invoke: {
        src: 'run',
        input: ({ context }) => context.work!,
        onDone: [
          {
            guard: ({ context }) => context.work?.kind === 'delete',
            target: 'closed',
            actions: [
              assign({ id: null, settlement: null, work: null }),
              emit({ type: 'changed' as const }),
              { type: 'done', params: { message: 'Liquidación eliminada' } },
            ],
          },
          {
            target: 'ready',
            actions: [
              assign(({ context, event }) => ({ settlement: event.output ?? context.settlement, error: null, fieldErrors: {} })),
              emit({ type: 'changed' as const }),
              {
                type: 'done',
                params: ({ context }) => ({ message: context.work ? (DONE[context.work.kind] ?? '') : '' }),
              },
              assign({ work: null }),
            ],
          },
        ],
        onError: {
          target: 'ready',
          actions: [
            assign(({ event }) => {
              return { ...refusal(event.error), work: null };
            }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});
export type SettlementMachine = typeof settlementMachine;
