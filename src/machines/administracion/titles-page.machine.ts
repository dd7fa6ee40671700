import { assign, setup, type ActorRefFrom } from 'xstate';
import type { TitleBoard, TitleProcess, TitleProcessDetail } from '../../schemas/administracion/titles';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { errorMessage } from '../shared/api-errors';
import type { createLoadOnceMachine } from '../shared/load-once.machine';
import { placeholder } from '../shared/placeholder';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { TitleCreateMachine } from './title-create.machine';
import type { TitleDetailMachine } from './title-detail.machine';
import type { TitleTransitionMachine } from './title-transition.machine';

/** The subdivisions of the filter, loaded once. */
export type TitleSubdivisionsMachine = ReturnType<typeof createLoadOnceMachine<SubdivisionOption[]>>;

export interface TitlesPageContext {
  list: ActorRefFrom<ResourceListMachine<TitleProcess>>;
  create: ActorRefFrom<TitleCreateMachine>;
  detail: ActorRefFrom<TitleDetailMachine>;
  transition: ActorRefFrom<TitleTransitionMachine>;
  subdivisions: ActorRefFrom<TitleSubdivisionsMachine>;
  /** Processes per state (null before the first answer). */
  board: TitleBoard | null;
  /** The subdivision the board counts (the list's filter). */
  boardSubdivision: number | undefined;
  boardError: string | null;
}

export type TitlesPageEvent =
  | { type: 'board.load'; subdivisionId: number | undefined }
  | { type: 'board.retry' }
  | { type: 'board.select'; state: string | undefined }
  | { type: 'child.changed'; process?: TitleProcessDetail };

/** The list's subdivision filter as a number. */
const subdivisionOf = (value: string | undefined): number | undefined => (value ? Number(value) : undefined);

/**
 * Administración → Registros de partidas y títulos as one machine (the pattern of
 * resource-page.machine.ts): it spawns the list (`list`), "Nuevo trámite" (`create`), the drawer
 * (`detail`), "Cambiar estado" (`transition`) and the subdivisions of the filter, and keeps the
 * board — processes per state, read again when the list's subdivision changes and after every
 * change. `board.select {state}` filters the list by that state (again: all states). A process
 * created opens in the drawer; a move refreshes the list, the board and the drawer.
 * Provide actor `fetchBoard` (subdivision id → board).
 */
export function createTitlesPageMachine(children: {
  list: ResourceListMachine<TitleProcess>;
  create: TitleCreateMachine;
  detail: TitleDetailMachine;
  transition: TitleTransitionMachine;
  subdivisions: TitleSubdivisionsMachine;
}) {
  return setup({
    types: {
      context: {} as TitlesPageContext,
      events: {} as TitlesPageEvent,
      input: {} as { list: ResourceListInput<TitleProcess> },
    },
    actors: { ...children, fetchBoard: placeholder<TitleBoard, number | undefined>('fetchBoard') },
    actions: {
      listenToChildren: ({ context, self }) => {
        context.create.on('created', ({ process }) => {
          self.send({ type: 'child.changed' });
          context.detail.send({ type: 'detail.open', id: process.id });
        });
        context.transition.on('moved', ({ process }) => self.send({ type: 'child.changed', process }));
        context.detail.on('saved', () => self.send({ type: 'child.changed' }));
        let shown = context.list.getSnapshot().context.query.filters.subdivision_id;
        context.list.subscribe((snapshot) => {
          const subdivision = snapshot.context.query.filters.subdivision_id;
          if (subdivision === shown) return;
          shown = subdivision;
          self.send({ type: 'board.load', subdivisionId: subdivisionOf(subdivision) });
        });
      },
    },
  }).createMachine({
    id: 'titlesPage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      create: spawn('create', { id: 'create' }),
      detail: spawn('detail', { id: 'detail' }),
      transition: spawn('transition', { id: 'transition' }),
      subdivisions: spawn('subdivisions', { id: 'subdivisions' }),
      board: null,
      boardSubdivision: subdivisionOf(input.list.query?.filters?.subdivision_id),
      boardError: null,
    }),
    entry: 'listenToChildren',
    on: {
      'board.load': { target: '.loading', reenter: true, actions: assign(({ event }) => ({ boardSubdivision: event.subdivisionId })) },
      'board.select': {
        actions: ({ context, event }) => context.list.send({ type: 'list.filterChanged', field: 'state', value: event.state }),
      },
      'child.changed': {
        target: '.loading',
        reenter: true,
        actions: ({ context, event }) => {
          context.list.send({ type: 'list.refresh' });
          if (event.process) context.detail.send({ type: 'detail.updated', process: event.process });
        },
      },
    },
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          src: 'fetchBoard',
          input: ({ context }) => context.boardSubdivision,
          onDone: { target: 'ready', actions: assign(({ event }) => ({ board: event.output, boardError: null })) },
          onError: { target: 'failure', actions: assign(({ event }) => ({ boardError: errorMessage(event.error) })) },
        },
      },
      ready: {},
      failure: { on: { 'board.retry': 'loading' } },
    },
  });
}
export type TitlesPageMachine = ReturnType<typeof createTitlesPageMachine>;
