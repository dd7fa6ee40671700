import { assign, fromPromise, setup } from 'xstate';
import type { DashboardCardId } from '../../schemas/inicio/dashboard';
import { errorMessage } from '../shared/api-errors';

/**
 * One card of Inicio (docs/dashboard.md; src/schemas/inicio/dashboard.ts): its call and what the
 * card shows.
 *
 *   loading → ready.idle | failed
 *   ready.idle —refresh→ ready.refreshing → ready.idle (new figures) | failed
 *   failed —retry→ loading (or ready.refreshing when figures were shown before)
 *
 * `refresh` (a realtime DashboardChanged naming the card) fetches again while the figures already
 * shown stay on screen; one arriving during a fetch starts it over, so the answer shown is never
 * older than the change. A failure keeps the error's Spanish message (the server's, or the network
 * message: src/machines/shared/api-errors.ts) for the card's Callout with "Reintentar"; 401/402/404
 * are handled app-wide by the api client and the session.
 *
 * The call is the `fetch` actor, whose input is the card id: the dashboard provides it with the
 * card's api function (./dashboard.actors.ts); tests provide fakes.
 */

export interface DashboardCardInput {
  card: DashboardCardId;
}

export interface DashboardCardContext {
  card: DashboardCardId;
  /** The figures last received (the card's response `data`), null before the first answer. */
  data: unknown;
  /** Spanish message of the last failure, null otherwise. */
  error: string | null;
}

export type DashboardCardEvent = { type: 'retry' } | { type: 'refresh' };

export const dashboardCardMachine = setup({
  types: {
    context: {} as DashboardCardContext,
    events: {} as DashboardCardEvent,
    input: {} as DashboardCardInput,
  },
  actors: {
    /** GET /api/dashboard/<card>: resolves with the card's figures (provided by the dashboard). */
    fetch: fromPromise<unknown, DashboardCardInput>(async () => null),
  },
  guards: {
    hasData: ({ context }) => context.data !== null,
  },
}).createMachine({
  id: 'dashboardCard',
  context: ({ input }) => ({ card: input.card, data: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetch',
        input: ({ context }) => ({ card: context.card }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ data: event.output, error: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorMessage(event.error) })) },
      },
      on: { refresh: { target: 'loading', reenter: true } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: { on: { refresh: 'refreshing' } },
        refreshing: {
          invoke: {
            src: 'fetch',
            input: ({ context }) => ({ card: context.card }),
            onDone: { target: 'idle', actions: assign(({ event }) => ({ data: event.output, error: null })) },
            onError: { target: '#dashboardCard.failed', actions: assign(({ event }) => ({ error: errorMessage(event.error) })) },
          },
          on: { refresh: { target: 'refreshing', reenter: true } },
        },
      },
    },
    failed: {
      on: {
        retry: [{ guard: 'hasData', target: 'ready.refreshing' }, { target: 'loading' }],
        refresh: [{ guard: 'hasData', target: 'ready.refreshing' }, { target: 'loading' }],
      },
    },
  },
});

export type DashboardCardMachine = typeof dashboardCardMachine;
