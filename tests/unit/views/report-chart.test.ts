/**
 * The ECharts option of a report's chart (src/views/reportes/ReportChart.tsx; docs/reports.md
 * "Rules shared by every report": a chart has one series per currency, never soles and dollars
 * added): money drawn in currency units, stacks per currency, lines over bars, and the funnel.
 */
import { describe, expect, it } from 'vitest';
import { reportChartOption } from '../../../src/views/reportes/ReportChart';
import type { ReportChart } from '../../../src/schemas/reportes/report';

type Series = {
  type: string;
  name: string;
  stack?: string;
  data: unknown[];
  tooltip?: { valueFormatter: (v: unknown) => string };
};

const money: ReportChart = {
  kind: 'bar',
  unit: 'money',
  categories: ['2026-10', '2026-11'],
  series: [
    { name: 'Esperado (S/)', currency: 'PEN', values: [150_000, null] },
    { name: 'Esperado (US$)', currency: 'USD', values: [2_500_000, 123_456] },
    { name: 'Cobrado (S/)', currency: 'PEN', line: true, values: [100_050, 0] },
  ],
};

describe('reportChartOption', () => {
  it('money bars in currency units (céntimos ÷ 100), one series per currency, a `line` series drawn as a line', () => {
    const option = reportChartOption(money, false);
    const series = option.series as Series[];
    expect(series.map((s) => [s.type, s.name, s.data])).toEqual([
      ['bar', 'Esperado (S/)', [1_500, null]],
      ['bar', 'Esperado (US$)', [25_000, 1_234.56]],
      ['line', 'Cobrado (S/)', [1_000.5, 0]],
    ]);
    expect(series.every((s) => s.stack === undefined)).toBe(true);
    expect((option.xAxis as { data: string[] }).data).toEqual(['2026-10', '2026-11']);
    // The tooltip writes the value as the table does, in its series' currency.
    expect(series[0]!.tooltip!.valueFormatter(1_500)).toBe('S/ 1,500.00');
    expect(series[1]!.tooltip!.valueFormatter(1_234.56)).toBe('US$ 1,234.56');
    expect(series[0]!.tooltip!.valueFormatter(null)).toBe('—');
  });

  it('stacked bars stack per currency, never soles over dollars', () => {
    const option = reportChartOption({ ...money, kind: 'stacked' }, false);
    const series = option.series as Series[];
    expect(series.map((s) => [s.type, s.stack])).toEqual([
      ['bar', 'PEN'],
      ['bar', 'USD'],
      ['line', undefined],
    ]);
  });

  it('a line chart draws every series as a line; percents are drawn ×100', () => {
    const option = reportChartOption(
      { kind: 'line', unit: 'percent', categories: ['ene', 'feb'], series: [{ name: 'Conversión', values: [0.25, 0.5] }] },
      true,
    );
    const [line] = option.series as Series[];
    expect(line).toMatchObject({ type: 'line', data: [25, 50] });
    expect(line!.tooltip!.valueFormatter(25)).toBe('25.0 %');
  });

  it('a funnel of the first series: one item per category, the item tooltip', () => {
    const option = reportChartOption(
      {
        kind: 'funnel',
        unit: 'count',
        categories: ['Leads', 'Reservas', 'Ventas'],
        series: [{ name: 'Embudo', values: [120, 30, null] }],
      },
      false,
    );
    const [funnel] = option.series as (Series & { data: { name: string; value: number }[] })[];
    expect(funnel).toMatchObject({ type: 'funnel', name: 'Embudo' });
    expect(funnel!.data).toEqual([
      { name: 'Leads', value: 120 },
      { name: 'Reservas', value: 30 },
      { name: 'Ventas', value: 0 },
    ]);
    expect((option.tooltip as { trigger: string }).trigger).toBe('item');
    expect(option.xAxis).toBeUndefined();
  });
});
