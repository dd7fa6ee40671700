import { useMemo } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import { useEChart } from '../shared/use-echart';

/**
 * The bar charts of Inicio's cards (overdue by bucket, lots by status per subdivision stacked,
 * leads by status): Apache ECharts with only the parts used registered (bar, grid, tooltip, legend,
 * canvas), imported lazily by the cards so ECharts is its own chunk, fetched after Inicio's first
 * paint (docs/dependencies.md "echarts"; as src/views/comercio/SalesReportChart.tsx). Each card
 * also lists the same figures as text: the chart is a picture of them (`role="img"`, Spanish name).
 *
 * Colours follow the theme like the sales report's chart: Blueprint's palette, lighter in dark mode,
 * with its text and grid lines on a transparent background; a series may bring its own colour
 * (a lot status's).
 */

echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type ChartOption = ComposeOption<BarSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

/** One series of bars: a value per category. */
export interface DashboardChartSeries {
  name: string;
  values: readonly number[];
  /** Its colour (e.g. a lot status's); the theme's blue otherwise. */
  color?: string;
}

/** What a card charts: categories on the axis, one or more series (stacked when `stacked`). */
export interface DashboardChartSpec {
  categories: readonly string[];
  series: readonly DashboardChartSeries[];
  stacked?: boolean;
  /** The chart's accessible name (Spanish). */
  label: string;
}

/** Blueprint 6 palette per theme (blue3/blue5 bars; dark-gray/light-gray text and lines). */
const PALETTE = {
  light: { bar: '#2d72d2', text: '#1c2127', muted: '#5f6b7c', axis: '#abb3bf', split: '#e5e8eb', tooltip: '#ffffff' },
  dark: { bar: '#4c90f0', text: '#f6f7f9', muted: '#abb3bf', axis: '#5f6b7c', split: '#383e47', tooltip: '#2f343c' },
};

/** The chart's ECharts option (exported for the unit test of its data and colours). */
export function dashboardChartOption(spec: DashboardChartSpec, dark: boolean): ChartOption {
  const c = dark ? PALETTE.dark : PALETTE.light;
  const legend = spec.series.length > 1;
  return {
    backgroundColor: 'transparent',
    textStyle: { color: c.text, fontFamily: 'inherit' },
    animationDuration: 300,
    grid: { left: 8, right: 8, top: legend ? 48 : 12, bottom: 8, containLabel: true },
    ...(legend ? { legend: { top: 0, type: 'scroll', textStyle: { color: c.text }, data: spec.series.map((s) => s.name) } } : {}),
    tooltip: { trigger: 'axis', backgroundColor: c.tooltip, borderColor: c.axis, textStyle: { color: c.text } },
    xAxis: {
      type: 'category',
      data: [...spec.categories],
      axisLine: { lineStyle: { color: c.axis } },
      axisTick: { alignWithLabel: true, lineStyle: { color: c.axis } },
      axisLabel: { color: c.muted, hideOverlap: true, interval: 0, overflow: 'truncate', width: 90 },
    },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.split } } },
    series: spec.series.map((s) => ({
      name: s.name,
      type: 'bar',
      ...(spec.stacked ? { stack: 'total' } : {}),
      barMaxWidth: 36,
      itemStyle: { color: s.color ?? c.bar, ...(spec.stacked ? {} : { borderRadius: [3, 3, 0, 0] }) },
      data: [...s.values],
    })),
  };
}

/** The chart in a box of the card's width, 220 px high; redrawn when the data or the theme change, resized with its box. */
export default function DashboardChart({ spec, dark }: { spec: DashboardChartSpec; dark: boolean }) {
  const option = useMemo(() => dashboardChartOption(spec, dark), [spec, dark]);
  const box = useEChart(option);
  return <div ref={box} className="dashboard-chart" role="img" aria-label={spec.label} data-testid="dashboard-chart" />;
}
