import { fromCallback, fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { createDashboardApi, type DashboardApi } from '../../api/inicio/dashboard';
import type { DashboardChangedEvent } from '../../schemas/inicio/dashboard';
import { dashboardCardMachine } from './dashboard-card.machine';
import { dashboardChangedEvent, dashboardMachine, type DashboardEvent } from './dashboard.machine';

/**
 * Inicio's dashboard (docs/dashboard.md; docs/decisions.md "Inicio: the screen"): the dashboard
 * machine (./dashboard.machine.ts) provided with each card's api call (the card machine's `fetch`
 * actor: `api[card]()`) and the app's subscription to the realtime DashboardChanged pushes. Loaded
 * on demand with Inicio (src/config/screens.ts `dashboard`).
 */

export interface DashboardMachinesDeps {
  /** One call per card (src/api/inicio/dashboard.ts; tests pass fakes). */
  api: DashboardApi;
  /** Subscribes to the realtime DashboardChanged pushes; @returns the unsubscribe function. */
  onDashboardChanged: (listener: (payload: DashboardChangedEvent) => void) => () => void;
}

export function createDashboardMachines(deps: DashboardMachinesDeps) {
  const card = dashboardCardMachine.provide({
    actors: { fetch: fromPromise(({ input }) => deps.api[input.card]()) },
  });
  const dashboard = dashboardMachine.provide({
    actors: {
      card,
      changes: fromCallback<DashboardEvent>(({ sendBack }) =>
        deps.onDashboardChanged((payload) => sendBack(dashboardChangedEvent(payload))),
      ),
    },
  });
  return { dashboard };
}
export type DashboardMachines = ReturnType<typeof createDashboardMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with Inicio). */
export function createDashboardMachinesFor(client: ApiClient, deps: Omit<DashboardMachinesDeps, 'api'>) {
  return createDashboardMachines({ ...deps, api: createDashboardApi(client) });
}
