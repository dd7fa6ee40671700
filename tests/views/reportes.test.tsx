/**
 * A report of /Reportes (src/views/reportes/ReportPanel.tsx; docs/reports.md "Rules shared by every
 * report") over its real machine (createReportsMachines) with a fake api: the filters each report
 * reads, the table as the app writes figures, a row's link, the totals per currency, the caption
 * when the screen shows fewer rows than the report has, the exports (over the PDF's cap the screen
 * warns and asks nothing) and a reload on a filter change. ECharts needs a canvas jsdom lacks: the
 * chart module is replaced by a stand-in (its option is tested in tests/unit/views/report-chart.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportsApi } from '../../src/api/reportes/reports';
import type { Report, ReportChart, ReportId } from '../../src/schemas/reportes/report';
import { createReportsMachines } from '../../src/machines/reportes/reports.actors';
import { ReportPanel } from '../../src/views/reportes/ReportPanel';

vi.mock('../../src/views/reportes/ReportChart', () => ({
  default: ({ chart, title }: { chart: ReportChart; title: string }) => (
    <div data-testid="chart-stand-in">{`${title}: ${chart.series.map((s) => s.name).join(', ')}`}</div>
  ),
  reportChartOption: () => ({}),
}));

const cobranza = (rowCount = 2): Report => ({
  report: 'cobranza',
  title: 'Cobranza',
  from: '2026-11-01',
  to: '2026-11-30',
  filters: [],
  notes: ['Pagos anulados no incluidos'],
  columns: [
    { key: 'period', label: 'Día', kind: 'date' },
    { key: 'count', label: 'Pagos', kind: 'count' },
    { key: 'total', label: 'Cobrado', kind: 'money' },
  ],
  rows: [
    { cells: { period: '2026-11-02', count: 3, total: 123_450 }, currency: 'PEN', link: '/FINANZAS/Pagos?from=2026-11-02&to=2026-11-02' },
    { cells: { period: '2026-11-03', count: 1, total: 50_000 }, currency: 'USD' },
  ],
  row_count: rowCount,
  totals: [
    { cells: { period: 'Total', count: 3, total: 123_450 }, currency: 'PEN' },
    { cells: { period: 'Total', count: 1, total: 50_000 }, currency: 'USD' },
  ],
  chart: { kind: 'bar', unit: 'money', categories: ['2026-11-02'], series: [{ name: 'Cobrado (S/)', currency: 'PEN', values: [123_450] }] },
});

function setup(id: ReportId = 'cobranza', data: Report = cobranza(), search = '') {
  window.history.replaceState(null, '', `/Reportes?reporte=${id}${search}`);
  const api: ReportsApi = {
    report: vi.fn(async () => data),
    options: vi.fn(async () => ({
      subdivisions: [{ id: 1, name: 'Los Viñedos', currency: 'PEN' as const }],
      agents: [{ id: 7, name: 'Lucía Quispe' }],
    })),
    file: vi.fn(async () => new Blob(['file'])),
  };
  const toaster = { show: vi.fn() };
  const saveBlob = vi.fn();
  const syncUrl = vi.fn();
  const machines = createReportsMachines({ api, reportApiError: vi.fn(), toaster, saveBlob, syncUrl });
  render(<ReportPanel report={id} machines={machines} dark={false} />);
  return { api, toaster, saveBlob, syncUrl, user: userEvent.setup() };
}

const filterLabels = () =>
  within(screen.getByRole('group', { name: 'Filtros del reporte' }))
    .getAllByText(/./, { selector: 'label' })
    .map((l) => l.textContent?.trim());

describe('ReportPanel', () => {
  it('shows the title, the filters Cobranza reads and the table as the app writes figures', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Cobranza' })).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(api.report).toHaveBeenCalledWith('cobranza', {});
    expect(filterLabels()).toEqual(['Desde', 'Hasta', 'Agrupar', 'Lotización', 'Asesor', 'Moneda']);
    const first = within(table).getByText('02/11/2026').closest('tr')!;
    expect(within(first).getByText('S/ 1,234.50')).toBeTruthy();
    expect(within(first).getByText('3')).toBeTruthy();
    expect(within(first).getByRole('link', { name: '02/11/2026' }).getAttribute('href')).toBe(
      '/FINANZAS/Pagos?from=2026-11-02&to=2026-11-02',
    );
    expect(within(table).getByText('03/11/2026').closest('tr')!.textContent).toContain('US$ 500.00');
    // Totals: one row per currency, never linked.
    const totals = table.querySelectorAll('tfoot tr');
    expect([...totals].map((r) => r.textContent)).toEqual(['Total3S/ 1,234.50', 'Total1US$ 500.00']);
    expect(within(table.querySelector('tfoot')!).queryByRole('link')).toBeNull();
    expect(screen.getByText('01/11/2026 – 30/11/2026 · Pagos anulados no incluidos')).toBeTruthy();
    expect((await screen.findByTestId('chart-stand-in')).textContent).toBe('Cobranza: Cobrado (S/)');
    // All rows on screen: the caption is the title only.
    expect(table.querySelector('caption')!.textContent).toBe('Cobranza');
  });

  it('Inventario shows only the filters it reads: Lotización and Moneda', async () => {
    setup('inventario', { ...cobranza(), report: 'inventario', title: 'Inventario' });
    await screen.findByRole('table');
    expect(filterLabels()).toEqual(['Lotización', 'Moneda']);
  });

  it('says the screen shows 500 of the report’s rows and the Excel export carries them all', async () => {
    setup('cobranza', { ...cobranza(120_000), rows: Array.from({ length: 500 }, () => cobranza().rows[1]!) });
    const table = await screen.findByRole('table');
    expect(table.querySelector('caption')!.textContent).toBe(
      'Cobranza · se muestran 500 de 120,000 filas; la exportación a Excel las incluye todas',
    );
  });

  it('a PDF over its 5 000 rows warns and asks nothing (docs/reports.md: the button warns before the export starts)', async () => {
    const { api, user } = setup('cobranza', cobranza(6_000));
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Exportar PDF' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('La exportación no se inició')).toBeTruthy();
    expect(alert.textContent).toContain('el PDF admite hasta 5,000');
    expect(api.file).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Entendido' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('exports to Excel the current query and saves it under the report’s period', async () => {
    const { api, saveBlob, user } = setup('cobranza', cobranza(), '&from=2026-11-01&to=2026-11-30');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Exportar Excel' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(api.file).toHaveBeenCalledWith('cobranza', { from: '2026-11-01', to: '2026-11-30' }, 'xlsx');
    expect(saveBlob.mock.calls[0]![1]).toBe('reporte-cobranza_2026-11-01_2026-11-30.xlsx');
  });

  it('grouping by month reloads the report with group=month and writes it to the address', async () => {
    const { api, syncUrl, user } = setup();
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Agrupar'), 'Por mes');
    await waitFor(() => expect(api.report).toHaveBeenLastCalledWith('cobranza', { group: 'month' }));
    expect((syncUrl.mock.lastCall![0] as URLSearchParams).toString()).toBe('reporte=cobranza&group=month');
  });
});
