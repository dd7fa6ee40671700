import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createReportsApi, type ReportsApi } from '../../api/reportes/reports';
import { createExpensesApi, type ExpensesApi } from '../../api/reportes/expenses';
import { saveBlobFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import { replaceUrlQueryKeeping, replaceUrlSearch } from '../../lib/location';
import type { ListQuery } from '../../schemas/list';
import { REPORT_MESSAGES, reportFileName, type ReportId, type ReportOptions } from '../../schemas/reportes/report';
import type { CreateExpenseRequest, Expense } from '../../schemas/reportes/expenses';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { errorMessage, forwardSessionErrors, isSessionError } from '../shared/api-errors';
import { reportFiltersFromSearch, reportFiltersToSearch, reportMachine, type ReportFilters } from './report.machine';

/**
 * /Reportes and /ReportesEconomicos (docs/reports.md): the report machine (./report.machine.ts)
 * provided with the api calls, the download of the server's files
 * (`reporte-<id>_<desde>_<hasta>.xlsx|pdf`), the app's toasts and the address bar (the report and
 * its filters are kept in it: `?reporte=cobranza&from=…`); and the tab Egresos of
 * /ReportesEconomicos, the expenses register (docs/reports.md "Ingresos vs egresos and the expenses
 * register"): the CRUD pattern's list and editor over src/api/reportes/expenses.ts, and the
 * subdivisions of its form (GET /api/reports/options, with their currency).
 */

export interface ReportsMachinesDeps {
  api: ReportsApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded file (the browser's download by default; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
  /** Writes the report and its filters to the address bar (default: `history.replaceState`). */
  syncUrl?: (search: URLSearchParams) => void;
  /** The expenses register's api (tab Egresos); without it the tab's calls fail (tests of the reports alone). */
  expensesApi?: ExpensesApi;
  /** Writes the Egresos list's query to the address bar (default: `history.replaceState`, keeping `?reporte=`). */
  syncExpensesUrl?: (query: ListQuery) => void;
}

/** A subdivision of the Egresos form: its id, name and currency (an expense is in its subdivision's currency). */
export type ExpenseSubdivision = ReportOptions['subdivisions'][number];

/**
 * The tab Egresos' machines: `expenses` (resourceScreenMachines: list, editor and page over GET /
 * POST / PUT / DELETE /api/expenses; an edit and a delete send the `version` read) and
 * `expenseSubdivisions` (a load-once of the subdivisions with their currency, from the reports' options).
 */
function createExpensesMachines(deps: ReportsMachinesDeps) {
  const api = (): ExpensesApi => {
    if (!deps.expensesApi) throw new Error('El registro de egresos no está disponible');
    return deps.expensesApi;
  };
  const expenses = resourceScreenMachines<Expense, CreateExpenseRequest>({
    fetchPage: (query) => api().list(query),
    save: (input) =>
      input.mode === 'edit'
        ? api().update(input.record.id, { ...input.body, version: input.body.version ?? input.record.version ?? 1 })
        : api().create(input.body),
    remove: (record) => api().remove(record.id, record.version ?? 1),
    fetchOne: (record) => api().get(record.id),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
    syncUrl: deps.syncExpensesUrl ?? ((query) => replaceUrlQueryKeeping(query, ['reporte'])),
  });
  const expenseSubdivisions = createLoadOnceMachine<ExpenseSubdivision[]>('expenseSubdivisions', []).provide({
    actors: { load: fromPromise(async () => (await deps.api.options()).subdivisions) },
  });
  return { expenses, expenseSubdivisions };
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
    ...createExpensesMachines(deps),
  };
}
export type ReportsMachines = ReturnType<typeof createReportsMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createReportsMachinesFor(client: ApiClient, deps: Omit<ReportsMachinesDeps, 'api' | 'expensesApi'>) {
  return createReportsMachines({ ...deps, api: createReportsApi(client), expensesApi: createExpensesApi(client) });
}
