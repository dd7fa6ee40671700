import { assign, setup } from 'xstate';
import type { ChangeHistoryEntry } from '../../schemas/historial/change-history';

/**
 * `changeDetail` (Historial de Cambios, issue "Configuración and Historial de cambios"): which
 * change's before/after table the drawer shows. States: closed → open (context `entry`, the row
 * chosen with "Ver cambios") → closed. Opening another row while open replaces the entry. No
 * effects: the entry is the list row already fetched (GET change-history), nothing is loaded.
 *
 * Events: `detail.open {entry}`, `detail.close`.
 */

export interface ChangeDetailContext {
  /** The change shown in the drawer; null while closed. */
  entry: ChangeHistoryEntry | null;
}

/** `detail.open`: show `entry`'s before/after table (replacing any open one); `detail.close`: hide it. */
export type ChangeDetailEvent = { type: 'detail.open'; entry: ChangeHistoryEntry } | { type: 'detail.close' };

/** The drawer's machine (see the file comment); started by the page with `useActorRef`. */
export const changeDetailMachine = setup({
  types: { context: {} as ChangeDetailContext, events: {} as ChangeDetailEvent },
  actions: {
    /** Keeps the row of a `detail.open`. */
    show: assign({ entry: ({ event }) => (event.type === 'detail.open' ? event.entry : null) }),
    /** Forgets the shown row. */
    clear: assign({ entry: null }),
  },
}).createMachine({
  id: 'changeDetail',
  context: { entry: null },
  initial: 'closed',
  states: {
    closed: { on: { 'detail.open': { target: 'open', actions: 'show' } } },
    open: {
      on: {
        'detail.open': { actions: 'show' },
        'detail.close': { target: 'closed', actions: 'clear' },
      },
    },
  },
});

export type ChangeDetailMachine = typeof changeDetailMachine;
