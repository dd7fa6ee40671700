import { useEffect, useRef, type RefObject } from 'react';
import type { EChartsCoreOption } from 'echarts/core';
import { init } from 'echarts/core';

/**
 * An Apache ECharts chart bound to a `<div>`: the instance lives with the element (a DOM resource,
 * not app state) — created once on the canvas renderer, resized with its box (ResizeObserver),
 * disposed on unmount — and `option` is set again (not merged) whenever it changes, so memoise it.
 * The caller registers the chart types and components it uses (`echarts.use`) in its own module,
 * which is what keeps ECharts in the lazily loaded chunk of the screens that draw charts
 * (docs/dependencies.md "echarts"). @returns the ref to put on the chart's `<div>`.
 */
export function useEChart(option: EChartsCoreOption): RefObject<HTMLDivElement | null> {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = init(element, null, { renderer: 'canvas' });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => instance.resize()) : null;
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return box;
}
