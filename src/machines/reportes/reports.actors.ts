import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createReportsApi, type ReportsApi } from '../../api/reportes/reports';
import { saveBlobFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import { replaceUrlSearch } from '../../lib/location';
import { REPORT_MESSAGES, reportFileName, type ReportId } from '../../schemas/reportes/report';
import { errorMessage, forwardSessionErrors, isSessionError } from '../shared/api-errors';
import { reportFiltersFromSearch, reportFiltersToSearch, reportMachine, type ReportFilters } from './report.machine';

/**
 * /Reportes and /ReportesEconomicos (docs/reports.md): the report machine (./report.machine.ts)
 * provided with the api calls, the download of the server's files
 * (`reporte-<id>_<desde>_<hasta>.xlsx|pdf`), the app's toasts and the address bar (the report and
 * its filters are kept in it: `?reporte=cobranza&from=…`).
 */

export interface ReportsMachinesDeps {
  api: ReportsApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded file (the browser's download by default; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
  /** Writes the report and its filters to the address bar (default: `history.replaceState`). */
  syncUrl?: (search: URLSearchParams) => void;
}

export function createReportsMachines(deps: ReportsMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const machine = reportMachine.provide({
    actors: {
      load: fromPromise(({ input }) => deps.api.report(input.report, input.query)),
      loadOptions: fromPromise(() => deps.api.options()),
      download: fromPromise(async ({ input }) => {
        const blob = await deps.api.file(input.report, input.query, input.format);
        const period = { from: input.data?.from ?? input.query.from ?? null, to: input.data?.to ?? input.query.to ?? null };
        (deps.saveBlob ?? saveBlobFile)(blob, reportFileName(input.report, period, input.format));
      }),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      syncUrl: (_, { report: id, filters }) => (deps.syncUrl ?? replaceUrlSearch)(reportFiltersToSearch(id, filters)),
      exportFailed: (_, error) => {
        if (!isSessionError(error))
          deps.toaster.show({ severity: 'error', summary: REPORT_MESSAGES.exportFailed, detail: errorMessage(error) });
      },
    },
  });
  return {
    report: machine,
    /** The filters of report `id` opened at `search` (the address bar's query). */
    initialFilters: (id: ReportId, search = ''): ReportFilters => reportFiltersFromSearch(id, search),
  };
}
export type ReportsMachines = ReturnType<typeof createReportsMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createReportsMachinesFor(client: ApiClient, deps: Omit<ReportsMachinesDeps, 'api'>) {
  return createReportsMachines({ ...deps, api: createReportsApi(client) });
}
