import { assign, raise, setup, type ActorRefFrom } from 'xstate';
import type { InstalmentRow, InstalmentTotals } from '../../schemas/finanzas/instalments';
import type { ListQuery } from '../../schemas/list';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { errorMessage } from '../shared/api-errors';
import type { createLoadOnceMachine } from '../shared/load-once.machine';
import { placeholder } from '../shared/placeholder';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { WaiveLateFeeMachine } from './waive-late-fee.machine';

/** The subdivisions of the filter, loaded once. */
export type SubdivisionOptionsMachine = ReturnType<typeof createLoadOnceMachine<SubdivisionOption[]>>;

export interface InstalmentsPageContext {
  list: ActorRefFrom<ResourceListMachine<InstalmentRow>>;
  waive: ActorRefFrom<WaiveLateFeeMachine>;
  subdivisions: ActorRefFrom<SubdivisionOptionsMachine>;
  /** Totals of the filtered set, one per currency (null before the first answer). */
  totals: InstalmentTotals[] | null;
  /** The query the totals are (being) read for. */
  totalsQuery: ListQuery | null;
  /** Spanish message of a failed totals call. */
  totalsError: string | null;
}

export type InstalmentsPageEvent = { type: 'totals.load'; query: ListQuery } | { type: 'totals.retry' } | { type: 'child.waived' };

/** What the totals depend on: the text and the filters (not the page nor the order). */
export const totalsKey = (query: ListQuery) => JSON.stringify([query.q ?? '', Object.entries(query.filters).sort()]);

/**
 * Finanzas → Registro de Cuotas as one machine (the pattern of resource-page.machine.ts): it spawns
 * the register's list (`list`, the CRUD pattern's list over GET /api/instalments; its export is the
 * server's file), the "Condonar mora" form (`waive`) and the subdivisions of the filter
 * (`subdivisions`), and keeps the totals of the filtered set: read again whenever the list starts
 * loading a query with other filters or text (`totals.load`), and after a waiver, which also
 * refreshes the list. The view reads the refs and `totals` and sends events; it coordinates nothing.
 * Provide actor `fetchTotals` (query → totals).
 */
export function createInstalmentsPageMachine(children: {
  list: ResourceListMachine<InstalmentRow>;
  waive: WaiveLateFeeMachine;
  subdivisions: SubdivisionOptionsMachine;
}) {
  return setup({
    types: {
      context: {} as InstalmentsPageContext,
      events: {} as InstalmentsPageEvent,
      input: {} as { list: ResourceListInput<InstalmentRow> },
    },
    actors: { ...children, fetchTotals: placeholder<InstalmentTotals[], ListQuery>('fetchTotals') },
    actions: {
      /** The waiver's `waived` → `child.waived`; each new filter set the list loads → `totals.load`. */
      listenToChildren: ({ context, self }) => {
        context.waive.on('waived', () => self.send({ type: 'child.waived' }));
        let shown = totalsKey(context.list.getSnapshot().context.query);
        context.list.subscribe((snapshot) => {
          const key = totalsKey(snapshot.context.query);
          if (key === shown || !snapshot.matches({ list: 'loading' })) return;
          shown = key;
          self.send({ type: 'totals.load', query: snapshot.context.query });
        });
      },
      refreshList: ({ context }) => context.list.send({ type: 'list.refresh' }),
    },
  }).createMachine({
    id: 'instalmentsPage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      waive: spawn('waive', { id: 'waive' }),
      subdivisions: spawn('subdivisions', { id: 'subdivisions' }),
      totals: null,
      totalsQuery: null,
      totalsError: null,
    }),
    entry: [
      'listenToChildren',
      raise(({ context }) => ({ type: 'totals.load' as const, query: context.list.getSnapshot().context.query })),
    ],
    on: {
      'child.waived': {
        actions: [
          'refreshList',
          raise(({ context }) => ({ type: 'totals.load' as const, query: context.list.getSnapshot().context.query })),
        ],
      },
    },
    initial: 'idle',
    states: {
      idle: {
        on: { 'totals.load': { target: 'loading', actions: assign(({ event }) => ({ totalsQuery: event.query })) } },
      },
      loading: {
        on: { 'totals.load': { target: 'loading', reenter: true, actions: assign(({ event }) => ({ totalsQuery: event.query })) } },
        invoke: {
          src: 'fetchTotals',
          input: ({ context }) => context.totalsQuery!,
          onDone: { target: 'ready', actions: assign(({ event }) => ({ totals: event.output, totalsError: null })) },
          onError: { target: 'failure', actions: assign(({ event }) => ({ totalsError: errorMessage(event.error) })) },
        },
      },
      ready: {
        on: { 'totals.load': { target: 'loading', actions: assign(({ event }) => ({ totalsQuery: event.query })) } },
      },
      failure: {
        on: {
          'totals.load': { target: 'loading', actions: assign(({ event }) => ({ totalsQuery: event.query })) },
          'totals.retry': 'loading',
        },
      },
    },
  });
}
export type InstalmentsPageMachine = ReturnType<typeof createInstalmentsPageMachine>;
