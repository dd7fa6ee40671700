import { assign, setup } from 'xstate';
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
