import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createSalesReportApi, type SalesReportApi } from '../../api/comercio/sales-report';
import { saveBlobFile } from '../../lib/download';
import { todayInLima } from '../../lib/dates';
import type { AppToaster } from '../../lib/toaster';
import { SALES_REPORT_MESSAGES, salesReportFileName } from '../../schemas/comercio/sales-report';
import { errorMessage, forwardSessionErrors, isSessionError } from '../shared/api-errors';
import { replaceUrlSearch } from '../../lib/location';
import {
  salesReportFiltersFromSearch,
  salesReportFiltersToSearch,
  salesReportMachine,
  type SalesReportFilters,
} from './sales-report.machine';

/**
 * Comercial → Reporte de Ventas (issue "CRM and sales"): the report machine
 * (./sales-report.machine.ts) provided with the api calls, the download of the server's files
 * (`reporte-ventas_<desde>_<hasta>.xlsx|pdf`), the app's toasts and the address bar (the filters
 * are kept in it); `initialFilters(search)` gives the filters of a screen opened at an address (the
 * ones it names; else the last twelve months up to today in Lima, every subdivision, agent, channel).
 */

export interface SalesReportMachinesDeps {
  api: SalesReportApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded file (the browser's download by default; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
  /** Today in Lima, `YYYY-MM-DD` (tests fix it). */
  today?: () => string;
  /** Writes the filters to the address bar (default: `history.replaceState`, src/lib/location.ts). */
  syncUrl?: (filters: SalesReportFilters) => void;
}

export function createSalesReportMachines(deps: SalesReportMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const machine = salesReportMachine.provide({
    actors: {
      load: fromPromise(({ input }) => deps.api.report(input)),
      loadOptions: fromPromise(() => deps.api.options()),
      download: fromPromise(async ({ input }) => {
        const blob = await deps.api.file(input.query, input.format);
        (deps.saveBlob ?? saveBlobFile)(blob, salesReportFileName(input.query, input.format));
      }),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      syncUrl: (_, filters) => (deps.syncUrl ?? ((f: SalesReportFilters) => replaceUrlSearch(salesReportFiltersToSearch(f))))(filters),
      exportFailed: (_, error) => {
        if (!isSessionError(error))
          deps.toaster.show({ severity: 'error', summary: SALES_REPORT_MESSAGES.exportFailed, detail: errorMessage(error) });
      },
    },
  });
  return {
    report: machine,
    /** The filters of a screen opened at `search` (the address bar's query): the ones it names, the last twelve months and "all" otherwise. */
    initialFilters: (search = '') => salesReportFiltersFromSearch(search, (deps.today ?? (() => todayInLima()))()),
  };
}
export type SalesReportMachines = ReturnType<typeof createSalesReportMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createSalesReportMachinesFor(client: ApiClient, deps: Omit<SalesReportMachinesDeps, 'api'>) {
  return createSalesReportMachines({ ...deps, api: createSalesReportApi(client) });
}
