import { lazy, Suspense } from 'react';
import type { DashboardChartSpec } from './DashboardChart';

// ECharts is fetched when a chart first shows, in its own chunk (docs/dependencies.md "echarts").
const DashboardChart = lazy(() => import('./DashboardChart'));

/** A card's chart, loaded on demand; an empty box of the chart's height meanwhile. */
export function LazyDashboardChart({ spec, dark }: { spec: DashboardChartSpec; dark: boolean }) {
  return (
    <Suspense fallback={<div className="dashboard-chart" aria-hidden="true" />}>
      <DashboardChart spec={spec} dark={dark} />
    </Suspense>
  );
}
