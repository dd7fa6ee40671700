/**
 * The ECharts option of Reporte de Ventas' monthly chart (src/views/comercio/SalesReportChart.tsx):
 * one bar per month of the total sold in the currency's units and a line of the number of sales on
 * its own axis, month labels in Spanish, and colours that read on the light and the dark theme.
 */
import { describe, expect, it } from 'vitest';
import { salesChartOption } from '../../src/views/comercio/SalesReportChart';

const points = [
  { month: '2026-10', total: 0, count: 0 },
  { month: '2026-11', total: 6_000_050, count: 2 },
];

type Series = { type: string; data: number[]; yAxisIndex: number; itemStyle: { color: string } };

describe('salesChartOption', () => {
  it('bars of the total sold (currency units), a line of the count on the right axis, Spanish months', () => {
    const option = salesChartOption(points, 'PEN', false);
    const [bars, line] = option.series as Series[];
    expect(bars).toMatchObject({ type: 'bar', yAxisIndex: 0, data: [0, 60_000.5] });
    expect(line).toMatchObject({ type: 'line', yAxisIndex: 1, data: [0, 2] });
    expect((option.xAxis as { data: string[] }).data).toEqual(['oct 2026', 'nov 2026']);
    expect((option.legend as { data: string[] }).data).toEqual(['Total vendido (S/)', 'Ventas']);
    const tooltip = option.tooltip as { formatter: (params: unknown) => string };
    expect(tooltip.formatter([{ dataIndex: 1 }])).toBe('<strong>nov 2026</strong><br/>Total vendido: S/ 60,000.50<br/>Ventas: 2');
  });

  it('light text on the dark theme and dark text on the light one, on a transparent background', () => {
    const light = salesChartOption(points, 'USD', false);
    const dark = salesChartOption(points, 'USD', true);
    expect(light.backgroundColor).toBe('transparent');
    expect(dark.backgroundColor).toBe('transparent');
    const text = (o: typeof light) => (o.textStyle as { color: string }).color;
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    expect(luminance(text(light))).toBeLessThan(0.2);
    expect(luminance(text(dark))).toBeGreaterThan(0.8);
    const barColour = (o: typeof light) => (o.series as Series[])[0]!.itemStyle.color;
    expect(luminance(barColour(dark))).toBeGreaterThan(luminance(barColour(light)));
  });
});
