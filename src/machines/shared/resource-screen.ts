import type { ApiError } from '../../api/client';
import type { AppToaster } from '../../lib/toaster';
import { saveFile } from '../../lib/download';
import { replaceUrlQuery } from '../../lib/location';
import type { ListQuery } from '../../schemas/list';
import { listActors, resourceListMachine, type ExportFile, type FetchPage } from './resource-list.machine';
import { resourceEditorMachine, type SaveInput, type SavedInfo } from './resource-editor.machine';
import { fromPromise } from 'xstate';

/**
 * Wiring of one CRUD screen (issue "Configuración", the CRUD pattern): the list and editor
 * machines provided with the screen's api calls and the app's effects, in one call. The screen's
 * actors module (`src/machines/<area>/<resource>.actors.ts`) calls it with its api module; the
 * view creates the two actors with {@link useResourceActors} (views/shared/resource-hooks.ts),
 * which also links them so a save refreshes the list.
 */

/** Spanish toast per kind of change. */
export const SAVED_MESSAGES: Record<SavedInfo['kind'], string> = {
  created: 'Registro creado',
  updated: 'Cambios guardados',
  deleted: 'Registro eliminado',
};

/** Toast shown when an export had more rows than the cap. */
export const EXPORT_TRUNCATED_MESSAGE = 'Se exportaron solo los primeros 5 000 registros. Use los filtros para acotar la lista.';

export interface ResourceScreenDeps<Row> {
  /** GET list of the resource (design API.md). */
  fetchPage: FetchPage<Row>;
  /** POST (create) or PATCH (edit). */
  save: (input: SaveInput) => Promise<unknown>;
  /**
   * GET of one record, for "Recargar" after a stale edit (src/schemas/versions.ts); leave out for
   * screens without an editor.
   */
  fetchOne?: (record: Record<string, unknown>) => Promise<unknown>;
  /** DELETE; leave out when the resource cannot be deleted. */
  remove?: (record: Record<string, unknown>) => Promise<unknown>;
  /** Receives 401/402/404 (the app passes `error => session.send({ type: 'session.apiError', error })`). */
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Writes the query to the URL (default: `history.replaceState`). */
  syncUrl?: (query: ListQuery) => void;
  /** Saves an export (default: a download link). */
  download?: (file: ExportFile) => void;
}

/** The screen's list and editor machines, provided. */
export function resourceScreenMachines<Row>(deps: ResourceScreenDeps<Row>) {
  const { toaster } = deps;
  const list = resourceListMachine.provide({
    actors: listActors(deps.fetchPage),
    actions: {
      syncUrl: (_, query) => (deps.syncUrl ?? replaceUrlQuery)(query),
      reportApiError: (_, error) => deps.reportApiError(error),
      download: (_, file) => {
        (deps.download ?? saveFile)(file);
        if (file.truncated) toaster.show({ severity: 'warn', summary: 'Exportación parcial', detail: EXPORT_TRUNCATED_MESSAGE, life: 6000 });
      },
    },
  });
  const editor = resourceEditorMachine.provide({
    actors: {
      save: fromPromise<unknown, SaveInput>(({ input }) => deps.save(input)),
      remove: fromPromise<unknown, Record<string, unknown>>(async ({ input }) => {
        if (!deps.remove) throw new Error('Este registro no se puede eliminar');
        return deps.remove(input);
      }),
      reload: fromPromise<Record<string, unknown>, Record<string, unknown>>(async ({ input }) => {
        if (!deps.fetchOne) throw new Error('Este registro no se puede recargar');
        return (await deps.fetchOne(input)) as Record<string, unknown>;
      }),
    },
    actions: {
      saved: (_, info) => toaster.show({ severity: 'success', summary: SAVED_MESSAGES[info.kind] }),
      reportApiError: (_, error) => deps.reportApiError(error),
    },
  });
  return { list, editor };
}

export type ResourceScreenMachines = ReturnType<typeof resourceScreenMachines>;
