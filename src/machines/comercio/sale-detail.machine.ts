import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Sale } from '../../schemas/comercio/sales';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * One sale's drawer on Comercial → Ventas: closed → (`detail.open {id}`) loading (GET sales/{id},
 * with its schedule) → ready | failed; `detail.refresh` loads again; `detail.close` closes.
 */
export const saleDetailMachine = setup({
  types: {
    context: {} as { id: number | null; sale: Sale | null; error: string | null },
    events: {} as { type: 'detail.open'; id: number } | { type: 'detail.refresh' } | { type: 'detail.close' },
  },
  actors: { load: placeholder<Sale, { id: number }>('load') },
  actions: { reportApiError: (_, _error: ApiError) => {} },
}).createMachine({
  id: 'saleDetail',
  context: { id: null, sale: null, error: null },
  initial: 'closed',
  on: {
    'detail.open': { target: '.loading', actions: assign(({ event }) => ({ id: event.id, sale: null, error: null })) },
    'detail.close': { target: '.closed', actions: assign({ id: null, sale: null, error: null }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ sale: event.output, error: null })) },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    ready: { on: { 'detail.refresh': 'loading' } },
    failed: { on: { 'detail.refresh': 'loading' } },
  },
});
export type SaleDetailMachine = typeof saleDetailMachine;

/**
 * "Anular" a sale: idle → (`annul.request {sale}`) asking (`annul.reason {text}`) → (`annul.confirm`)
 * running → idle, emitting `annulled` (the page refreshes its list and drawer). A refusal (409, a
 * stale sale, a reason too short) stays on the question with its message.
 */
export const annulSaleMachine = setup({
  types: {
    context: {} as { sale: Sale | null; reason: string; error: string | null },
    events: {} as
      { type: 'annul.request'; sale: Sale } | { type: 'annul.reason'; text: string } | { type: 'annul.confirm' } | { type: 'annul.cancel' },
    emitted: {} as { type: 'annulled'; sale: Sale },
  },
  actors: { annul: placeholder<Sale, { sale: Sale; reason: string }>('annul') },
  actions: { reportApiError: (_, _error: ApiError) => {}, done: (_, _sale: Sale) => {} },
}).createMachine({
  id: 'annulSale',
  context: { sale: null, reason: '', error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'annul.request': { target: 'asking', actions: assign(({ event }) => ({ sale: event.sale, reason: '', error: null })) } },
    },
    asking: {
      on: {
        'annul.reason': { actions: assign(({ event }) => ({ reason: event.text, error: null })) },
        'annul.confirm': [
          { guard: ({ context }) => context.reason.trim().length < 3, actions: assign({ error: 'Indique el motivo de la anulación' }) },
          { target: 'running' },
        ],
        'annul.cancel': { target: 'idle', actions: assign({ sale: null, reason: '', error: null }) },
      },
    },
    running: {
      invoke: {
        src: 'annul',
        input: ({ context }) => ({ sale: context.sale!, reason: context.reason.trim() }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'done', params: ({ event }) => event.output },
            emit(({ event }) => ({ type: 'annulled' as const, sale: event.output })),
            assign({ sale: null, reason: '', error: null }),
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
