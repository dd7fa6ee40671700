import { enqueueActions, fromCallback, setup, type ActorRefFrom } from 'xstate';
import type { DashboardCardId, DashboardChangedEvent } from '../../schemas/inicio/dashboard';
import { dashboardCardMachine } from './dashboard-card.machine';
import { permittedDashboardCards } from './dashboard-cards';

/**
 * Inicio's dashboard (docs/dashboard.md; docs/decisions.md "Inicio: the screen"): one
 * {@link dashboardCardMachine} per card the user's permissions allow (./dashboard-cards.ts), spawned
 * at start in the layout order, each fetching its own figures. While it runs it listens to the
 * realtime DashboardChanged pushes (the `changes` actor, provided with the app's subscription) and
 * sends `refresh` to the cards a push names — only those, and only the ones spawned.
 */

export interface DashboardInput {
  /** The signed-in user's permission strings (the session's `accesos`). */
  permissions: readonly string[];
}

export type DashboardCardRef = ActorRefFrom<typeof dashboardCardMachine>;

export interface DashboardContext {
  /** The spawned cards, in layout order. */
  cards: { id: DashboardCardId; ref: DashboardCardRef }[];
}

export type DashboardEvent = { type: 'dashboard.changed'; cards: readonly string[] };

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    input: {} as DashboardInput,
  },
  actors: {
    card: dashboardCardMachine,
    /** Reports each realtime DashboardChanged payload as `dashboard.changed` until stopped (provided by the app). */
    changes: fromCallback<DashboardEvent>(() => () => {}),
  },
  actions: {
    /** Sends `refresh` to each spawned card the push names (unknown names are ignored). */
    refreshNamed: enqueueActions(({ context, event, enqueue }) => {
      const named = new Set(event.cards);
      for (const card of context.cards) if (named.has(card.id)) enqueue.sendTo(card.ref, { type: 'refresh' });
    }),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input, spawn }) => ({
    cards: permittedDashboardCards(input.permissions).map((id) => ({ id, ref: spawn('card', { id, input: { card: id } }) })),
  }),
  invoke: { src: 'changes' },
  on: { 'dashboard.changed': { actions: 'refreshNamed' } },
});

export type DashboardMachine = typeof dashboardMachine;

/** The realtime payload as the dashboard's event. */
export const dashboardChangedEvent = (payload: DashboardChangedEvent): DashboardEvent => ({
  type: 'dashboard.changed',
  cards: payload.cards,
});

/** The figures of each card by id (the card machines' `data`), for the views. */
export type { DashboardCardData } from '../../api/inicio/dashboard';
