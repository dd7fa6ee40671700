import { ApiError, type ApiClient } from '../../api/client';
import { createLotsApi, type LotsApi } from '../../api/proyectos/lots';
import { createSubdivisionsApi, type SubdivisionsApi } from '../../api/proyectos/subdivisions';
import type { AppToaster } from '../../lib/toaster';
import type {
  CreateLotRequest,
  CreateSubdivisionRequest,
  Lot,
  Subdivision,
  UpdateLotRequest,
  UpdateSubdivisionRequest,
} from '../../schemas/proyectos/projects';
import { resourceScreenMachines, type ResourceScreenMachines } from '../shared/resource-screen';
import { createBulkPriceMachine } from './bulk-price.machine';
import { createLotStatusMachines } from './lot-status.machine';
import { createLotHoldsMachine } from './lot-holds.machine';
import { createLotsWindowMachine } from './lots-window.machine';
import { createPlanImageMachine } from './plan-image.machine';
import { createLotImportMachine } from './lot-import.actors';
import { createLotImportsApi, type LotImportsApi } from '../../api/proyectos/lot-imports';
import { createSubdivisionDetailMachine } from './subdivision-detail.machine';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLotsPageMachine, type LotsPageMachine } from './lots-page.machine';
import { createCustomersApi, type CustomersApi } from '../../api/crm/customers';
import { createQuotesApi, type QuotesApi } from '../../api/comercio/quotes';
import { QUOTES_UNAVAILABLE, quoteDialogFor } from '../comercio/quote-form.machine';

