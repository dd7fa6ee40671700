import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { errorMessage } from '../shared/api-errors';
import { centsToInput } from '../../lib/money';
import type { Sale } from '../../schemas/comercio/sales';
import { RESCISSION_MESSAGES, type RescindSaleRequest, type SaleRescission } from '../../schemas/comercio/rescissions';
import { PENALTY_INVALID, paidLessPenalty } from './sale-dialog.shared';
import { placeholder } from '../shared/placeholder';

/** The penalty field's own message (the server's are in {@link RESCISSION_MESSAGES}). */
export const RESCISSION_PENALTY_INVALID = PENALTY_INVALID;

/** What the "Resolver contrato" dialog edits. */
export interface RescindSaleContext {
  record: Sale | null;
  /** GET sales/{id}/rescission; null while loading. */
  preview: SaleRescission | null;
  reason: string;
  /** The penalty as typed, in soles / dollars; starts at the subdivision's percent of what was paid. */
  penaltyText: string;
  error: string | null;
  dirty: boolean;
}

/** The penalty in céntimos (null when not a valid amount) and the refund = paid − penalty (never below 0). */
export function rescissionFigures(context: Pick<RescindSaleContext, 'preview' | 'penaltyText'>): {
  paid: number;
  penalty: number | null;
  refund: number;
} {
  const { paid, penalty, rest } = paidLessPenalty(context.preview?.paid ?? 0, context.penaltyText);
  return { paid, penalty, refund: rest };
}

/** The first reason what was typed cannot be sent, or null (docs/domain.md "Rescission"). */
function problem(context: RescindSaleContext): string | null {
  if (!context.preview?.allowed) return context.preview?.reasons[0] ?? RESCISSION_MESSAGES.notLive;
  if (context.reason.trim().length < 3) return RESCISSION_MESSAGES.reasonRequired;
  const { penalty } = rescissionFigures(context);
  if (penalty === null) return RESCISSION_PENALTY_INVALID;
  if (penalty > context.preview.penalty) return `${RESCISSION_MESSAGES.penaltyTooHigh} (${context.preview.penalty_pct} %)`;
  return null;
}

/** The POST sales/{id}/rescind body: the reason, the version read, the penalty and the refund the user saw. */
export function rescindBody(context: RescindSaleContext): RescindSaleRequest {
  const { penalty, refund } = rescissionFigures(context);
  const version = context.preview?.version ?? context.record?.version;
  return { reason: context.reason.trim(), ...(version === undefined ? {} : { version }), penalty: penalty ?? 0, refund };
}

const cleared = { record: null, preview: null, reason: '', penaltyText: centsToInput(0), error: null, dirty: false };

/**
 * "Resolver contrato" in the sale's drawer (docs/domain.md "Rescission"; Código Civil arts.
 * 1561–1563): idle → (`rescind.request {record}`) loading (actor `loadPreview`: GET
 * sales/{id}/rescission) → asking → (`rescind.confirm`) running (actor `run`: the body of
 * {@link rescindBody}) → idle, emitting `done {record}`. While asking: `rescind.reason {text}`,
 * `rescind.penalty {text}` (at most the subdivision's percent of what was paid). A preview that
 * does not allow it shows its reasons and confirming repeats the first. Cancelling with something
 * typed asks first (`confirmingDiscard`: `rescind.discard` | `rescind.keepEditing`).
 */
export const rescindSaleMachine = setup({
  types: {
    context: {} as RescindSaleContext,
    events: {} as
      | { type: 'rescind.request'; record: Sale }
      | { type: 'rescind.reason'; text: string }
      | { type: 'rescind.penalty'; text: string }
      | { type: 'rescind.confirm' }
      | { type: 'rescind.cancel' }
      | { type: 'rescind.discard' }
      | { type: 'rescind.keepEditing' },
    emitted: {} as { type: 'done'; record: Sale },
  },
  actors: {
    loadPreview: placeholder<SaleRescission, { id: number }>('loadPreview'),
    run: placeholder<Sale, { id: number; body: RescindSaleRequest }>('run'),
  },
  actions: { reportApiError: (_, _error: ApiError) => {}, done: (_, _p: { record: Sale }) => {} },
  guards: { isDirty: ({ context }) => context.dirty },
}).createMachine({
  id: 'rescindSale',
  context: cleared,
  initial: 'idle',
  states: {
    idle: {
      on: { 'rescind.request': { target: 'loading', actions: assign(({ event }) => ({ ...cleared, record: event.record })) } },
    },
    loading: {
      on: {
        'rescind.reason': { actions: assign(({ event }) => ({ reason: event.text, dirty: true })) },
        'rescind.cancel': [
          { guard: 'isDirty', target: 'confirmingDiscard' },
          { target: 'idle', actions: assign(cleared) },
        ],
      },
      invoke: {
        src: 'loadPreview',
        input: ({ context }) => ({ id: context.record!.id }),
        onDone: {
          target: 'asking',
          actions: assign(({ event }) => ({ preview: event.output, penaltyText: centsToInput(event.output.penalty) })),
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
    asking: {
      on: {
        'rescind.reason': { actions: assign(({ event }) => ({ reason: event.text, error: null, dirty: true })) },
        'rescind.penalty': { actions: assign(({ event }) => ({ penaltyText: event.text, error: null, dirty: true })) },
        'rescind.confirm': [
          { guard: ({ context }) => problem(context) !== null, actions: assign(({ context }) => ({ error: problem(context) })) },
          { target: 'running' },
        ],
        'rescind.cancel': [
          { guard: 'isDirty', target: 'confirmingDiscard' },
          { target: 'idle', actions: assign(cleared) },
        ],
      },
    },
    confirmingDiscard: {
      on: {
        'rescind.discard': { target: 'idle', actions: assign(cleared) },
        'rescind.keepEditing': [{ guard: ({ context }) => context.preview === null, target: 'loading' }, { target: 'asking' }],
      },
    },
    running: {
      invoke: {
        src: 'run',
        input: ({ context }) => ({ id: context.record!.id, body: rescindBody(context) }),
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
export type RescindSaleMachine = typeof rescindSaleMachine;
