import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { errorMessage } from '../shared/api-errors';
import { centsToInput } from '../../lib/money';
import {
  SALE_MESSAGES,
  type AnnulSaleRequest,
  type Sale,
  type SaleAnnulment,
  type SaleSettlementRequest,
  type SettlementMode,
} from '../../schemas/comercio/sales';
import { PENALTY_INVALID, paidLessPenalty } from './sale-dialog.shared';
import { placeholder } from '../shared/placeholder';

/** The penalty field's own message (the server's are in {@link SALE_MESSAGES}). */
export { PENALTY_INVALID };

/** What the dialog edits. */
export interface AnnulSaleContext {
  record: Sale | null;
  /** GET sales/{id}/annulment: what is paid and where it may be credited; null while loading. */
  annulment: SaleAnnulment | null;
  reason: string;
  mode: SettlementMode;
  /** The penalty as typed, in soles / dollars ("150.00"). */
  penaltyText: string;
  targetSaleId: number | null;
  error: string | null;
  /** The user typed or chose something: cancelling asks "¿Descartar los cambios?" first. */
  dirty: boolean;
}

/**
 * The penalty in céntimos (null when not a valid amount), and the amount to refund or credit:
 * paid − penalty (never below 0). Pure: the dialog shows it, the machine sends it.
 */
export function settlementFigures(context: Pick<AnnulSaleContext, 'annulment' | 'penaltyText'>): {
  paid: number;
  penalty: number | null;
  net: number;
} {
  const { paid, penalty, rest } = paidLessPenalty(context.annulment?.paid ?? 0, context.penaltyText);
  return { paid, penalty, net: rest };
}

/** The first reason the typed settlement cannot be sent, or null (docs/domain.md "Annulling a sale"). */
function settlementProblem(context: AnnulSaleContext): string | null {
  const { paid, penalty } = settlementFigures(context);
  if (paid === 0) return null;
  if (penalty === null) return PENALTY_INVALID;
  if (penalty > paid) return SALE_MESSAGES.penaltyTooHigh;
  if (context.mode === 'CREDITO' && context.targetSaleId === null) return SALE_MESSAGES.targetRequired;
  return null;
}

/** The POST sales/{id}/annul body of what was typed (the settlement only when money is paid). */
export function annulBody(context: AnnulSaleContext): AnnulSaleRequest {
  const sale = context.record!;
  const { paid, penalty, net } = settlementFigures(context);
  const base: AnnulSaleRequest = { reason: context.reason.trim(), ...(sale.version === undefined ? {} : { version: sale.version }) };
  if (paid === 0) return base;
  const settlement: SaleSettlementRequest =
    context.mode === 'REEMBOLSO'
      ? { mode: 'REEMBOLSO', penalty: penalty ?? 0, refund: net }
      : { mode: 'CREDITO', penalty: penalty ?? 0, target_sale_id: context.targetSaleId! };
  return { ...base, settlement };
}

const cleared = {
  record: null,
  annulment: null,
  reason: '',
  mode: 'REEMBOLSO' as SettlementMode,
  penaltyText: centsToInput(0),
  targetSaleId: null,
  error: null,
  dirty: false,
};

/**
 * "Anular venta" on Comercial → Ventas (docs/domain.md "Annulling a sale"): idle →
 * (`reason.request {record}`) loading (actor `loadAnnulment`: what is paid and the sales it may be
 * credited to) → asking → (`reason.confirm`) running (actor `run`: the POST body of
 * {@link annulBody}) → idle, emitting `done {record}`. While asking: `reason.changed`,
 * `settlement.mode` (REEMBOLSO | CREDITO), `settlement.penalty {text}`, `settlement.target {id}`;
 * with money paid the penalty must be a valid amount ≤ paid and a credit needs its target. A failed
 * load or call stays on the question with its message (`error`); `reason.cancel` closes — unless
 * something was typed or chosen (`dirty`): then it asks first (`confirmingDiscard`:
 * `reason.discard` closes, `reason.keepEditing` goes back; docs/decisions.md "Keyboard and focus").
 */
