/**
 * The ECharts option of Inicio's charts (src/views/inicio/DashboardChart.tsx): one bar per category
 * of each series, stacked when asked (lots by status per subdivision, in the statuses' colours), a
 * legend only with several series, and text that reads on the light and the dark theme.
 */
import { describe, expect, it } from 'vitest';
import { dashboardChartOption } from '../../src/views/inicio/DashboardChart';

type Series = { type: string; name: string; data: number[]; stack?: string; itemStyle: { color: string } };

describe('dashboardChartOption', () => {
  it('bars of one series, no legend, the theme’s blue', () => {
    const option = dashboardChartOption(
      { label: 'x', categories: ['Al día', '1–30 días'], series: [{ name: 'Cuotas', values: [40, 5] }] },
      false,
    );
    const [bars] = option.series as Series[];
    expect(bars).toMatchObject({ type: 'bar', name: 'Cuotas', data: [40, 5], itemStyle: { color: '#2d72d2' } });
    expect(bars!.stack).toBeUndefined();
    expect(option.legend).toBeUndefined();
    expect((option.xAxis as { data: string[] }).data).toEqual(['Al día', '1–30 días']);
  });

  it('stacked series with their own colours and a legend; light text on the dark theme', () => {
    const spec = {
      label: 'x',
      stacked: true,
      categories: ['Los Viñedos', 'Bosques'],
      series: [
        { name: 'Disponible', values: [20, 3], color: '#2e9e5b' },
        { name: 'Vendido', values: [5, 0], color: '#c23b3b' },
      ],
    };
    const dark = dashboardChartOption(spec, true);
    const series = dark.series as Series[];
    expect(series.map((s) => [s.stack, s.itemStyle.color, s.data])).toEqual([
      ['total', '#2e9e5b', [20, 3]],
      ['total', '#c23b3b', [5, 0]],
    ]);
    expect((dark.legend as { data: string[] }).data).toEqual(['Disponible', 'Vendido']);
    expect((dark.textStyle as { color: string }).color).toBe('#f6f7f9');
    expect((dashboardChartOption(spec, false).textStyle as { color: string }).color).toBe('#1c2127');
    expect(dark.backgroundColor).toBe('transparent');
  });
});
