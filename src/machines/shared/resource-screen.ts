import { ApiError } from '../../api/client';
import type { AppToaster } from '../../lib/toaster';
import { saveFile } from '../../lib/download';
import { replaceUrlQuery } from '../../lib/location';
import type { ListQuery } from '../../schemas/list';
import { createResourceListMachine, listActors, type ExportFile, type FetchPage } from './resource-list.machine';
import { createResourceEditorMachine, type EditorValues, type SaveInput, type SavedInfo } from './resource-editor.machine';
import { createResourcePageMachine } from './resource-page.machine';
import { fromPromise } from 'xstate';

/**
 * Wiring of one CRUD screen (issue "Configuración", the CRUD pattern): the list and editor
 * machines provided with the screen's api calls and the app's effects, in one call. The screen's
 * actors module (`src/machines/<area>/<resource>.actors.ts`) calls it with its api module; the
 * view starts `page` (resource-page.machine.ts: spawns the list and the editor, and a save
 * refreshes the list) with `useResourceActors` (views/shared/resource-hooks.ts).
 *
 * Typed over the screen's `Row` (list rows, the records the api answers), `Create` and `Update`
 * (the editor's bodies): `save` receives a {@link SaveInput} it can hand to the api as is, with no
 * casts.
 */

/** Spanish toast per kind of change. */
export const SAVED_MESSAGES: Record<SavedInfo<unknown>['kind'], string> = {
  created: 'Registro creado',
  updated: 'Cambios guardados',
  deleted: 'Registro eliminado',
};

/** Toast shown when an export had more rows than the cap. */
export const EXPORT_TRUNCATED_MESSAGE = 'Se exportaron solo los primeros 5 000 registros. Use los filtros para acotar la lista.';

export interface ResourceScreenDeps<Row, Create = EditorValues, Update = Create> {
  /** GET list of the resource (docs/api.md). */
  fetchPage: FetchPage<Row>;
  /** POST (create) or PATCH (edit, the body carrying the record's version). @returns the saved record. */
  save: (input: SaveInput<Row, Create, Update>) => Promise<Row>;
  /**
   * GET of one record, for "Recargar" after a stale edit (src/schemas/versions.ts); leave out for
   * screens without an editor.
   */
  fetchOne?: (record: Row) => Promise<Row>;
  /** DELETE; leave out when the resource cannot be deleted. */
  remove?: (record: Row) => Promise<unknown>;
  /** Receives 401/402/404 (the app passes `error => session.send({ type: 'session.apiError', error })`). */
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Writes the query to the URL (default: `history.replaceState`). */
  syncUrl?: (query: ListQuery) => void;
  /** Saves an export (default: a download link). */
  download?: (file: ExportFile) => void;
}

/**
 * The screen's list and editor machines, provided, and `page`, the screen's machine over them.
 * @typeParam Row the records; @typeParam Create / Update the editor's bodies (Update defaults to Create).
 */
export function resourceScreenMachines<Row extends object, Create extends object = EditorValues, Update extends object = Create>(
  deps: ResourceScreenDeps<Row, Create, Update>,
) {
  const { toaster } = deps;
  const reportApiError = (error: unknown) => {
    if (error instanceof ApiError) deps.reportApiError(error);
  };
  const list = createResourceListMachine<Row>().provide({
    actors: listActors(deps.fetchPage),
    actions: {
      syncUrl: (_, query) => (deps.syncUrl ?? replaceUrlQuery)(query),
      reportApiError: (_, { error }) => reportApiError(error),
      download: (_, file) => {
        (deps.download ?? saveFile)(file);
        if (file.truncated)
          toaster.show({ severity: 'warn', summary: 'Exportación parcial', detail: EXPORT_TRUNCATED_MESSAGE, life: 6000 });
      },
    },
  });
  const editor = createResourceEditorMachine<Row, Create, Update>().provide({
    actors: {
      save: fromPromise<Row, SaveInput<Row, Create, Update>>(({ input }) => deps.save(input)),
      remove: fromPromise<unknown, { record: Row }>(async ({ input }) => {
        if (!deps.remove) throw new Error('Este registro no se puede eliminar');
        return deps.remove(input.record);
      }),
      reload: fromPromise<Row, { record: Row }>(async ({ input }) => {
        if (!deps.fetchOne) throw new Error('Este registro no se puede recargar');
        return deps.fetchOne(input.record);
      }),
    },
    actions: {
      saved: (_, info) => toaster.show({ severity: 'success', summary: SAVED_MESSAGES[info.kind] }),
      reportApiError: (_, { error }) => reportApiError(error),
    },
  });
  return { list, editor, page: createResourcePageMachine<Row, Create, Update>({ list, editor }) };
}

/** What {@link resourceScreenMachines} returns for records `Row`. */
export type ResourceScreenMachines<Row extends object, Create extends object = EditorValues, Update extends object = Create> = ReturnType<
  typeof resourceScreenMachines<Row, Create, Update>
>;
