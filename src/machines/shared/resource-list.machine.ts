import { assertEvent, assign, fromPromise, not, setup } from 'xstate';
import { defaultListQuery, type ListQuery, type Paged } from '../../schemas/list';
import { toCsv, type CellValue } from '../../lib/csv';
import { toXlsx, XLSX_MIME } from '../../lib/xlsx';
import { placeholder } from './placeholder';
import { errorMessage, errorStatus, isSessionError } from './api-errors';
/** Moved to api-errors.ts (issue 10 item 4); re-exported for the code that imports it from here. */
export { isSessionError } from './api-errors';

/**
 * `resourceList` machine (issue "Configuración", the CRUD pattern; docs/architecture.md
 * "Screens: a generic resource-list machine"). Every CRUD screen runs its typed copy,
 * `createResourceListMachine<Row>().provide({ actors: listActors(api.list), actions: { syncUrl, reportApiError, download } })`
 * (through `resourceScreenMachines`), so its rows, columns and export are typed as `Row`.
 *
 * Main region: loading → ready (empty | withData) | failure. A query change (page, sort, filter,
 * search after 300 ms of quiet) writes the URL (`syncUrl`) and reloads; `list.refresh` reloads the
 * same query after a mutation; `list.retry` leaves failure. Entering `loading` again stops the
 * previous `fetchPage` call, and answers carry the query they were asked for, so a slow answer
 * to an older query never overwrites the current one. A 401, 402 or 404 is handed to the session
 * (`reportApiError`, the app sends `session.apiError`); any other error shows its Spanish message.
 *
 * Export region (parallel): idle ⇄ exporting. `list.export {format}` fetches every page of the
 * current query (filters, sort, text) up to {@link EXPORT_ROW_CAP} rows through `fetchAll` and
 * hands the file to `download`.
 */

/** Delay between the last keystroke in "Buscar…" and the reload. */
export const SEARCH_DEBOUNCE_MS = 300;
/** Most rows an export fetches. */
export const EXPORT_ROW_CAP = 5000;
/** Page size used while exporting (the API's maximum). */
export const EXPORT_PAGE_SIZE = 100;

/** A column of the list: its key (a record field or a computed key), its Spanish header, and how it exports. */
export interface ListColumn<Row = Record<string, unknown>> {
  key: string;
  label: string;
  /** Sent as `sort=key` / `sort=-key` when set. */
  sortable?: boolean;
  /** Hidden until the user shows it in the column chooser. */
  hiddenByDefault?: boolean;
  /** Plain value for CSV/Excel; defaults to `row[key]`. */
  exportValue?(row: Row): CellValue;
}

export type ExportFormat = 'csv' | 'xlsx';

/** A file ready to save. */
export interface ExportFile {
  fileName: string;
  mime: string;
  content: string | Uint8Array;
  /** Rows written (at most {@link EXPORT_ROW_CAP}). */
  rows: number;
  /** The list held more rows than the cap. */
  truncated: boolean;
}

export interface ResourceListInput<Row = Record<string, unknown>> {
  /** Initial query, usually `listQueryFromSearchParams(location.search)`. */
  query?: Partial<ListQuery>;
  columns: readonly ListColumn<Row>[];
  /** Base of the exported file names ("usuarios" → usuarios-2026-11-22.csv). */
  exportName?: string;
}

export interface ResourceListContext<Row = Record<string, unknown>> {
  query: ListQuery;
  /** Text typed in "Buscar…" (becomes `query.q` after the debounce). */
  searchText: string;
  rows: Row[];
  total: number;
  /** The query whose answer `rows` holds (null before the first answer and after a failure). */
  shownQuery: ListQuery | null;
  /** Spanish message while in `failure`. */
  error: string | null;
  /** HTTP status of that error (403 shows "Sin permiso"), null for a network error. */
  errorStatus: number | null;
  columns: readonly ListColumn<Row>[];
  hiddenColumns: string[];
  exportName: string;
  /** Spanish message of the last failed export. */
  exportError: string | null;
}

export type ResourceListEvent =
  | { type: 'list.pageChanged'; page: number }
  | { type: 'list.sortChanged'; sort: string | undefined }
  | { type: 'list.searchTyped'; text: string }
  | { type: 'list.filterChanged'; field: string; value: string | undefined }
  | { type: 'list.refresh' }
  | { type: 'list.retry' }
  | { type: 'list.columnToggled'; key: string }
  | { type: 'list.export'; format: ExportFormat };

/** Input of `fetchAll` (export). */
export interface ExportInput<Row = Record<string, unknown>> {
  query: ListQuery;
  columns: readonly ListColumn<Row>[];
  format: ExportFormat;
  fileName: string;
}

/** What `fetchPage` answers: a page, optionally with the query it was asked for (stale-answer check). */
export type PageAnswer<Row = Record<string, unknown>> = Paged<Row> & { query?: ListQuery };

/** A screen's list call: the api module's function for its resource. */
export type FetchPage<Row = Record<string, unknown>> = (query: ListQuery) => Promise<Paged<Row>>;

