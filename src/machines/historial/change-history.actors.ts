import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createChangeHistoryApi, type ChangeHistoryApi } from '../../api/historial/change-history';
import { createUsersApi, type UsersApi } from '../../api/configuracion/users';
import { saveFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import { todayInLima } from '../../lib/dates';
import type { ChangeHistoryEntry } from '../../schemas/historial/change-history';
import type { ListQuery } from '../../schemas/list';
import { resourceScreenMachines } from '../shared/resource-screen';
import { placeholder } from '../shared/placeholder';
import { isSessionError } from '../shared/api-errors';
import { changeDetailMachine } from './change-detail.machine';

/**
 * Historial de Cambios (issue "Configuración", docs/decisions.md "Configuración y Historial de
 * cambios"): the CRUD pattern's list (read-only: no editor) over GET change-history, the server's
 * CSV export (GET change-history/export.csv with the list's filters, {@link csvExportMachine}), the
 * staff users offered by the "Usuario" filter (`userOptions`) and the drawer showing one change's
 * before/after table ({@link changeDetailMachine}).
 */

export const CSV_EXPORT_FAILED = 'No se pudo exportar el historial';

/** `csvExport`: idle → exporting (GET export.csv with the query) → idle; the file is saved on success. */
export const csvExportMachine = setup({
  types: {
    context: {} as { error: string | null },
    events: {} as { type: 'csv.export'; query: ListQuery },
  },
  actors: { exportCsv: placeholder<Blob, ListQuery>('exportCsv') },
  actions: {
    download: (_, _blob: Blob) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'changeHistoryCsv',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: { on: { 'csv.export': 'exporting' } },
    exporting: {
      entry: assign({ error: null }),
      invoke: {
        src: 'exportCsv',
        input: ({ event }) => {
          assertEvent(event, 'csv.export');
          return event.query;
        },
        onDone: { target: 'idle', actions: { type: 'download', params: ({ event }) => event.output } },
        onError: {
          target: 'idle',
          actions: [
            assign({ error: ({ event }) => (event.error as Error).message || CSV_EXPORT_FAILED }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});

/** One option of the "Usuario" filter. */
export interface UserOption {
  id: number;
  name: string;
}

export interface ChangeHistoryDeps {
  api: Pick<ChangeHistoryApi, 'list' | 'exportCsv'>;
  /** Staff users for the "Usuario" filter (the first 100 by name; an empty list when it fails). */
  usersApi: Pick<UsersApi, 'list'>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a file (default: the browser download of src/lib/download.ts). */
  save?: typeof saveFile;
}

/**
 * The screen's machines provided with their effects: `list` (resource list), `csvExport`,
 * `userOptions` (promise actor) and `detail` (the drawer, no effects).
 */
export function createChangeHistoryMachines(deps: ChangeHistoryDeps) {
  const { list } = resourceScreenMachines<ChangeHistoryEntry>({
    fetchPage: deps.api.list,
    save: () => Promise.reject(new Error('El historial de cambios es de solo lectura')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const save = deps.save ?? saveFile;
  const csvExport = csvExportMachine.provide({
    actors: { exportCsv: fromPromise<Blob, ListQuery>(({ input }) => deps.api.exportCsv(input)) },
    actions: {
      download: (_, blob) => {
        void blob.arrayBuffer().then((buffer) =>
          save({
            fileName: `historial-de-cambios-${todayInLima()}.csv`,
            mime: 'text/csv;charset=utf-8',
            content: new Uint8Array(buffer),
          }),
        );
      },
      reportApiError: (_, error) => {
        if (isSessionError(error)) deps.reportApiError(error);
        else deps.toaster.show({ severity: 'error', summary: CSV_EXPORT_FAILED, detail: error.message });
      },
    },
  });
  const userOptions = fromPromise<UserOption[]>(async () => {
    try {
      const page = await deps.usersApi.list({ page: 1, per_page: 100, sort: 'name', filters: {} });
      return page.data.map((u) => ({ id: u.id, name: `${u.name} ${u.surname}` }));
    } catch {
      return [];
    }
  });
  return { list, csvExport, userOptions, detail: changeDetailMachine };
}
export type ChangeHistoryMachines = ReturnType<typeof createChangeHistoryMachines>;

/** {@link createChangeHistoryMachines} over the app's api client (ON_DEMAND_MACHINES.changeHistory). */
export function createChangeHistoryMachinesFor(
  client: ApiClient,
  deps: Omit<ChangeHistoryDeps, 'api' | 'usersApi'>,
): ChangeHistoryMachines {
  return createChangeHistoryMachines({ ...deps, api: createChangeHistoryApi(client), usersApi: createUsersApi(client) });
}
