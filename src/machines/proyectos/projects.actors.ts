import { assign, setup } from 'xstate';
import { ApiError, type ApiClient } from '../../api/client';
import { createLotsApi, type LotsApi } from '../../api/lots';
import { createSubdivisionsApi, type SubdivisionsApi } from '../../api/subdivisions';
import type { AppToaster } from '../../lib/toaster';
import type { CreateLotRequest, CreateSubdivisionRequest, Lot, Subdivision, UpdateLotRequest, UpdateSubdivisionRequest } from '../../schemas/projects';
import { resourceScreenMachines } from '../shared/resource-screen';
import { createBulkPriceMachine } from './bulk-price.machine';
import { createLotStatusMachines } from './lot-status.machine';
import { createLotsWindowMachine } from './lots-window.machine';
import { createPlanImageMachine } from './plan-image.machine';
import { createLotImportMachineFor } from './lot-import.actors';
import { createSubdivisionDetailMachine } from './subdivision-detail.machine';
import { forwardSessionErrors } from '../shared/api-errors';

/** What the Proyectos screens' machines need from the app. */
export interface ProjectsMachinesDeps {
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/**
 * `lotsScreen`: what the lots screen shows besides its list: the standard paged table or "Ver
 * todos" (the virtualised window), the lot whose status history is open (`history.open {lot}`),
 * and the import dialog (`importing`, h2's ImportLotsDialog).
 * `import.done` runs `imported` (refresh the list and the header).
 */
export const lotsScreenMachine = setup({
  types: {
    context: {} as { view: 'paged' | 'all'; historyLot: Lot | null },
    events: {} as
      | { type: 'view.paged' }
      | { type: 'view.all' }
      | { type: 'import.open' }
      | { type: 'import.close' }
      | { type: 'import.done'; created: number; updated: number }
      | { type: 'history.open'; lot: Lot }
      | { type: 'history.close' },
  },
  actions: { imported: (_, _r: { created: number; updated: number }) => {} },
}).createMachine({
  id: 'lotsScreen',
  context: { view: 'paged', historyLot: null },
  initial: 'idle',
  on: {
    'view.paged': { actions: assign({ view: 'paged' as const }) },
    'view.all': { actions: assign({ view: 'all' as const }) },
    'history.open': { actions: assign(({ event }) => ({ historyLot: event.lot })) },
    'history.close': { actions: assign({ historyLot: null }) },
  },
  states: {
    idle: { on: { 'import.open': 'importing' } },
    importing: {
      on: {
        'import.close': 'idle',
        'import.done': { target: 'idle', actions: { type: 'imported', params: ({ event }) => ({ created: event.created, updated: event.updated }) } },
      },
    },
  },
});
export type LotsScreenMachine = typeof lotsScreenMachine;

export interface ProjectsApis {
  subdivisionsApi: SubdivisionsApi;
  lotsApi: LotsApi;
}

/**
 * Machines of /PROYECTOS/lotizaciones and /PROYECTOS/Lotes (loaded on demand with the screens):
 * - `subdivisions`: the CRUD pattern's list + editor over the subdivisions api (save = POST or
 *   PATCH by key; remove = DELETE, a 409 is the form's message); `planImage` (blob → object URL).
 * - `subdivisionDetail`: the lots screen's header, stages and blocks.
 * - `lotsFor(key)`: list + editor of one subdivision's lots (memoised per key).
 * - `lotsWindow`: "Ver todos" (virtualised, pages of 100); `lotsScreen`: view mode + import.
 * - `lotStatus`: `{ status, history }` (also used by the map's lot panel); `bulkPrice`.
 */
export function createProjectsMachines(apis: ProjectsApis, deps: ProjectsMachinesDeps) {
  const { subdivisionsApi, lotsApi } = apis;
  const { toaster } = deps;
  const reportSessionError = forwardSessionErrors(deps.reportApiError);
  /** A refused delete (409: a subdivision with lots, a lot that is not Disponible) is also a toast. */
  const toastRefusal = <T>(promise: Promise<T>) =>
    promise.catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 409) toaster.show({ severity: 'error', summary: 'No se pudo eliminar', detail: error.message, life: 6000 });
      throw error;
    });
  const subdivisions = resourceScreenMachines<Subdivision>({
    fetchPage: subdivisionsApi.list,
    save: ({ mode, record, body }) =>
      mode === 'edit'
        ? subdivisionsApi.update((record as unknown as Subdivision).key, body as UpdateSubdivisionRequest)
        : subdivisionsApi.create(body as CreateSubdivisionRequest),
    remove: (record) => toastRefusal(subdivisionsApi.remove((record as unknown as Subdivision).key)),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const lotsByKey = new Map<string, ReturnType<typeof resourceScreenMachines<Lot>>>();
  const lotsFor = (key: string) => {
    let machines = lotsByKey.get(key);
    if (!machines) {
      machines = resourceScreenMachines<Lot>({
        fetchPage: (query) => lotsApi.list(key, query),
        save: ({ mode, record, body }) =>
          mode === 'edit' ? lotsApi.update((record as unknown as Lot).id, body as UpdateLotRequest) : lotsApi.create(key, body as CreateLotRequest),
        remove: (record) => toastRefusal(lotsApi.remove((record as unknown as Lot).id)),
        reportApiError: deps.reportApiError,
        toaster,
      });
      lotsByKey.set(key, machines);
    }
    return machines;
  };
  return {
    subdivisions,
    planImage: createPlanImageMachine({ subdivisionsApi, reportApiError: deps.reportApiError, toaster }),
    subdivisionDetail: createSubdivisionDetailMachine({ subdivisionsApi, reportApiError: deps.reportApiError }),
    lotsFor,
    lotsWindow: createLotsWindowMachine({ lotsApi, reportApiError: deps.reportApiError }),
    lotsScreen: lotsScreenMachine,
    lotStatus: createLotStatusMachines({ lotsApi, reportApiError: deps.reportApiError, toaster }),
    bulkPrice: createBulkPriceMachine({ lotsApi, reportApiError: reportSessionError, toaster }),
  };
}

/** What the Proyectos screens of this module use (every machine but the import dialog's). */
export type ProjectsScreenMachines = ReturnType<typeof createProjectsMachines>;

/** Builds the api modules on the app's client and the machines (see {@link createProjectsMachines}). */
export function createProjectsMachinesFor(client: ApiClient, deps: ProjectsMachinesDeps) {
  return {
    ...createProjectsMachines({ subdivisionsApi: createSubdivisionsApi(client), lotsApi: createLotsApi(client) }, deps),
    /** The lot-import dialog's machine (h2: lot-import.actors.ts, views/proyectos/ImportLotsDialog.tsx). */
    lotImport: createLotImportMachineFor(client, deps),
  };
}
export type ProjectsMachines = ReturnType<typeof createProjectsMachinesFor>;