/** Next sort when a header is clicked: none → ascending → descending → none. */
export function nextSort(current: string | undefined, key: string): string | undefined {
  if (current === key) return `-${key}`;
  if (current === `-${key}`) return undefined;
  return key;
}

/** Direction of `key` in a sort string. */
export function sortDirection(sort: string | undefined, key: string): 'ascending' | 'descending' | 'none' {
  if (sort === key) return 'ascending';
  if (sort === `-${key}`) return 'descending';
  return 'none';
}

/** Number of pages of a list (at least 1). */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}

/** Fetches every page of `query` (in pages of 100) until the list or `cap` rows are exhausted. */
export async function fetchAllRows<Row>(
  fetchPage: FetchPage<Row>,
  query: ListQuery,
  cap: number = EXPORT_ROW_CAP,
): Promise<{ rows: Row[]; total: number }> {
  const rows: Row[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const answer = await fetchPage({ ...query, page, per_page: EXPORT_PAGE_SIZE });
    total = answer.meta.total;
    rows.push(...answer.data);
    if (answer.data.length === 0 || rows.length >= Math.min(total, cap)) break;
  }
  return { rows: rows.slice(0, cap), total };
}

/** The CSV or Excel file of some rows, with the columns' headers and export values. */
export async function buildExportFile<Row>(
  rows: readonly Row[],
  columns: readonly ListColumn<Row>[],
  format: ExportFormat,
  fileName: string,
): Promise<Omit<ExportFile, 'truncated'>> {
  const header = columns.map((c) => c.label);
  const body = rows.map((row) =>
    columns.map((c) => (c.exportValue ? c.exportValue(row) : ((row as Record<string, unknown>)[c.key] as CellValue))),
  );
  if (format === 'csv') {
    return { fileName: `${fileName}.csv`, mime: 'text/csv;charset=utf-8', content: toCsv(header, body), rows: rows.length };
  }
  return { fileName: `${fileName}.xlsx`, mime: XLSX_MIME, content: await toXlsx(fileName, header, body), rows: rows.length };
}

/**
 * The two actors of a screen's list from its api call: `fetchPage` (one page) and `fetchAll`
 * (the export: every page of the current view through the same call, then the file).
 */
export function listActors<Row>(fetchPage: FetchPage<Row>) {
  return {
    fetchPage: fromPromise<PageAnswer<Row>, ListQuery>(async ({ input }) => ({ ...(await fetchPage(input)), query: input })),
    fetchAll: fromPromise<ExportFile, ExportInput<Row>>(async ({ input }) => {
      const { rows, total } = await fetchAllRows(fetchPage, input.query);
      const file = await buildExportFile(rows, input.columns, input.format, input.fileName);
      return { ...file, truncated: total > rows.length };
    }),
  };
}

const sameQuery = (a: ListQuery, b: ListQuery) =>
  a.page === b.page &&
  a.per_page === b.per_page &&
  a.sort === b.sort &&
  a.q === b.q &&
  JSON.stringify(Object.entries(a.filters).sort()) === JSON.stringify(Object.entries(b.filters).sort());

const todayStamp = () => new Date().toISOString().slice(0, 10);

/** The error of a failed invoke, as guard and action params. */
const errorParams = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/** The format of a `list.export` event (the only event that enters `exporting`). */
function exportFormatOf(event: ResourceListEvent): ExportFormat {
  assertEvent(event, 'list.export');
  return event.format;
}

