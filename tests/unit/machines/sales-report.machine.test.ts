/**
 * The Reporte de Ventas machine (src/machines/comercio/sales-report.machine.ts) with fake actors:
 * the default period, a stale answer never shown, bad periods refused before asking, an unknown
 * channel ignored, the chart's currency and the export's query.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  defaultSalesReportFilters,
  salesReportMachine,
  shownCurrency,
  type SalesReportFilters,
} from '../../../src/machines/comercio/sales-report.machine';
import {
  SALES_REPORT_MESSAGES,
  type SalesReport,
  type SalesReportOptions,
  type SalesReportQuery,
} from '../../../src/schemas/comercio/sales-report';

const reportOf = (query: SalesReportQuery, currencies: ('PEN' | 'USD')[] = ['PEN']): SalesReport => ({
  from: query.from,
  to: query.to,
  months: [],
  totals: currencies.map((currency) => ({ currency, count: 1, total: 100, area_m2: 1, price_per_m2: 100 })),
  by_month: [],
  by_subdivision: [],
  by_agent: [],
  by_channel: [],
});

function start(
  load: (query: SalesReportQuery) => Promise<SalesReport>,
  filters: SalesReportFilters = defaultSalesReportFilters('2026-11-22'),
) {
  const download = vi.fn(async (_input: { query: SalesReportQuery; format: string }) => undefined);
  const machine = salesReportMachine.provide({
    actors: {
      load: fromPromise(({ input }) => load(input)),
      loadOptions: fromPromise(async (): Promise<SalesReportOptions> => ({ subdivisions: [], agents: [] })),
      download: fromPromise(({ input }) => download(input)),
    },
  });
  return { actor: createActor(machine, { input: { filters } }).start(), download };
}

describe('sales report machine', () => {
  it('starts with the last twelve calendar months up to today', () => {
    expect(defaultSalesReportFilters('2026-11-22')).toEqual({
      from: '2025-12-01',
      to: '2026-11-22',
      subdivision_id: '',
      agent_id: '',
      channel: '',
    });
    expect(defaultSalesReportFilters('2026-01-31')).toMatchObject({ from: '2025-02-01' });
  });

  it('drops the answer of a query the user has changed since (a new load stops the old one)', async () => {
    const pending: { query: SalesReportQuery; resolve: (r: SalesReport) => void }[] = [];
    const { actor } = start((query) => new Promise((resolve) => pending.push({ query, resolve })));
    actor.send({ type: 'filter.changed', field: 'channel', value: 'FACEBOOK' });
    expect(pending.map((p) => p.query.channel)).toEqual([undefined, 'FACEBOOK']);
    pending[0]!.resolve(reportOf({ ...pending[0]!.query, from: '1999-01-01' }));
    pending[1]!.resolve(reportOf(pending[1]!.query));
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    expect(actor.getSnapshot().context.report?.from).toBe('2025-12-01');
  });

  it('refuses bad periods without asking, and ignores an unknown channel', async () => {
    const load = vi.fn(async (query: SalesReportQuery) => reportOf(query));
    const { actor } = start(load);
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    actor.send({ type: 'filter.changed', field: 'from', value: '2020-01-01' });
    expect(actor.getSnapshot().matches({ report: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ to: SALES_REPORT_MESSAGES.tooLong });
    actor.send({ type: 'filter.changed', field: 'from', value: '' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ from: SALES_REPORT_MESSAGES.from });
    actor.send({ type: 'report.export', format: 'xlsx' });
    expect(actor.getSnapshot().matches({ export: 'idle' })).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
    actor.send({ type: 'filter.changed', field: 'channel', value: 'TELEPATIA' });
    expect(actor.getSnapshot().context.filters.channel).toBe('');
  });

  it('shows the picked currency while the report has it, else the first; exports the current query', async () => {
    const { actor, download } = start(async (query) => reportOf(query, ['PEN', 'USD']));
    await waitFor(actor, (s) => s.matches({ report: 'ready' }));
    expect(shownCurrency(actor.getSnapshot().context)).toBe('PEN');
    actor.send({ type: 'chart.currencyChanged', currency: 'USD' });
    expect(shownCurrency(actor.getSnapshot().context)).toBe('USD');
    expect(shownCurrency({ report: reportOf({ from: 'a', to: 'b' }, ['PEN']), chartCurrency: 'USD' })).toBe('PEN');
    actor.send({ type: 'filter.changed', field: 'subdivision_id', value: '4' });
    actor.send({ type: 'report.export', format: 'pdf' });
    await waitFor(actor, (s) => s.matches({ export: 'idle' }) && download.mock.calls.length === 1);
    expect(download).toHaveBeenCalledWith({ query: { from: '2025-12-01', to: '2026-11-22', subdivision_id: 4 }, format: 'pdf' });
  });
});
