/**
 * The machine of one report of /Reportes and /ReportesEconomicos (src/machines/reportes/report.machine.ts;
 * docs/reports.md "Rules shared by every report") with fake actors: the filters in the address (only
 * those the report reads), the query refused before asking (over 5 years, by day over a year), the
 * loads, and the exports checked against their row caps before anything is asked.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  EMPTY_REPORT_FILTERS,
  exportCapWarning,
  reportFiltersFromSearch,
  reportFiltersToSearch,
  reportMachine,
  reportQueryOf,
  type ReportFilters,
} from '../../../src/machines/reportes/report.machine';
import { REPORT_MESSAGES, type Report, type ReportId, type ReportOptions, type ReportQuery } from '../../../src/schemas/reportes/report';
import { ApiError } from '../../../src/api/http';

const reportOf = (report: ReportId, query: ReportQuery, rowCount = 1): Report => ({
  report,
  title: 'Cobranza',
  from: query.from ?? '2026-11-01',
  to: query.to ?? '2026-11-30',
  filters: [],
  notes: [],
  columns: [{ key: 'period', label: 'Día', kind: 'date' }],
  rows: [{ cells: { period: '2026-11-02' }, currency: 'PEN' }],
  row_count: rowCount,
  totals: [],
  chart: null,
});

type DownloadInput = { report: ReportId; query: ReportQuery; format: 'xlsx' | 'pdf'; data: Report | null };

function start(
  options: {
    report?: ReportId;
    filters?: Partial<ReportFilters>;
    rowCount?: number;
    download?: (input: DownloadInput) => Promise<void>;
  } = {},
) {
  const report = options.report ?? 'cobranza';
  const load = vi.fn(async (input: { report: ReportId; query: ReportQuery }) => reportOf(input.report, input.query, options.rowCount));
  const download = vi.fn(options.download ?? (async (_input: DownloadInput) => undefined));
  const syncUrl = vi.fn();
  const exportFailed = vi.fn();
  const machine = reportMachine.provide({
    actors: {
      load: fromPromise(({ input }) => load(input)),
      loadOptions: fromPromise(async (): Promise<ReportOptions> => ({ subdivisions: [], agents: [] })),
      download: fromPromise(({ input }) => download(input)),
    },
    actions: {
      syncUrl: (_, params) => syncUrl(params),
      exportFailed: (_, error) => exportFailed(error),
    },
  });
  const actor = createActor(machine, { input: { report, filters: { ...EMPTY_REPORT_FILTERS, ...options.filters } } }).start();
  return { actor, load, download, syncUrl, exportFailed };
}

describe('report filters in the address', () => {
  it('reads only the filters the report reads, as written (capped at 40 characters)', () => {
    const search = '?reporte=inventario&from=2026-01-01&to=2026-02-01&subdivision_id=3&agent_id=7&currency=USD&group=day';
    expect(reportFiltersFromSearch('inventario', search)).toEqual({ ...EMPTY_REPORT_FILTERS, subdivision_id: '3', currency: 'USD' });
    expect(reportFiltersFromSearch('cobranza', search)).toEqual({
      from: '2026-01-01',
      to: '2026-02-01',
      group: 'day',
      subdivision_id: '3',
      agent_id: '7',
      currency: 'USD',
    });
    expect(reportFiltersFromSearch('cobranza', `?from=${'9'.repeat(60)}`).from).toHaveLength(40);
  });

  it('writes `reporte=<id>` first, then the report’s own non-empty filters', () => {
    const filters: ReportFilters = { ...EMPTY_REPORT_FILTERS, from: '2026-01-01', agent_id: '7', currency: 'PEN', group: 'month' };
    expect(reportFiltersToSearch('cobranza', filters).toString()).toBe(
      'reporte=cobranza&from=2026-01-01&group=month&agent_id=7&currency=PEN',
    );
    // Inventario reads neither the period nor the agent.
    expect(reportFiltersToSearch('inventario', filters).toString()).toBe('reporte=inventario&currency=PEN');
  });
});

describe('reportQueryOf', () => {
  it('empty filters are the empty query (the server’s default: this month up to today)', () => {
    expect(reportQueryOf('cobranza', EMPTY_REPORT_FILTERS)).toEqual({ ok: true, query: {} });
  });

  it('converts ids and leaves out the filters the report does not read', () => {
    const filters = { ...EMPTY_REPORT_FILTERS, from: '2026-01-01', subdivision_id: '3', agent_id: '7', currency: 'USD' };
    expect(reportQueryOf('inventario', filters)).toEqual({ ok: true, query: { subdivision_id: 3, currency: 'USD' } });
  });

  it('a 20-year period is refused on Hasta (docs/reports.md: at most 5 years apart)', () => {
    expect(reportQueryOf('cobranza', { ...EMPTY_REPORT_FILTERS, from: '2006-01-01', to: '2026-01-01' })).toEqual({
      ok: false,
      errors: { to: REPORT_MESSAGES.tooLong },
    });
  });

  it('grouping by day over more than 366 days is refused on Agrupar', () => {
    const filters = { ...EMPTY_REPORT_FILTERS, from: '2025-01-01', to: '2026-06-30', group: 'day' };
    expect(reportQueryOf('cobranza', filters)).toEqual({ ok: false, errors: { group: REPORT_MESSAGES.tooManyDays } });
    expect(reportQueryOf('cobranza', { ...filters, group: 'month' }).ok).toBe(true);
    expect(reportQueryOf('cobranza', { ...filters, to: '2025-12-31' }).ok).toBe(true);
  });
});

describe('exportCapWarning (docs/reports.md: the export carries up to 100 000 rows)', () => {
  it('warns for Excel over 100 000 rows and for PDF over 5 000', () => {
    expect(exportCapWarning('xlsx', 100_000)).toBeNull();
    expect(exportCapWarning('xlsx', 100_001)).toBe(REPORT_MESSAGES.tooManyRows(100_001));
    expect(exportCapWarning('pdf', 5_000)).toBeNull();
    expect(exportCapWarning('pdf', 5_001)).toBe(REPORT_MESSAGES.pdfTooManyRows(5_001));
    expect(exportCapWarning('pdf', 120_000)).toBe(REPORT_MESSAGES.tooManyRows(120_000));
  });
});

describe('report machine', () => {
  it('loads the report of its filters on start', async () => {
    const { actor, load } = start({ filters: { from: '2026-01-01', to: '2026-03-31' } });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    expect(load).toHaveBeenCalledWith({ report: 'cobranza', query: { from: '2026-01-01', to: '2026-03-31' } });
    expect(actor.getSnapshot().context.data?.from).toBe('2026-01-01');
  });

  it('a changed filter is written to the address with the new filters and the report reloads', async () => {
    const { actor, load, syncUrl } = start();
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'filter.changed', field: 'group', value: 'month' });
    expect(syncUrl).toHaveBeenCalledWith({ report: 'cobranza', filters: { ...EMPTY_REPORT_FILTERS, group: 'month' } });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }) && load.mock.calls.length === 2);
    expect(load).toHaveBeenLastCalledWith({ report: 'cobranza', query: { group: 'month' } });
  });

  it('invalid filters show their messages and ask nothing', async () => {
    const { actor, load } = start();
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'filter.changed', field: 'from', value: '2026-02-01' });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }) && load.mock.calls.length === 2);
    actor.send({ type: 'filter.changed', field: 'to', value: '2026-01-01' });
    expect(actor.getSnapshot().matches({ report: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ to: REPORT_MESSAGES.order });
    expect(load).toHaveBeenCalledTimes(2);
    // The last figures stay while the filters are fixed.
    expect(actor.getSnapshot().context.data).not.toBeNull();
    actor.send({ type: 'filter.changed', field: 'to', value: '2026-02-28' });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }) && load.mock.calls.length === 3);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
  });

  it('an export over its cap sets the warning and downloads nothing; dismissing clears it', async () => {
    const { actor, download } = start({ rowCount: 6_000 });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'report.export', format: 'pdf' });
    expect(actor.getSnapshot().context.exportWarning).toBe(REPORT_MESSAGES.pdfTooManyRows(6_000));
    expect(actor.getSnapshot().matches({ export: 'idle' })).toBe(true);
    expect(download).not.toHaveBeenCalled();
    actor.send({ type: 'export.dismiss' });
    expect(actor.getSnapshot().context.exportWarning).toBeNull();
  });

  it('a changed filter also clears the export warning', async () => {
    const { actor } = start({ rowCount: 6_000 });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'report.export', format: 'pdf' });
    expect(actor.getSnapshot().context.exportWarning).not.toBeNull();
    actor.send({ type: 'filter.changed', field: 'currency', value: 'USD' });
    expect(actor.getSnapshot().context.exportWarning).toBeNull();
  });

  it('an export under its cap downloads the file of the current query with the report shown', async () => {
    const { actor, download } = start({ rowCount: 6_000, filters: { from: '2026-01-01', to: '2026-03-31' } });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'report.export', format: 'xlsx' });
    expect(actor.getSnapshot().context.exporting).toBe('xlsx');
    await waitFor(actor, (s) => s.matches({ export: 'idle' }) && download.mock.calls.length === 1);
    expect(download).toHaveBeenCalledWith({
      report: 'cobranza',
      query: { from: '2026-01-01', to: '2026-03-31' },
      format: 'xlsx',
      data: actor.getSnapshot().context.data,
    });
    expect(actor.getSnapshot().context.exporting).toBeNull();
    expect(actor.getSnapshot().context.exportWarning).toBeNull();
  });

  it('a failed export calls exportFailed with the error and goes back to idle', async () => {
    const error = new ApiError(409, 'Demasiadas filas');
    const { actor, exportFailed } = start({
      download: async () => {
        throw error;
      },
    });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'report.export', format: 'pdf' });
    await waitFor(actor, (s) => s.matches({ export: 'idle' }) && exportFailed.mock.calls.length === 1);
    expect(exportFailed).toHaveBeenCalledWith(error);
    expect(actor.getSnapshot().context.exporting).toBeNull();
  });

  it('drops the answer of a query changed since (a new load stops the one in flight)', async () => {
    const pending: { query: ReportQuery; resolve: (r: Report) => void }[] = [];
    const machine = reportMachine.provide({
      actors: {
        load: fromPromise(({ input }) => new Promise<Report>((resolve) => pending.push({ query: input.query, resolve }))),
        loadOptions: fromPromise(async (): Promise<ReportOptions> => ({ subdivisions: [], agents: [] })),
      },
    });
    const actor = createActor(machine, { input: { report: 'cobranza', filters: EMPTY_REPORT_FILTERS } }).start();
    actor.send({ type: 'filter.changed', field: 'currency', value: 'USD' });
    expect(pending.map((p) => p.query)).toEqual([{}, { currency: 'USD' }]);
    pending[0]!.resolve(reportOf('cobranza', { from: '1999-01-01' }));
    pending[1]!.resolve(reportOf('cobranza', pending[1]!.query));
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    expect(actor.getSnapshot().context.data?.from).toBe('2026-11-01');
  });

  it('a failed load shows its message and retries on report.retry', async () => {
    let fail = true;
    const reportApiError = vi.fn();
    const machine = reportMachine.provide({
      actors: {
        load: fromPromise(async ({ input }) => {
          if (fail) throw new ApiError(500, 'Error interno');
          return reportOf(input.report, input.query);
        }),
        loadOptions: fromPromise(async (): Promise<ReportOptions> => ({ subdivisions: [], agents: [] })),
      },
      actions: { reportApiError: (_, error) => reportApiError(error) },
    });
    const actor = createActor(machine, { input: { report: 'cobranza', filters: EMPTY_REPORT_FILTERS } }).start();
    await waitFor(actor, (s) => s.matches({ report: 'failure' }));
    expect(actor.getSnapshot().context.error).toBe('Error interno');
    expect(reportApiError).toHaveBeenCalledTimes(1);
    fail = false;
    actor.send({ type: 'report.retry' });
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
