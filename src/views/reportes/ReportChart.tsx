import { useMemo } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, FunnelChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, FunnelSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ReportChart as ReportChartData } from '../../schemas/reportes/report';
import { formatReportCell } from '../../lib/reportes/report-cells';
import { useEChart } from '../shared/use-echart';

/**
 * A report's chart (docs/reports.md): bars, stacked bars, lines or a funnel from the report's
 * `chart` (categories and series; money series in céntimos, one per currency, drawn in currency
 * units). Only the parts used are registered, and this module is imported lazily by ReportPanel,
 * so ECharts is fetched with the reports only. Colours follow the theme (Blueprint's palette).
 */

echarts.use([BarChart, LineChart, FunnelChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | FunnelSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

/** Blueprint 6 series colours (blue, orange, green, violet, red, turquoise, gold, gray) and the theme's text and lines. */
const PALETTE = {
  light: {
    series: ['#2d72d2', '#c87619', '#238551', '#7961db', '#cd4246', '#00a396', '#d1980b', '#738091'],
    text: '#1c2127',
    muted: '#5f6b7c',
    axis: '#abb3bf',
    split: '#e5e8eb',
    tooltip: '#ffffff',
  },
  dark: {
    series: ['#4c90f0', '#f0b726', '#32a467', '#9881f3', '#e76a6e', '#13c9ba', '#fbd065', '#abb3bf'],
    text: '#f6f7f9',
    muted: '#abb3bf',
    axis: '#5f6b7c',
    split: '#383e47',
    tooltip: '#2f343c',
  },
};

const compact = new Intl.NumberFormat('es-PE', { notation: 'compact', maximumFractionDigits: 1 });

/** The chart's ECharts option (exported for the unit test of its data). Money is drawn in currency units (céntimos ÷ 100). */
export function reportChartOption(chart: ReportChartData, dark: boolean): ChartOption {
  const c = dark ? PALETTE.dark : PALETTE.light;
  const scale = (v: number | null) => (v === null ? null : chart.unit === 'money' ? v / 100 : chart.unit === 'percent' ? v * 100 : v);
  const base = {
    backgroundColor: 'transparent',
    color: c.series,
    textStyle: { color: c.text, fontFamily: 'inherit' },
    animationDuration: 300,
    legend: { top: 0, type: 'scroll' as const, textStyle: { color: c.text } },
    tooltip: {
      trigger: chart.kind === 'funnel' ? ('item' as const) : ('axis' as const),
      backgroundColor: c.tooltip,
      borderColor: c.axis,
      textStyle: { color: c.text },
    },
  };
  if (chart.kind === 'funnel') {
    const series = chart.series[0];
    return {
      ...base,
      series: [
        {
          type: 'funnel',
          name: series?.name ?? '',
          top: 40,
          bottom: 8,
          sort: 'none',
          label: { color: c.text, formatter: '{b}: {c}' },
          data: chart.categories.map((name, i) => ({ name, value: scale(series?.values[i] ?? 0) ?? 0 })),
        },
      ],
    };
  }
  return {
    ...base,
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: chart.categories,
      axisLine: { lineStyle: { color: c.axis } },
      axisTick: { alignWithLabel: true, lineStyle: { color: c.axis } },
      axisLabel: { color: c.muted, hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => compact.format(v) },
      splitLine: { lineStyle: { color: c.split } },
    },
    series: chart.series.map((s) =>
      s.line || chart.kind === 'line'
        ? {
            type: 'line' as const,
            name: s.name,
            symbolSize: 5,
            data: s.values.map(scale),
            tooltip: { valueFormatter: (v: unknown) => formatTooltip(chart, v, s.currency) },
          }
        : {
            type: 'bar' as const,
            name: s.name,
            barMaxWidth: 36,
            ...(chart.kind === 'stacked' ? { stack: s.currency ?? 'all' } : {}),
            data: s.values.map(scale),
            tooltip: { valueFormatter: (v: unknown) => formatTooltip(chart, v, s.currency) },
          },
    ),
  };
}

/** A tooltip's value as the table writes it (the value is in the axis' unit: back to céntimos or ratio first). */
function formatTooltip(chart: ReportChartData, value: unknown, currency: 'PEN' | 'USD' | undefined): string {
  if (typeof value !== 'number') return '—';
  const raw = chart.unit === 'money' ? Math.round(value * 100) : chart.unit === 'percent' ? value / 100 : value;
  const kind = chart.unit === 'money' ? 'money' : chart.unit === 'percent' ? 'percent' : chart.unit === 'area' ? 'area' : 'count';
  return formatReportCell({ kind }, raw, currency);
}

/** The chart in a box of the panel's width; redrawn when the data or the theme change. */
export default function ReportChart({ chart, title, dark }: { chart: ReportChartData; title: string; dark: boolean }) {
  const option = useMemo(() => reportChartOption(chart, dark), [chart, dark]);
  const box = useEChart(option);
  return (
    <div
      ref={box}
      className="report-chart"
      role="img"
      aria-label={`Gráfico de ${title}: ${chart.series.map((s) => s.name).join(', ')}`}
      data-testid="report-chart"
    />
  );
}
