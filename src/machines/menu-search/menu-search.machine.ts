import { assign, setup } from 'xstate';
import type { MenuItem } from '../../schemas/session';

/**
 * The `menu-search` machine (issue "Shell"; docs/product.md §2 "Shortcut search box", §5, §9): the user types,
 * and 250 ms after the last keystroke the submodules are filtered by a case-insensitive substring
 * of `nombre`; an empty or blank query shows them all. Picking one navigates to its route and
 * clears the box. States: idle (results current) → debouncing (a query waits 250 ms).
 * `search.flush` (Enter) filters at once: Enter acts on what is typed now, even within the 250 ms
 * (issue "Shell, exactly as specified" item 3: "banc" + fast Enter opened Usuarios, the first item
 * of the unfiltered list).
 */

/** Shortcut search delay (docs/product.md §9). */
export const MENU_SEARCH_DELAY_MS = 250;

export interface MenuSearchContext {
  /** Every submodule the user may open (from permissions_names). */
  items: MenuItem[];
  /** What the box shows. */
  query: string;
  /** Items matching the last settled query. */
  results: MenuItem[];
}

export type MenuSearchEvent =
  | { type: 'search.typed'; query: string }
  | { type: 'search.picked'; item: MenuItem }
  | { type: 'search.flush' }
  | { type: 'search.itemsChanged'; items: MenuItem[] };

/**
 * docs/product.md §5: blank → all items; otherwise case-insensitive substring match on `nombre`.
 * @returns the matching items in their menu order.
 */
export function filterMenuItems(items: readonly MenuItem[], query: string): MenuItem[] {
  const needle = query.trim().toLocaleLowerCase('es');
  if (needle === '') return [...items];
  return items.filter((item) => item.nombre.toLocaleLowerCase('es').includes(needle));
}

export const menuSearchMachine = setup({
  types: {
    context: {} as MenuSearchContext,
    events: {} as MenuSearchEvent,
    input: {} as { items: MenuItem[] },
  },
  delays: { searchDelay: MENU_SEARCH_DELAY_MS },
  actions: {
    /** Navigates to a route (wouter navigate, injected). */
    navigate: (_, _params: { to: string }) => {},
    recordQuery: assign({ query: ({ context, event }) => (event.type === 'search.typed' ? event.query : context.query) }),
    applyQuery: assign({ results: ({ context }) => filterMenuItems(context.items, context.query) }),
    clear: assign(({ context }) => ({ query: '', results: [...context.items] })),
    replaceItems: assign(({ context, event }) => {
      if (event.type !== 'search.itemsChanged') return {};
      return { items: event.items, results: filterMenuItems(event.items, context.query) };
    }),
  },
}).createMachine({
  id: 'menuSearch',
  context: ({ input }) => ({ items: input.items, query: '', results: [...input.items] }),
  initial: 'idle',
  on: {
    'search.typed': { target: '.debouncing', reenter: true, actions: 'recordQuery' },
    'search.picked': {
      target: '.idle',
      actions: [{ type: 'navigate', params: ({ event }) => ({ to: event.item.ruta }) }, 'clear'],
    },
    'search.itemsChanged': { actions: 'replaceItems' },
  },
  states: {
    idle: {},
    debouncing: {
      after: { searchDelay: { target: 'idle', actions: 'applyQuery' } },
      on: { 'search.flush': { target: 'idle', actions: 'applyQuery' } },
    },
  },
});

export type MenuSearchMachine = typeof menuSearchMachine;
