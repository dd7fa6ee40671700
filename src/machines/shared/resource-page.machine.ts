import { setup, type ActorRefFrom } from 'xstate';
import type { ResourceListInput, ResourceListMachine } from './resource-list.machine';
import type { EditorValues, ResourceEditorInput, ResourceEditorMachine } from './resource-editor.machine';

/** Input of a CRUD screen's machine: its list's (columns, query from the URL) and its editor's. */
export interface ResourcePageInput<Row, Create = EditorValues, Update = Create> {
  list: ResourceListInput<Row>;
  editor: ResourceEditorInput<Row, Create, Update>;
}

/** From the children, through their emitted events. */
export type ResourcePageEvent = { type: 'child.saved' };

/**
 * One CRUD screen as one machine (issue "One place per screen" item 3; the pattern of
 * proyectos/lots-page.machine.ts): it spawns the screen's list (`list`) and editor (`editor`) and,
 * when the editor emits `saved` (a record was created, updated or deleted), refreshes the list.
 * The view reads the two refs from `context` (stable for the screen's life) and sends events to
 * them; it coordinates nothing. Usuarios, Roles y permisos and Lotizaciones use it through
 * `useResourceActors` (views/shared/resource-hooks.ts).
 * @typeParam Row the records; Create / Update the editor's bodies.
 * @returns a machine whose context holds `list` and `editor`.
 */
export function createResourcePageMachine<
  Row extends object,
  Create extends object = EditorValues,
  Update extends object = Create,
>(children: { list: ResourceListMachine<Row>; editor: ResourceEditorMachine<Row, Create, Update> }) {
  return setup({
    types: {
      context: {} as { list: ActorRefFrom<ResourceListMachine<Row>>; editor: ActorRefFrom<ResourceEditorMachine<Row, Create, Update>> },
      events: {} as ResourcePageEvent,
      input: {} as ResourcePageInput<Row, Create, Update>,
    },
    actors: children,
    actions: {
      /** The editor's `saved` → `child.saved` (the subscription ends with the child). */
      listenToChildren: ({ context, self }) => {
        context.editor.on('saved', () => self.send({ type: 'child.saved' }));
      },
      refreshList: ({ context }) => context.list.send({ type: 'list.refresh' }),
    },
  }).createMachine({
    id: 'resourcePage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      editor: spawn('editor', { id: 'editor', input: input.editor }),
    }),
    entry: 'listenToChildren',
    on: { 'child.saved': { actions: 'refreshList' } },
  });
}
export type ResourcePageMachine<Row extends object, Create extends object = EditorValues, Update extends object = Create> = ReturnType<
  typeof createResourcePageMachine<Row, Create, Update>
>;