export const annulSaleMachine = setup({
  types: {
    context: {} as AnnulSaleContext,
    events: {} as
      | { type: 'reason.request'; record: Sale }
      | { type: 'reason.changed'; text: string }
      | { type: 'settlement.mode'; mode: SettlementMode }
      | { type: 'settlement.penalty'; text: string }
      | { type: 'settlement.target'; id: number | null }
      | { type: 'reason.confirm' }
      | { type: 'reason.cancel' }
      | { type: 'reason.discard' }
      | { type: 'reason.keepEditing' },
    emitted: {} as { type: 'done'; record: Sale },
  },
  actors: {
    loadAnnulment: placeholder<SaleAnnulment, { id: number }>('loadAnnulment'),
    run: placeholder<Sale, { id: number; body: AnnulSaleRequest }>('run'),
  },
  actions: { reportApiError: (_, _error: ApiError) => {}, done: (_, _p: { record: Sale }) => {} },
  guards: {
    /** Something was typed or chosen: cancelling asks first. */
    isDirty: ({ context }) => context.dirty,
  },
}).createMachine({
  id: 'annulSale',
  context: cleared,
  initial: 'idle',
  states: {
    idle: {
      on: { 'reason.request': { target: 'loading', actions: assign(({ event }) => ({ ...cleared, record: event.record })) } },
    },
    loading: {
      // The reason may be typed while what was paid loads.
      on: {
        'reason.changed': { actions: assign(({ event }) => ({ reason: event.text, dirty: true })) },
        'reason.cancel': [
          { guard: 'isDirty', target: 'confirmingDiscard' },
          { target: 'idle', actions: assign(cleared) },
        ],
      },
      invoke: {
        src: 'loadAnnulment',
        input: ({ context }) => ({ id: context.record!.id }),
        onDone: { target: 'asking', actions: assign(({ event }) => ({ annulment: event.output })) },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failed: {
      on: {
        'reason.request': { target: 'loading', actions: assign(({ event }) => ({ ...cleared, record: event.record })) },
        'reason.cancel': { target: 'idle', actions: assign(cleared) },
      },
    },
    asking: {
      on: {
        'reason.changed': { actions: assign(({ event }) => ({ reason: event.text, error: null, dirty: true })) },
        'settlement.mode': { actions: assign(({ event }) => ({ mode: event.mode, error: null, dirty: true })) },
        'settlement.penalty': { actions: assign(({ event }) => ({ penaltyText: event.text, error: null, dirty: true })) },
        'settlement.target': { actions: assign(({ event }) => ({ targetSaleId: event.id, error: null, dirty: true })) },
        'reason.confirm': [
          { guard: ({ context }) => context.reason.trim().length < 3, actions: assign({ error: SALE_MESSAGES.reasonRequired }) },
          {
            guard: ({ context }) => settlementProblem(context) !== null,
            actions: assign(({ context }) => ({ error: settlementProblem(context) })),
          },
          { target: 'running' },
        ],
        'reason.cancel': [
          { guard: 'isDirty', target: 'confirmingDiscard' },
          { target: 'idle', actions: assign(cleared) },
        ],
      },
    },
    /**
     * "¿Descartar los cambios?": what was typed stays until the user answers; back to the question
     * (loading what was paid again when it had not loaded yet).
     */
    confirmingDiscard: {
      on: {
        'reason.discard': { target: 'idle', actions: assign(cleared) },
        'reason.keepEditing': [{ guard: ({ context }) => context.annulment === null, target: 'loading' }, { target: 'asking' }],
      },
    },
    running: {
      invoke: {
        src: 'run',
        input: ({ context }) => ({ id: context.record!.id, body: annulBody(context) }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'done', params: ({ event }) => ({ record: event.output }) },
            emit(({ event }) => ({ type: 'done' as const, record: event.output })),
            assign(cleared),
          ],
        },
        onError: {
          target: 'asking',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});
export type AnnulSaleMachine = typeof annulSaleMachine;
