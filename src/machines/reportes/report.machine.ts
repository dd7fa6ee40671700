import { assign, setup } from 'xstate';
import {
  REPORT_EXPORT_ROW_CAP,
  REPORT_FILTERS,
  REPORT_MESSAGES,
  REPORT_PDF_ROW_CAP,
  reportQuerySchema,
  type Report,
  type ReportFilterField,
  type ReportId,
  type ReportOptions,
  type ReportQuery,
} from '../../schemas/reportes/report';
import type { ApiError } from '../../api/client';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * One report of /Reportes or /ReportesEconomicos (docs/reports.md): owns its filters (those
 * `REPORT_FILTERS[report]` names), the report's loading, and the exports. Three parallel regions:
 *
 * - `options`: loading → ready | failure (the subdivisions and agents of the filters; the report
 *   does not wait for them);
 * - `report`: checking → loading → ready | failure, or `invalid` when the filters do not make a
 *   valid query (the request schema's Spanish messages per field; nothing is asked). Every
 *   `filter.changed` goes back to checking; a new load stops the one in flight, so a stale answer
 *   never shows;
 * - `export`: idle → exporting → idle. `report.export {format}` first checks the report's
 *   `row_count` against the export's cap (Excel {@link REPORT_EXPORT_ROW_CAP}, PDF
 *   {@link REPORT_PDF_ROW_CAP}): over it, `exportWarning` says so and nothing is asked.
 *
 * Events: `filter.changed {field, value}` (values as the controls hold them: ISO dates, ids as
 * text, '' for "all"), `report.retry`, `report.export {format}`, `export.dismiss`, `options.retry`.
 * Injected: actors `load`, `loadOptions`, `download`; actions `reportApiError` (session errors),
 * `exportFailed` (a toast unless the session handles it), `syncUrl` (the filters to the address bar).
 */

/** The filters as the controls hold them: ISO dates, ids as text, '' for "all" (or the report's default). */
export type ReportFilters = Record<ReportFilterField, string>;

export interface ReportContext {
  report: ReportId;
  filters: ReportFilters;
  /** The last answer (kept while a new one loads, so the screen does not flash). */
  data: Report | null;
  error: string | null;
  fieldErrors: Partial<Record<ReportFilterField, string>>;
  options: ReportOptions;
  exporting: 'xlsx' | 'pdf' | null;
  /** Why an export was not started (over its row cap), until dismissed or the filters change. */
  exportWarning: string | null;
}

export type ReportEvent =
  | { type: 'filter.changed'; field: ReportFilterField; value: string }
  | { type: 'report.retry' }
  | { type: 'report.export'; format: 'xlsx' | 'pdf' }
  | { type: 'export.dismiss' }
  | { type: 'options.retry' };

/** Empty filters: every report's default (this month up to today for a period, "all" for the rest). */
export const EMPTY_REPORT_FILTERS: ReportFilters = { from: '', to: '', group: '', subdivision_id: '', agent_id: '', currency: '' };

/** The address bar's parameters of a report's filters (empty ones left out), after `reporte=<id>`. */
export function reportFiltersToSearch(report: ReportId, filters: ReportFilters): URLSearchParams {
  const params = new URLSearchParams({ reporte: report });
  for (const field of REPORT_FILTERS[report]) if (filters[field]) params.set(field, filters[field]);
  return params;
}

/** The filters of a report opened at `search` (the address bar's query): those the report reads, as written (a bad one shows its message). */
export function reportFiltersFromSearch(report: ReportId, search: string): ReportFilters {
  const params = new URLSearchParams(search);
  const filters = { ...EMPTY_REPORT_FILTERS };
  for (const field of REPORT_FILTERS[report]) {
    const value = params.get(field);
    if (value !== null) filters[field] = value.slice(0, 40);
  }
  return filters;
}

