import { useMemo } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import { formatMoney, CURRENCY_SYMBOL, type CurrencyCode } from '../../lib/money';
import { salesMonthLabel } from '../../schemas/comercio/sales-report';
import { useEChart } from '../shared/use-echart';

/**
 * The monthly chart of Reporte de Ventas (issue "CRM and sales": "a chart per month (Apache
 * ECharts, loaded only on this screen)"): bars of the total sold per month in one currency (left
 * axis) and a line of the number of sales (right axis). Only the parts used are registered
 * (echarts/core, bar, line, grid, tooltip, legend, canvas; the accessible name is ours, in Spanish, not ECharts' generated aria text), and this module is imported
 * lazily by SalesReportPage, so ECharts is its own chunk, fetched with this screen only.
 *
 * Colours follow the theme: Blueprint's blue and orange, lighter in dark mode, with the text and
 * grid lines of Blueprint's light or dark palette on a transparent background.
 */

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type ChartOption = ComposeOption<BarSeriesOption | LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

/** One month of the chart: total sold in céntimos and number of sales. */
export interface MonthPoint {
  month: string;
  total: number;
  count: number;
}

/** Blueprint 6 palette per theme (core colours: blue3/blue5, orange3/orange5, dark-gray/light-gray text and lines). */
const PALETTE = {
  light: { bar: '#2d72d2', line: '#c87619', text: '#1c2127', muted: '#5f6b7c', axis: '#abb3bf', split: '#e5e8eb', tooltip: '#ffffff' },
  dark: { bar: '#4c90f0', line: '#f0b726', text: '#f6f7f9', muted: '#abb3bf', axis: '#5f6b7c', split: '#383e47', tooltip: '#2f343c' },
};

const compact = new Intl.NumberFormat('es-PE', { notation: 'compact', maximumFractionDigits: 1 });

/** The chart's ECharts option (exported for the unit test of its data and colours). */
export function salesChartOption(points: readonly MonthPoint[], currency: CurrencyCode, dark: boolean): ChartOption {
  const c = dark ? PALETTE.dark : PALETTE.light;
  const months = points.map((p) => salesMonthLabel(p.month));
  const totalName = `Total vendido (${CURRENCY_SYMBOL[currency]})`;
  return {
    backgroundColor: 'transparent',
    textStyle: { color: c.text, fontFamily: 'inherit' },
    animationDuration: 300,
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0, textStyle: { color: c.text }, data: [totalName, 'Ventas'] },
    tooltip: {
      trigger: 'axis',
      backgroundColor: c.tooltip,
      borderColor: c.axis,
      textStyle: { color: c.text },
      formatter: (params: unknown) => {
        const list = Array.isArray(params) ? (params as { dataIndex: number }[]) : [];
        const point = list[0] ? points[list[0].dataIndex] : undefined;
        if (!point) return '';
        return `<strong>${salesMonthLabel(point.month)}</strong><br/>Total vendido: ${formatMoney(point.total, currency)}<br/>Ventas: ${point.count}`;
      },
    },
    xAxis: {
      type: 'category',
      data: months,
      axisLine: { lineStyle: { color: c.axis } },
      axisTick: { alignWithLabel: true, lineStyle: { color: c.axis } },
      axisLabel: { color: c.muted, hideOverlap: true },
    },
    yAxis: [
      {
        type: 'value',
        name: CURRENCY_SYMBOL[currency],
        nameTextStyle: { color: c.muted },
        axisLabel: { color: c.muted, formatter: (v: number) => compact.format(v) },
        splitLine: { lineStyle: { color: c.split } },
      },
      {
        type: 'value',
        name: 'Ventas',
        minInterval: 1,
        nameTextStyle: { color: c.muted },
        axisLabel: { color: c.muted },
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: totalName,
        type: 'bar',
        yAxisIndex: 0,
        itemStyle: { color: c.bar, borderRadius: [3, 3, 0, 0] },
        barMaxWidth: 36,
        data: points.map((p) => p.total / 100),
      },
      {
        name: 'Ventas',
        type: 'line',
        yAxisIndex: 1,
        smooth: false,
        symbolSize: 6,
        itemStyle: { color: c.line },
        lineStyle: { color: c.line, width: 2 },
        data: points.map((p) => p.count),
      },
    ],
  };
}

/** The chart in a box of the page's width and 320 px high; redrawn when the data or the theme change, resized with its box. */
export default function SalesReportChart({
  points,
  currency,
  dark,
}: {
  points: readonly MonthPoint[];
  currency: CurrencyCode;
  dark: boolean;
}) {
  const option = useMemo(() => salesChartOption(points, currency, dark), [points, currency, dark]);
  const box = useEChart(option);

  return (
    <div
      ref={box}
      className="sales-report-chart"
      role="img"
      aria-label={`Gráfico por mes: total vendido en ${CURRENCY_SYMBOL[currency]} y número de ventas`}
      data-testid="sales-report-chart"
    />
  );
}
