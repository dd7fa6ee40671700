import { assign, setup } from 'xstate';
import { Temporal } from 'temporal-polyfill';
import {
  SALES_REPORT_CHANNELS,
  salesReportQuerySchema,
  type SalesReport,
  type SalesReportFormat,
  type SalesReportOptions,
  type SalesReportQuery,
} from '../../schemas/comercio/sales-report';
import type { ApiError } from '../../api/client';
import type { CurrencyCode } from '../../lib/money';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * Comercial → Reporte de Ventas (issue "CRM and sales"; docs/decisions.md "Sales report"): owns the
 * filters (Desde, Hasta, Lotización, Asesor, Canal), the report's loading, the currency the chart
 * and the cards show, and the exports. Three parallel regions:
 *
 * - `options`: loading → ready | failure (the subdivisions and agents of the filters; the report
 *   does not wait for them);
 * - `report`: checking → loading → ready | failure, or `invalid` when the filters do not make a
 *   valid query (the request schema's Spanish messages per field, nothing is asked). Every
 *   `filter.changed` goes back to checking; a new load stops the one in flight, so a stale answer
 *   never shows;
 * - `export`: idle → exporting → idle (`report.export {format}` downloads the server's .xlsx or
 *   .pdf of the current filters).
 *
 * Events: `filter.changed {field, value}` (values as the controls hold them: ISO dates, ids as
 * text, '' for "all"), `report.retry`, `report.export {format}`, `chart.currencyChanged {currency}`,
 * `options.retry`. Injected: actors `load`, `loadOptions`, `download`; actions `reportApiError`
 * (session errors), `exportFailed` (a toast, unless the session handles the error), `syncUrl` (the
 * filters to the address bar after each change: {@link salesReportFiltersToSearch}).
 */

/** The filters as the controls hold them. */
export interface SalesReportFilters {
  /** ISO date (Lima), '' while empty. */
  from: string;
  to: string;
  /** Ids and channel code as text; '' for all. */
  subdivision_id: string;
  agent_id: string;
  channel: string;
}
export type SalesReportFilterField = keyof SalesReportFilters;
/** The filters, in the order the screen shows them (and the address bar lists them). */
export const SALES_REPORT_FILTER_FIELDS: readonly SalesReportFilterField[] = ['from', 'to', 'subdivision_id', 'agent_id', 'channel'];

export interface SalesReportContext {
  filters: SalesReportFilters;
  /** The last report answered (kept while a new one loads, so the screen does not flash). */
  report: SalesReport | null;
  /** The failure's Spanish message. */
  error: string | null;
  /** Spanish messages per filter when the filters do not make a valid query. */
  fieldErrors: Partial<Record<SalesReportFilterField, string>>;
  options: SalesReportOptions;
  /** The format being exported, while one is. */
  exporting: SalesReportFormat | null;
  /** The currency the user picked for the chart and cards (when the report has both); null: the first one. */
  chartCurrency: CurrencyCode | null;
}

export type SalesReportEvent =
  | { type: 'filter.changed'; field: SalesReportFilterField; value: string }
  | { type: 'report.retry' }
  | { type: 'report.export'; format: SalesReportFormat }
  | { type: 'chart.currencyChanged'; currency: CurrencyCode }
  | { type: 'options.retry' };

/**
 * The filters of a new screen: the last twelve calendar months up to `today` (from the first day of
 * the month eleven months before), every subdivision, agent and channel.
 */
export function defaultSalesReportFilters(today: string): SalesReportFilters {
  const from = Temporal.PlainDate.from(today).with({ day: 1 }).subtract({ months: 11 });
  return { from: from.toString(), to: today, subdivision_id: '', agent_id: '', channel: '' };
}

/** The address bar's parameters of the filters (those left at "all" are left out). */
export function salesReportFiltersToSearch(filters: SalesReportFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of SALES_REPORT_FILTER_FIELDS) if (filters[field]) params.set(field, filters[field]);
  return params;
}

/**
 * The filters of a screen opened at `search` (the address bar's query, with or without `?`): each
 * filter the address names, the defaults of {@link defaultSalesReportFilters} for the others. Values
 * are taken as they are: one that is not valid shows its message on the screen.
 */