/** A typed list machine over rows `Row` (see the comment at the top of this file). */
export function createResourceListMachine<Row>() {
  return setup({
    types: {
      context: {} as ResourceListContext<Row>,
      events: {} as ResourceListEvent,
      input: {} as ResourceListInput<Row>,
    },
    actions: {
      /** Writes the query to the address bar (injected: `history.replaceState` or wouter's navigate). */
      syncUrl: (_, _query: ListQuery) => {},
      /** Hands a 401/402/404 to the session (injected: `session.send({ type: 'session.apiError', error })`). */
      reportApiError: (_, _params: { error: unknown }) => {},
      /** Saves an exported file (injected: a Blob and a temporary link). */
      download: (_, _file: ExportFile) => {},
      /** Keeps a failed load's Spanish message and status. */
      showError: assign((_, { error }: { error: unknown }) => ({
        error: errorMessage(error),
        errorStatus: errorStatus(error),
        shownQuery: null,
      })),
    },
    actors: {
      /** One page of the list (the screen's api call). */
      fetchPage: placeholder<PageAnswer<Row>, ListQuery>('fetchPage'),
      /** Every page of the current view, as a file (see {@link listActors}). */
      fetchAll: placeholder<ExportFile, ExportInput<Row>>('fetchAll'),
    },
    guards: {
      hasRows: ({ context }) => context.rows.length > 0,
      isSessionError: (_, { error }: { error: unknown }) => isSessionError(error),
      /** The answer belongs to the query on screen (stale answers are dropped). */
      isCurrent: ({ context }, { answer }: { answer: PageAnswer<Row> }) => !answer.query || sameQuery(answer.query, context.query),
      searchChanged: ({ context }) => (context.searchText.trim() || undefined) !== context.query.q,
      /** The rows on screen answer the current query (nothing to reload). */
      showsCurrentQuery: ({ context }) => context.shownQuery !== null && sameQuery(context.shownQuery, context.query),
    },
    delays: {
      searchDebounce: SEARCH_DEBOUNCE_MS,
    },
  }).createMachine({
    id: 'resourceList',
    type: 'parallel',
    context: ({ input }) => {
      const query = { ...defaultListQuery(), ...input.query, filters: { ...input.query?.filters } };
      return {
        query,
        searchText: query.q ?? '',
        rows: [],
        total: 0,
        shownQuery: null,
        error: null,
        errorStatus: null,
        columns: input.columns,
        hiddenColumns: input.columns.filter((c) => c.hiddenByDefault).map((c) => c.key),
        exportName: input.exportName ?? 'listado',
        exportError: null,
      };
    },
    on: {
      'list.columnToggled': {
        actions: assign({
          hiddenColumns: ({ context, event }) =>
            context.hiddenColumns.includes(event.key)
              ? context.hiddenColumns.filter((k) => k !== event.key)
              : [...context.hiddenColumns, event.key],
        }),
      },
    },
    states: {
      list: {
        initial: 'loading',
        on: {
          'list.pageChanged': {
            target: '.loading',
            reenter: true,
            actions: assign({ query: ({ context, event }) => ({ ...context.query, page: Math.max(1, event.page) }) }),
          },
          'list.sortChanged': {
            target: '.loading',
            reenter: true,
            actions: assign({ query: ({ context, event }) => ({ ...context.query, sort: event.sort, page: 1 }) }),
          },
          'list.filterChanged': {
            target: '.loading',
            reenter: true,
            actions: assign({
              query: ({ context, event }) => {
                const filters = { ...context.query.filters };
                if (event.value === undefined || event.value === '') delete filters[event.field];
                else filters[event.field] = event.value;
                return { ...context.query, filters, page: 1 };
              },
            }),
          },
          'list.searchTyped': {
            target: '.debouncing',
            reenter: true,
            actions: assign({ searchText: ({ event }) => event.text }),
          },
          'list.refresh': { target: '.loading', reenter: true },
        },
        states: {
          /** Waiting for 300 ms without typing; the rows on screen stay. */
          debouncing: {
            after: {
              searchDebounce: [
                {
                  guard: 'searchChanged',
                  target: 'loading',
                  actions: assign({
                    query: ({ context }) => ({ ...context.query, q: context.searchText.trim() || undefined, page: 1 }),
                  }),
                },
                { guard: not('showsCurrentQuery'), target: 'loading' },
                { guard: 'hasRows', target: 'ready.withData' },
                { target: 'ready.empty' },
              ],
            },
          },
          loading: {
            entry: [{ type: 'syncUrl', params: ({ context }) => context.query }, assign({ error: null, errorStatus: null })],
            invoke: {
              src: 'fetchPage',
              input: ({ context }) => context.query,
              onDone: [
                {
                  guard: { type: 'isCurrent', params: ({ event }) => ({ answer: event.output }) },
                  target: 'ready',
                  actions: assign({
                    rows: ({ event }) => event.output.data,
                    total: ({ event }) => event.output.meta.total,
                    shownQuery: ({ context }) => context.query,
                  }),
                },
              ],
              onError: [
                {
                  guard: { type: 'isSessionError', params: errorParams },
                  target: 'failure',
                  actions: [
                    { type: 'reportApiError', params: errorParams },
                    { type: 'showError', params: errorParams },
                  ],
                },
                { target: 'failure', actions: { type: 'showError', params: errorParams } },
              ],
            },
          },
          ready: {
            initial: 'decide',
            states: {
              decide: { always: [{ guard: 'hasRows', target: 'withData' }, { target: 'empty' }] },
              /** "No hay registros" (with or without filters). */
              empty: {},
              withData: {},
            },
          },
          failure: {
            on: { 'list.retry': 'loading' },
          },
        },
      },
      export: {
        initial: 'idle',
        states: {
          idle: {
            on: { 'list.export': 'exporting' },
          },
          exporting: {
            entry: assign({ exportError: null }),
            invoke: {
              src: 'fetchAll',
              input: ({ context, event }) => ({
                query: context.query,
                columns: context.columns.filter((c) => !context.hiddenColumns.includes(c.key)),
                format: exportFormatOf(event),
                fileName: `${context.exportName}-${todayStamp()}`,
              }),
              onDone: {
                target: 'idle',
                actions: { type: 'download', params: ({ event }) => event.output },
              },
              onError: [
                {
                  guard: { type: 'isSessionError', params: errorParams },
                  target: 'idle',
                  actions: { type: 'reportApiError', params: errorParams },
                },
                { target: 'idle', actions: assign({ exportError: ({ event }) => errorMessage(event.error) }) },
              ],
            },
          },
        },
      },
    },
  });
}

/** The list machine of rows `Row`. */
export type ResourceListMachine<Row = Record<string, unknown>> = ReturnType<typeof createResourceListMachine<Row>>;

/** A list over plain records (tests and screens whose rows have no type of their own). */
export const resourceListMachine = createResourceListMachine<Record<string, unknown>>();
