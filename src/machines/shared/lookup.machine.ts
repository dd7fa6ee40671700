import { assign, setup } from 'xstate';
import { placeholder } from './placeholder';
import { errorMessage } from './api-errors';

/** Debounce of a lookup's search, in ms (the lists' search uses the same). */
export const LOOKUP_DEBOUNCE_MS = 300;

/**
 * A search-as-you-type picker's state (Blueprint Suggest over the server): idle →
 * (`lookup.typed {text}`) debouncing → searching → idle with `results`. A blank text clears the
 * results; a failure keeps none and sets `error`. Provide actor `search` ({text} → items).
 * Used by the spouse picker of Clientes and the customer picker of a reservation.
 * @typeParam T the items offered.
 */
export function createLookupMachine<T>(id: string) {
  return setup({
    types: {
      context: {} as { text: string; results: T[]; error: string | null },
      events: {} as { type: 'lookup.typed'; text: string },
    },
    actors: { search: placeholder<T[], { text: string }>('search') },
    delays: { debounce: LOOKUP_DEBOUNCE_MS },
    guards: { blank: ({ context }) => context.text.trim() === '' },
  }).createMachine({
    id,
    context: { text: '', results: [], error: null },
    initial: 'idle',
    on: { 'lookup.typed': { target: '.debouncing', actions: assign(({ event }) => ({ text: event.text })) } },
    states: {
      idle: {},
      debouncing: {
        after: {
          debounce: [{ guard: 'blank', target: 'idle', actions: assign({ results: [], error: null }) }, { target: 'searching' }],
        },
      },
      searching: {
        invoke: {
          src: 'search',
          input: ({ context }) => ({ text: context.text.trim() }),
          onDone: { target: 'idle', actions: assign(({ event }) => ({ results: event.output, error: null })) },
          onError: { target: 'idle', actions: assign(({ event }) => ({ results: [], error: errorMessage(event.error) })) },
        },
      },
    },
  });
}
export type LookupMachine<T> = ReturnType<typeof createLookupMachine<T>>;