/** What the Proyectos screens' machines need from the app. */
export interface ProjectsMachinesDeps {
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

export interface ProjectsApis {
  subdivisionsApi: SubdivisionsApi;
  lotsApi: LotsApi;
  /** Absent in view tests of the other screens (the import then fails if tried). */
  lotImportsApi?: Pick<LotImportsApi, 'preview' | 'commit'>;
  /** "Cotizar" on the lots list (absent in view tests of other screens: its calls then fail). */
  customersApi?: Pick<CustomersApi, 'list'>;
  quotesApi?: Pick<QuotesApi, 'create' | 'changeStatus' | 'pdf'>;
}

/**
 * Machines of /PROYECTOS/lotizaciones and /PROYECTOS/Lotes (loaded on demand with the screens):
 * - `subdivisions`: the CRUD pattern's list + editor over the subdivisions api (save = POST or
 *   PATCH by key; remove = DELETE, a 409 is the form's message); `planImage` (blob → object URL).
 * - `subdivisionDetail`: the lots screen's header, stages and blocks.
 * - `lotsFor(key)`: list + editor of one subdivision's lots (memoised per key).
 * - `lotsWindow`: "Ver todos" (virtualised, pages of 100); `lotsPageFor(key)`: the Lotes screen's
 *   parent machine, which spawns and coordinates detail, list, editor, window, status and bulk
 *   (lots-page.machine.ts).
 * - `lotStatus`: `{ status, history }` (also used by the map's lot panel); `bulkPrice`.
 * - `lotHolds`: "Solicitudes de bloqueo" of a subdivision (lot-holds.machine.ts; input `{subdivisionId, canApprove}`).
 * - `quote`: "Cotizar" of a Disponible or Separado lot (the quote dialog of the maps).
 */
export function createProjectsMachines(apis: ProjectsApis, deps: ProjectsMachinesDeps) {
  const { subdivisionsApi, lotsApi } = apis;
  const { toaster } = deps;
  const reportSessionError = forwardSessionErrors(deps.reportApiError);
  /** A refused delete (409: a subdivision with lots, a lot that is not Disponible) is also a toast. */
  const toastRefusal = <T>(promise: Promise<T>) =>
    promise.catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 409)
        toaster.show({ severity: 'error', summary: 'No se pudo eliminar', detail: error.message, life: 6000 });
      throw error;
    });
  const subdivisions = resourceScreenMachines<Subdivision, CreateSubdivisionRequest, UpdateSubdivisionRequest>({
    fetchPage: subdivisionsApi.list,
    save: (input) => (input.mode === 'edit' ? subdivisionsApi.update(input.record.key, input.body) : subdivisionsApi.create(input.body)),
    remove: (record) => toastRefusal(subdivisionsApi.remove(record.key)),
    fetchOne: (record) => subdivisionsApi.get(record.key),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const lotsByKey = new Map<string, ResourceScreenMachines<Lot, CreateLotRequest, UpdateLotRequest>>();
  const lotsFor = (key: string) => {
    let machines = lotsByKey.get(key);
    if (!machines) {
      machines = resourceScreenMachines<Lot, CreateLotRequest, UpdateLotRequest>({
        fetchPage: (query) => lotsApi.list(key, query),
        save: (input) => (input.mode === 'edit' ? lotsApi.update(input.record.id, input.body) : lotsApi.create(key, input.body)),
        remove: (record) => toastRefusal(lotsApi.remove(record.id)),
        fetchOne: (record) => lotsApi.get(record.id),
        reportApiError: deps.reportApiError,
        toaster,
      });
      lotsByKey.set(key, machines);
    }
    return machines;
  };
  const lotStatus = createLotStatusMachines({ lotsApi, reportApiError: deps.reportApiError, toaster });
  const lotHolds = createLotHoldsMachine({ lotsApi, reportApiError: deps.reportApiError, toaster });
  const lotsWindow = createLotsWindowMachine({ lotsApi, reportApiError: deps.reportApiError });
  const subdivisionDetail = createSubdivisionDetailMachine({ subdivisionsApi, reportApiError: deps.reportApiError });
  const bulkPrice = createBulkPriceMachine({ lotsApi, reportApiError: reportSessionError, toaster });
  /** The lot-import dialog's machine (lot-import.actors.ts, views/proyectos/ImportLotsDialog.tsx). */
  const lotImport = createLotImportMachine(apis.lotImportsApi ?? NO_LOT_IMPORTS, deps);
  const lotsPages = new Map<string, LotsPageMachine>();
  /** The Lotes screen of subdivision `key` with its six children (memoised per key). */
  const lotsPageFor = (key: string) => {
    let machine = lotsPages.get(key);
    if (!machine) {
      const { list, editor } = lotsFor(key);
      machine = createLotsPageMachine({
        detail: subdivisionDetail,
        list,
        editor,
        window: lotsWindow,
        status: lotStatus.status,
        bulk: bulkPrice,
        lotImport,
      });
      lotsPages.set(key, machine);
    }
    return machine;
  };
  const quote = quoteDialogFor({
    customersApi: apis.customersApi ?? { list: () => Promise.reject(new Error('customers are not available here')) },
    quotesApi: apis.quotesApi ?? QUOTES_UNAVAILABLE,
    reportApiError: deps.reportApiError,
    toaster,
  });
  return {
    subdivisions,
    quote,
    planImage: createPlanImageMachine({ subdivisionsApi, reportApiError: deps.reportApiError, toaster }),
    subdivisionDetail,
    lotsFor,
    lotsWindow,
    lotsPageFor,
    lotStatus,
    lotHolds,
    bulkPrice,
    lotImport,
  };
}

/** Lot imports when the app was built without their api (view tests of other screens): every call fails. */
const NO_LOT_IMPORTS: Pick<LotImportsApi, 'preview' | 'commit'> = {
  preview: () => Promise.reject(new Error('lot imports are not available here')),
  commit: () => Promise.reject(new Error('lot imports are not available here')),
};

/** What the Proyectos screens of this module use. */
export type ProjectsScreenMachines = ReturnType<typeof createProjectsMachines>;

/** Builds the api modules on the app's client and the machines (see {@link createProjectsMachines}). */
export function createProjectsMachinesFor(client: ApiClient, deps: ProjectsMachinesDeps) {
  return {
    ...createProjectsMachines(
      {
        subdivisionsApi: createSubdivisionsApi(client),
        lotsApi: createLotsApi(client),
        lotImportsApi: createLotImportsApi(client),
        customersApi: createCustomersApi(client),
        quotesApi: createQuotesApi(client),
      },
      deps,
    ),
  };
}
export type ProjectsMachines = ReturnType<typeof createProjectsMachinesFor>;