/** The query of a report's filters, or the Spanish message per field that keeps them from being one. */
export function reportQueryOf(
  report: ReportId,
  filters: ReportFilters,
): { ok: true; query: ReportQuery } | { ok: false; errors: Partial<Record<ReportFilterField, string>> } {
  const raw: Record<string, string> = {};
  for (const field of REPORT_FILTERS[report]) if (filters[field]) raw[field] = filters[field];
  const parsed = reportQuerySchema.safeParse(raw);
  if (parsed.success) return { ok: true, query: parsed.data };
  const errors: Partial<Record<ReportFilterField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ReportFilterField | undefined;
    if (field && field in filters && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** The Spanish warning when `format` cannot carry `rows`, else null. */
export function exportCapWarning(format: 'xlsx' | 'pdf', rows: number): string | null {
  if (rows > REPORT_EXPORT_ROW_CAP) return REPORT_MESSAGES.tooManyRows(rows);
  if (format === 'pdf' && rows > REPORT_PDF_ROW_CAP) return REPORT_MESSAGES.pdfTooManyRows(rows);
  return null;
}

export const reportMachine = setup({
  types: {
    context: {} as ReportContext,
    events: {} as ReportEvent,
    input: {} as { report: ReportId; filters: ReportFilters },
  },
  actors: {
    load: placeholder<Report, { report: ReportId; query: ReportQuery }>('load'),
    loadOptions: placeholder<ReportOptions>('loadOptions'),
    download: placeholder<void, { report: ReportId; query: ReportQuery; format: 'xlsx' | 'pdf'; data: Report | null }>('download'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    exportFailed: (_, _error: ApiError) => {},
    /** Writes the filters to the address bar (injected), so reloading or sharing the link shows the same report. */
    syncUrl: (_, _params: { report: ReportId; filters: ReportFilters }) => {},
  },
  guards: {
    validFilters: ({ context }) => reportQueryOf(context.report, context.filters).ok,
    overCap: ({ context, event }) =>
      event.type === 'report.export' && context.data !== null && exportCapWarning(event.format, context.data.row_count) !== null,
  },
}).createMachine({
  id: 'report',
  type: 'parallel',
  context: ({ input }) => ({
    report: input.report,
    filters: input.filters,
    data: null,
    error: null,
    fieldErrors: {},
    options: { subdivisions: [], agents: [] },
    exporting: null,
    exportWarning: null,
  }),
  states: {
    options: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadOptions',
            onDone: { target: 'ready', actions: assign({ options: ({ event }) => event.output }) },
            onError: { target: 'failure', actions: { type: 'reportApiError', params: ({ event }) => event.error as ApiError } },
          },
        },
        ready: {},
        failure: { on: { 'options.retry': 'loading' } },
      },
    },
    report: {
      initial: 'checking',
      on: {
        'filter.changed': {
          target: '.checking',
          reenter: true,
          actions: [
            assign({ filters: ({ context, event }) => ({ ...context.filters, [event.field]: event.value }), exportWarning: null }),
            { type: 'syncUrl', params: ({ context }) => ({ report: context.report, filters: context.filters }) },
          ],
        },
      },
      states: {
        checking: {
          always: [
            { guard: 'validFilters', target: 'loading', actions: assign({ fieldErrors: {} }) },
            {
              target: 'invalid',
              actions: assign({
                fieldErrors: ({ context }) => {
                  const result = reportQueryOf(context.report, context.filters);
                  return result.ok ? {} : result.errors;
                },
              }),
            },
          ],
        },
        loading: {
          invoke: {
            src: 'load',
            input: ({ context }) => {
              const result = reportQueryOf(context.report, context.filters);
              if (!result.ok) throw new Error('report: loading without a valid query');
              return { report: context.report, query: result.query };
            },
            onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output, error: null }) },
            onError: {
              target: 'failure',
              actions: [
                assign({ error: ({ event }) => errorMessage(event.error) }),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        ready: {},
        invalid: {},
        failure: { on: { 'report.retry': 'loading' } },
      },
    },
    export: {
      initial: 'idle',
      on: { 'export.dismiss': { actions: assign({ exportWarning: null }) } },
      states: {
        idle: {
          on: {
            'report.export': [
              {
                guard: 'overCap',
                actions: assign({ exportWarning: ({ context, event }) => exportCapWarning(event.format, context.data?.row_count ?? 0) }),
              },
              {
                guard: 'validFilters',
                target: 'exporting',
                actions: assign({ exporting: ({ event }) => event.format, exportWarning: null }),
              },
            ],
          },
        },
        exporting: {
          invoke: {
            src: 'download',
            input: ({ context }) => {
              const result = reportQueryOf(context.report, context.filters);
              if (!result.ok || !context.exporting) throw new Error('report: exporting without a valid query');
              return { report: context.report, query: result.query, format: context.exporting, data: context.data };
            },
            onDone: { target: 'idle', actions: assign({ exporting: null }) },
            onError: {
              target: 'idle',
              actions: [
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                { type: 'exportFailed', params: ({ event }) => event.error as ApiError },
                assign({ exporting: null }),
              ],
            },
          },
        },
      },
    },
  },
});
export type ReportMachine = typeof reportMachine;
