import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { ExportFormat, ResourceListMachine } from '../../machines/shared/resource-list.machine';
import type { EditorValues, ResourceEditorMachine } from '../../machines/shared/resource-editor.machine';
import type { ResourcePageInput, ResourcePageMachine } from '../../machines/shared/resource-page.machine';
import { inspectOption } from '../../machines/inspect';

/**
 * Selectors and named intents of the CRUD pattern's two machines (docs/architecture.md: views
 * read the machine through selectors and call named-intent hooks). Every shared CRUD view takes
 * the running actor as a prop; a screen creates the actors (usually with `useActorRef`) and passes
 * them down.
 */

/** A running list of rows `Row`. */
export type ResourceListRef<Row = Record<string, unknown>> = ActorRefFrom<ResourceListMachine<Row>>;
export type ResourceListSnapshot<Row = Record<string, unknown>> = SnapshotFrom<ResourceListMachine<Row>>;
/** A running editor of records `Row` with bodies `Create` / `Update`. */
export type ResourceEditorRef<
  Row extends object = EditorValues,
  Create extends object = EditorValues,
  Update extends object = Create,
> = ActorRefFrom<ResourceEditorMachine<Row, Create, Update>>;
export type ResourceEditorSnapshot<
  Row extends object = EditorValues,
  Create extends object = EditorValues,
  Update extends object = Create,
> = SnapshotFrom<ResourceEditorMachine<Row, Create, Update>>;

/** Reads the list machine. */
export function useResourceList<Row, T>(list: ResourceListRef<Row>, selector: (s: ResourceListSnapshot<Row>) => T): T {
  return useSelector(list, selector);
}

/** List intents. */
export function useResourceListEvents<Row>(list: ResourceListRef<Row>) {
  return {
    changePage: (page: number) => list.send({ type: 'list.pageChanged', page }),
    changeSort: (sort: string | undefined) => list.send({ type: 'list.sortChanged', sort }),
    typeSearch: (text: string) => list.send({ type: 'list.searchTyped', text }),
    changeFilter: (field: string, value: string | undefined) => list.send({ type: 'list.filterChanged', field, value }),
    refresh: () => list.send({ type: 'list.refresh' }),
    retry: () => list.send({ type: 'list.retry' }),
    toggleColumn: (key: string) => list.send({ type: 'list.columnToggled', key }),
    exportAs: (format: ExportFormat) => list.send({ type: 'list.export', format }),
  };
}

/** Reads the editor machine. */
export function useResourceEditor<Row extends object, Create extends object, Update extends object, T>(
  editor: ResourceEditorRef<Row, Create, Update>,
  selector: (s: ResourceEditorSnapshot<Row, Create, Update>) => T,
): T {
  return useSelector(editor, selector);
}

/** Editor intents. */
export function useResourceEditorEvents<Row extends object, Create extends object, Update extends object>(
  editor: ResourceEditorRef<Row, Create, Update>,
) {
  return {
    openCreate: (values?: EditorValues) => editor.send({ type: 'editor.openCreate', values }),
    openEdit: (record: Row) => editor.send({ type: 'editor.openEdit', record }),
    change: (field: string, value: unknown) => editor.send({ type: 'editor.changed', field, value }),
    submit: () => editor.send({ type: 'editor.submit' }),
    close: () => editor.send({ type: 'editor.close' }),
    discard: () => editor.send({ type: 'editor.discard' }),
    keepEditing: () => editor.send({ type: 'editor.keepEditing' }),
    askDelete: () => editor.send({ type: 'editor.delete' }),
    confirmDelete: () => editor.send({ type: 'editor.confirmDelete' }),
    cancelDelete: () => editor.send({ type: 'editor.cancelDelete' }),
    reload: () => editor.send({ type: 'editor.reload' }),
  };
}

/** Whether the editor's dialog or drawer is shown (every state but closed and done). */
export function isEditorOpen<Row extends object, Create extends object, Update extends object>(
  s: ResourceEditorSnapshot<Row, Create, Update>,
): boolean {
  return !s.matches('closed') && !s.matches('done');
}

/**
 * Starts a CRUD screen's machine for the life of the screen (resource-page.machine.ts: it spawns
 * the list, input usually parsed from the URL, and the editor, and refreshes the list after a
 * save or delete) and returns its two children.
 * @param machines the screen's provided machines (`resourceScreenMachines(...)` in its actors module).
 */
export function useResourceActors<Row extends object, Create extends object, Update extends object>(
  machines: { page: ResourcePageMachine<Row, Create, Update> },
  inputs: ResourcePageInput<Row, Create, Update>,
): { list: ResourceListRef<Row>; editor: ResourceEditorRef<Row, Create, Update> } {
  const page = useActorRef(machines.page, { input: inputs, ...inspectOption() });
  const list = useSelector(page, (s) => s.context.list);
  const editor = useSelector(page, (s) => s.context.editor);
  return { list, editor };
}
