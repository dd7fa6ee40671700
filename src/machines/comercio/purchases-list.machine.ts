import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Paged } from '../../schemas/list';
import type { Purchase } from '../../schemas/comercio/purchases';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/** Purchases per page of Mis Compras (a customer has few; the server allows up to 100). */
export const PURCHASES_PER_PAGE = 20;

/**
 * Mis Compras (/COMERCIO/MisCompras; issue 16 "Customer screens"): the customer's purchases, one
 * page at a time — loading (GET customer/purchases) → ready | failure (`list.retry`);
 * `list.pageChanged {page}` loads that page. Injected: actor `fetchPage`, action `reportApiError`.
 */
export const purchasesListMachine = setup({
  types: {
    context: {} as { page: number; rows: Purchase[]; total: number; error: string | null },
    events: {} as { type: 'list.pageChanged'; page: number } | { type: 'list.retry' },
  },
  actors: { fetchPage: placeholder<Paged<Purchase>, { page: number; per_page: number }>('fetchPage') },
  actions: { reportApiError: (_, _error: ApiError) => {} },
}).createMachine({
  id: 'purchasesList',
  context: { page: 1, rows: [], total: 0, error: null },
  initial: 'loading',
  on: {
    'list.pageChanged': { target: '.loading', reenter: true, actions: assign(({ event }) => ({ page: Math.max(1, event.page) })) },
  },
  states: {
    loading: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ page: context.page, per_page: PURCHASES_PER_PAGE }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ rows: event.output.data, total: event.output.meta.total, error: null })),
        },
        onError: {
          target: 'failure',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    ready: {},
    failure: { on: { 'list.retry': 'loading' } },
  },
});
export type PurchasesListMachine = typeof purchasesListMachine;