export function salesReportFiltersFromSearch(search: string, today: string): SalesReportFilters {
  const params = new URLSearchParams(search);
  const filters = defaultSalesReportFilters(today);
  for (const field of SALES_REPORT_FILTER_FIELDS) {
    const value = params.get(field);
    if (value !== null) filters[field] = value.slice(0, 40);
  }
  return filters;
}

/** The query of the filters, or the Spanish message per field that keeps them from being one. */
export function salesReportQueryOf(
  filters: SalesReportFilters,
): { ok: true; query: SalesReportQuery } | { ok: false; errors: Partial<Record<SalesReportFilterField, string>> } {
  const parsed = salesReportQuerySchema.safeParse({
    from: filters.from,
    to: filters.to,
    ...(filters.subdivision_id ? { subdivision_id: filters.subdivision_id } : {}),
    ...(filters.agent_id ? { agent_id: filters.agent_id } : {}),
    ...(filters.channel ? { channel: filters.channel } : {}),
  });
  if (parsed.success) return { ok: true, query: parsed.data };
  const errors: Partial<Record<SalesReportFilterField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in filters && !errors[field as SalesReportFilterField])
      errors[field as SalesReportFilterField] = issue.message;
  }
  return { ok: false, errors };
}

/** The currencies of the report, soles first ([] without sales). */
export const reportCurrencies = (report: SalesReport | null): CurrencyCode[] => (report ? report.totals.map((t) => t.currency) : []);

/** The currency the chart and the cards show: the one picked when the report has it, else the first. */
export function shownCurrency(context: Pick<SalesReportContext, 'report' | 'chartCurrency'>): CurrencyCode | null {
  const currencies = reportCurrencies(context.report);
  if (context.chartCurrency && currencies.includes(context.chartCurrency)) return context.chartCurrency;
  return currencies[0] ?? null;
}

const validChannel = (value: string) => value === '' || (SALES_REPORT_CHANNELS as readonly string[]).includes(value);

export const salesReportMachine = setup({
  types: {
    context: {} as SalesReportContext,
    events: {} as SalesReportEvent,
    input: {} as { filters: SalesReportFilters },
  },
  actors: {
    load: placeholder<SalesReport, SalesReportQuery>('load'),
    loadOptions: placeholder<SalesReportOptions>('loadOptions'),
    download: placeholder<void, { query: SalesReportQuery; format: SalesReportFormat }>('download'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    exportFailed: (_, _error: ApiError) => {},
    /** Writes the filters to the address bar (injected), so reloading or sharing the link shows the same report. */
    syncUrl: (_, _filters: SalesReportFilters) => {},
  },
  guards: {
    validFilters: ({ context }) => salesReportQueryOf(context.filters).ok,
  },
}).createMachine({
  id: 'salesReport',
  type: 'parallel',
  context: ({ input }) => ({
    filters: input.filters,
    report: null,
    error: null,
    fieldErrors: {},
    options: { subdivisions: [], agents: [] },
    exporting: null,
    chartCurrency: null,
  }),
  on: {
    'chart.currencyChanged': { actions: assign({ chartCurrency: ({ event }) => event.currency }) },
  },
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
          guard: ({ event }) => event.field !== 'channel' || validChannel(event.value),
          target: '.checking',
          reenter: true,
          actions: [
            assign({ filters: ({ context, event }) => ({ ...context.filters, [event.field]: event.value }) }),
            { type: 'syncUrl', params: ({ context }) => context.filters },
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
                  const result = salesReportQueryOf(context.filters);
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
              const result = salesReportQueryOf(context.filters);
              if (!result.ok) throw new Error('sales report: loading without a valid query');
              return result.query;
            },
            onDone: { target: 'ready', actions: assign({ report: ({ event }) => event.output, error: null }) },
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
      states: {
        idle: {
          on: {
            'report.export': { guard: 'validFilters', target: 'exporting', actions: assign({ exporting: ({ event }) => event.format }) },
          },
        },
        exporting: {
          invoke: {
            src: 'download',
            input: ({ context }) => {
              const result = salesReportQueryOf(context.filters);
              if (!result.ok || !context.exporting) throw new Error('sales report: exporting without a valid query');
              return { query: result.query, format: context.exporting };
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
export type SalesReportMachine = typeof salesReportMachine;
