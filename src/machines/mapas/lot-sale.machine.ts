import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Sale } from '../../schemas/comercio/sales';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * The sale of the lot selected on the sales and heat maps (issue "CRM and sales": "MapSales shows
 * the buyer, agent and sale date of each sold lot"). `sale.forLot {lotId, sold}`: a sold lot loads
 * its sale (the one not ANULADA), any other clears it. idle | loading → shown (`sale` null when the
 * lot has none) | failed.
 */
export const lotSaleMachine = setup({
  types: {
    context: {} as { lotId: number | null; sale: Sale | null; error: string | null },
    events: {} as { type: 'sale.forLot'; lotId: number | null; sold: boolean },
  },
  actors: { load: placeholder<Sale | null, { lotId: number }>('load') },
  actions: { reportApiError: (_, _error: ApiError) => {} },
  guards: { soldLot: ({ event }) => event.sold && event.lotId !== null },
}).createMachine({
  id: 'lotSale',
  context: { lotId: null, sale: null, error: null },
  initial: 'idle',
  on: {
    'sale.forLot': [
      {
        guard: 'soldLot',
        target: '.loading',
        reenter: true,
        actions: assign(({ event }) => ({ lotId: event.lotId, sale: null, error: null })),
      },
      { target: '.idle', actions: assign({ lotId: null, sale: null, error: null }) },
    ],
  },
  states: {
    idle: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ lotId: context.lotId! }),
        onDone: { target: 'shown', actions: assign(({ event }) => ({ sale: event.output })) },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    shown: {},
    failed: {},
  },
});
export type LotSaleMachine = typeof lotSaleMachine;
