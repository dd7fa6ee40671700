/**
 * Comercial → Reporte de Ventas (issue "CRM and sales"): the page over its real machine
 * (createSalesReportMachines) with fake api calls: the default period, the cards per currency, the
 * tables, the filters sent, a bad period refused before asking, the currency switch of the chart,
 * and the exports saved under the period's name. ECharts needs a canvas jsdom lacks: the chart
 * module is replaced by a stand-in that shows what it was given (its option is tested in
 * tests/views/sales-report-chart.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SalesReportApi } from '../../src/api/comercio/sales-report';
import type { SalesReport } from '../../src/schemas/comercio/sales-report';
import { SALES_REPORT_MESSAGES } from '../../src/schemas/comercio/sales-report';
import { createSalesReportMachines } from '../../src/machines/comercio/sales-report.actors';
import { SalesReportPage } from '../../src/views/comercio/SalesReportPage';

vi.mock('../../src/views/comercio/SalesReportChart', () => ({
  default: ({ points, currency, dark }: { points: { month: string; total: number; count: number }[]; currency: string; dark: boolean }) => (
    <div data-testid="chart-stand-in">{`${currency} ${dark ? 'oscuro' : 'claro'} ${points.map((p) => `${p.month}:${p.total}:${p.count}`).join(' ')}`}</div>
  ),
  salesChartOption: () => ({}),
}));

const figures = (currency: 'PEN' | 'USD', count: number, total: number, area: number) => ({
  currency,
  count,
  total,
  area_m2: area,
  price_per_m2: Math.round(total / area),
});

const report: SalesReport = {
  from: '2025-12-01',
  to: '2026-11-22',
  months: [
    '2025-12',
    '2026-01',
    '2026-02',
    '2026-03',
    '2026-04',
    '2026-05',
    '2026-06',
    '2026-07',
    '2026-08',
    '2026-09',
    '2026-10',
    '2026-11',
  ],
  totals: [figures('PEN', 3, 9_000_000, 360), figures('USD', 1, 2_500_000, 100)],
  by_month: [
    { month: '2026-01', ...figures('PEN', 1, 3_000_000, 120) },
    { month: '2026-11', ...figures('PEN', 2, 6_000_000, 240) },
    { month: '2026-11', ...figures('USD', 1, 2_500_000, 100) },
  ],
  by_subdivision: [
    { id: 1, name: 'Los Viñedos', ...figures('PEN', 3, 9_000_000, 360) },
    { id: 2, name: 'Bosques del Norte', ...figures('USD', 1, 2_500_000, 100) },
  ],
  by_agent: [{ id: 7, name: 'Lucía Quispe', ...figures('PEN', 3, 9_000_000, 360) }],
  by_channel: [
    { channel: 'FACEBOOK', ...figures('PEN', 2, 6_000_000, 240) },
    { channel: 'DIRECTO', ...figures('PEN', 1, 3_000_000, 120) },
  ],
};

function setup(overrides: Partial<SalesReportApi> = {}, dark = false, search = '') {
  // Each test opens the screen at its own address (the machine writes the filters to it).
  window.history.replaceState(null, '', `/COMERCIO/reporteVentas${search}`);
  const api: SalesReportApi = {
    report: vi.fn(async () => report),
    options: vi.fn(async () => ({
      subdivisions: [
        { id: 1, name: 'Los Viñedos', currency: 'PEN' as const },
        { id: 2, name: 'Bosques del Norte', currency: 'USD' as const },
      ],
      agents: [{ id: 7, name: 'Lucía Quispe' }],
    })),
    file: vi.fn(async () => new Blob(['xlsx'])),
    ...overrides,
  };
  const toaster = { show: vi.fn() };
  const saveBlob = vi.fn();
  const machines = createSalesReportMachines({ api, reportApiError: vi.fn(), toaster, saveBlob, today: () => '2026-11-22' });
  render(<SalesReportPage machines={machines} dark={dark} />);
  return { api, toaster, saveBlob, user: userEvent.setup() };
}

describe('SalesReportPage', () => {
  it('asks for the last twelve months and shows the cards per currency, the chart and the tables', async () => {
    const { api } = setup();
    expect(await screen.findByTestId('sales-report-count')).toHaveProperty('textContent', '4');
    expect(api.report).toHaveBeenCalledWith({ from: '2025-12-01', to: '2026-11-22' });
    expect((screen.getByLabelText('Desde') as HTMLInputElement).value).toBe('01/12/2025');
    expect((screen.getByLabelText('Hasta') as HTMLInputElement).value).toBe('22/11/2026');
    // Soles and dollars never added: one line each.
    expect(screen.getByTestId('sales-report-total-PEN').textContent).toBe('S/ 90,000.00');
    expect(screen.getByTestId('sales-report-total-USD').textContent).toBe('US$ 25,000.00');
    expect(screen.getByTestId('sales-report-m2-PEN').textContent).toBe('S/ 250.00 / m²');
    // Every month of the period on the chart, zero where nothing was sold; soles first.
    const chart = await screen.findByTestId('chart-stand-in');
    expect(chart.textContent).toContain('PEN claro 2025-12:0:0 2026-01:3000000:1');
    expect(chart.textContent).toContain('2026-11:6000000:2');
    const channels = screen.getByRole('table', { name: 'Por canal' });
    const facebook = within(channels).getByText('Facebook').closest('tr')!;
    expect(within(facebook).getByText('S/ 60,000.00')).toBeTruthy();
    expect(within(channels).getByText('Directo')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Por lotización' })).getByText('Bosques del Norte')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Por asesor' })).getByText('Lucía Quispe')).toBeTruthy();
  });

  it('keeps the filters in the address: opened at one it shows its filters, and each change is written back', async () => {
    const { api, user } = setup({}, false, '?from=2026-01-01&to=2026-06-30&subdivision_id=2&channel=FACEBOOK');
    await waitFor(() =>
      expect(api.report).toHaveBeenCalledWith({ from: '2026-01-01', to: '2026-06-30', subdivision_id: 2, channel: 'FACEBOOK' }),
    );
    expect((screen.getByLabelText('Desde') as HTMLInputElement).value).toBe('01/01/2026');
    expect(((await screen.findByLabelText('Lotización')) as HTMLSelectElement).value).toBe('2');
    await user.selectOptions(screen.getByLabelText('Asesor'), '7');
    await waitFor(() => expect(window.location.search).toBe('?from=2026-01-01&to=2026-06-30&subdivision_id=2&agent_id=7&channel=FACEBOOK'));
    await user.selectOptions(screen.getByLabelText('Lotización'), '');
    await waitFor(() => expect(window.location.search).toBe('?from=2026-01-01&to=2026-06-30&agent_id=7&channel=FACEBOOK'));
    expect(window.location.pathname).toBe('/COMERCIO/reporteVentas');
  });

  it('switches the chart to dollars, and draws it for the dark theme', async () => {
    const { user } = setup({}, true);
    const chart = await screen.findByTestId('chart-stand-in');
    expect(chart.textContent).toContain('PEN oscuro');
    await user.click(within(screen.getByRole('group', { name: 'Moneda del gráfico' })).getByRole('button', { name: 'US$' }));
    await waitFor(() => expect(screen.getByTestId('chart-stand-in').textContent).toContain('USD oscuro 2025-12:0:0'));
    expect(screen.getByTestId('chart-stand-in').textContent).toContain('2026-11:2500000:1');
  });

  it('sends every filter, and refuses a period that ends before it starts without asking the server', async () => {
    const { api, user } = setup();
    await screen.findByTestId('sales-report-count');
    await user.selectOptions(await screen.findByLabelText('Lotización'), '2');
    await waitFor(() => expect(api.report).toHaveBeenLastCalledWith({ from: '2025-12-01', to: '2026-11-22', subdivision_id: 2 }));
    await user.selectOptions(screen.getByLabelText('Asesor'), '7');
    await user.selectOptions(screen.getByLabelText('Canal'), 'FACEBOOK');
    await waitFor(() =>
      expect(api.report).toHaveBeenLastCalledWith({
        from: '2025-12-01',
        to: '2026-11-22',
        subdivision_id: 2,
        agent_id: 7,
        channel: 'FACEBOOK',
      }),
    );
    const calls = vi.mocked(api.report).mock.calls.length;
    const to = screen.getByLabelText('Hasta');
    await user.clear(to);
    await user.type(to, '30/11/2025');
    expect(await screen.findByText(SALES_REPORT_MESSAGES.order)).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    // The last figures stay, said to be the previous period's.
    expect(screen.getByText(/Corrija el período para actualizar el reporte/)).toBeTruthy();
    expect(vi.mocked(api.report).mock.calls.length).toBe(calls);
    expect(screen.getByRole('button', { name: 'Exportar Excel' })).toHaveProperty('disabled', true);
  });

  it('shows an empty period as such', async () => {
    setup({ report: vi.fn(async () => ({ ...report, totals: [], by_month: [], by_subdivision: [], by_agent: [], by_channel: [] })) });
    expect(await screen.findByText('Sin ventas en el período')).toBeTruthy();
    expect(screen.getByTestId('sales-report-count').textContent).toBe('0');
    expect(screen.queryByTestId('chart-stand-in')).toBeNull();
  });

  it('downloads the Excel and the PDF of the current filters under the period’s name', async () => {
    const { api, saveBlob, user } = setup();
    await screen.findByTestId('sales-report-count');
    await user.click(screen.getByRole('button', { name: 'Exportar Excel' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'reporte-ventas_2025-12-01_2026-11-22.xlsx'));
    expect(api.file).toHaveBeenCalledWith({ from: '2025-12-01', to: '2026-11-22' }, 'xlsx');
    await user.click(screen.getByRole('button', { name: 'Exportar PDF' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'reporte-ventas_2025-12-01_2026-11-22.pdf'));
  });

  it('says when the report cannot be loaded, and retries', async () => {
    const failing = vi.fn().mockRejectedValueOnce(new Error('caído')).mockResolvedValue(report);
    const { user } = setup({ report: failing });
    expect(await screen.findByText('No se pudo cargar el reporte de ventas')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('sales-report-count')).toHaveProperty('textContent', '4');
  });
});
