import { assign, fromPromise, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { LotsApi } from '../../api/proyectos/lots';
import type { ListQuery } from '../../schemas/list';
import type { Lot } from '../../schemas/proyectos/projects';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';

/**
 * "Ver todos": every lot of the current view (search, filters, sort) in one virtualised table
 * (issue "Proyectos": "lots list of 5 000 rows scrolls virtualised"). The API pages at ≤ 100 rows,
 * so the machine loads pages of {@link WINDOW_PAGE_SIZE} on demand: the table reports the rows
 * it shows (`window.need {from, to}`, 0-based, inclusive) and the machine fetches, one at a time,
 * the first page of that range not loaded yet; rows not loaded read as undefined (skeleton cells).
 *
 * Input `{ key, query }`; nothing is fetched until `window.reset {query}` (sent when the table is
 * shown, and again when the search or filters change). States: dormant → loading ⇄ idle | failure
 * (`window.retry`).
 */

/** Rows per request (the API maximum). */
export const WINDOW_PAGE_SIZE = 100;

export interface LotsWindowContext {
  key: string;
  query: ListQuery;
  /** Loaded pages by 1-based page number. */
  pages: Record<number, Lot[]>;
  /** Total rows of the view (null until the first page answers). */
  total: number | null;
  /** Rows the table shows now. */
  wanted: { from: number; to: number };
  /** The page being fetched. */
  loadingPage: number | null;
  error: string | null;
}

export type LotsWindowEvent =
  { type: 'window.need'; from: number; to: number } | { type: 'window.reset'; query: ListQuery } | { type: 'window.retry' };

/** The 1-based page holding row `index`. */
export const pageOf = (index: number) => Math.floor(index / WINDOW_PAGE_SIZE) + 1;

/** The first page of the wanted range that is not loaded, or null. */
export function missingPage(context: Pick<LotsWindowContext, 'pages' | 'total' | 'wanted'>): number | null {
  const last =
    context.total === null
      ? pageOf(context.wanted.to)
      : Math.min(pageOf(context.wanted.to), Math.max(1, Math.ceil(context.total / WINDOW_PAGE_SIZE)));
  for (let p = pageOf(Math.max(0, context.wanted.from)); p <= last; p += 1) if (!context.pages[p]) return p;
  return null;
}

/** Row `index` of the view, or undefined while its page loads. */
export function rowAt(pages: Record<number, Lot[]>, index: number): Lot | undefined {
  return pages[pageOf(index)]?.[index % WINDOW_PAGE_SIZE];
}

export const lotsWindowMachine = setup({
  types: {
    context: {} as LotsWindowContext,
    events: {} as LotsWindowEvent,
    input: {} as { key: string; query: ListQuery },
  },
  actors: {
    fetchPage: placeholder<{ data: Lot[]; meta: { total: number } }, { key: string; query: ListQuery }>('fetchPage'),
  },
  actions: { reportApiError: (_, _e: ApiError) => {} },
  guards: { hasMissing: ({ context }) => missingPage(context) !== null },
}).createMachine({
  id: 'lotsWindow',
  context: ({ input }) => ({
    key: input.key,
    query: input.query,
    pages: {},
    total: null,
    wanted: { from: 0, to: WINDOW_PAGE_SIZE - 1 },
    loadingPage: null,
    error: null,
  }),
  initial: 'dormant',
  on: {
    'window.need': { actions: assign(({ event }) => ({ wanted: { from: event.from, to: event.to } })) },
    'window.reset': {
      target: '.idle',
      reenter: true,
      actions: assign(({ event }) => ({
        query: event.query,
        pages: {},
        total: null,
        loadingPage: null,
        error: null,
        wanted: { from: 0, to: WINDOW_PAGE_SIZE - 1 },
      })),
    },
  },
  states: {
    /** Nothing fetched until the first `window.reset` (the table is shown). */
    dormant: {},
    idle: { always: { guard: 'hasMissing', target: 'loading' } },
    loading: {
      entry: assign(({ context }) => ({ loadingPage: missingPage(context) ?? 1 })),
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ key: context.key, query: { ...context.query, page: context.loadingPage!, per_page: WINDOW_PAGE_SIZE } }),
        onDone: {
          target: 'idle',
          actions: assign(({ context, event }) => ({
            pages: { ...context.pages, [context.loadingPage!]: event.output.data },
            total: event.output.meta.total,
            loadingPage: null,
            error: null,
          })),
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
    failure: { on: { 'window.retry': 'idle' } },
  },
});
export type LotsWindowMachine = typeof lotsWindowMachine;

/** Provided with the lots api. */
export function createLotsWindowMachine(deps: {
  lotsApi: Pick<LotsApi, 'list'>;
  reportApiError: (e: ApiError) => void;
}): LotsWindowMachine {
  return lotsWindowMachine.provide({
    actors: { fetchPage: fromPromise(({ input }) => deps.lotsApi.list(input.key, input.query)) },
    actions: {
      reportApiError: (_, e) => forwardSessionErrors(deps.reportApiError)(e),
    },
  });
}
