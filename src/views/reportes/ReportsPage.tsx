import { lazy, Suspense, use } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Spinner, Tab, Tabs } from '@blueprintjs/core';
import { OutsideTabPanel } from '../shared/BlueprintEs';
import { useServices } from '../services';
import { useTheme } from '../shell/shell-context';
import type { ReportsMachines } from '../../machines/reportes/reports.actors';
import { EXPENSES_TAB, isSharedReport, REPORT_TABS, tabOf, tabSearch, tabTitle, type ReportTab } from './report-tabs';
import '../../styles/reportes.css';

/**
 * /Reportes and /ReportesEconomicos (docs/reports.md): a tab per report, the tab in the address
 * (`?reporte=<id>`, shareable with its filters). /Reportes' first tab is Ventas, the sales report
 * of Comercial (the same screen and figures, merged here rather than written twice); every other
 * tab is a ReportPanel (./ReportPanel.tsx) of the shared report shape, with its own machine, but
 * /ReportesEconomicos' last, Egresos: the expenses register's list and editor (./egresos/ExpensesTab.tsx).
 */

// A report's panel (filters, table, chart) is its own chunk, fetched with the first report shown.
const ReportPanel = lazy(() => import('./ReportPanel').then((m) => ({ default: m.ReportPanel })));

// The expenses register is its own chunk, fetched when its tab shows (its table and editor's code
// stay out of the entry's preload lists: docs/decisions.md "Screens' preload lists").
const ExpensesTab = lazy(() => import('./egresos/ExpensesTab').then((m) => ({ default: m.ExpensesTab })));

// The sales report's screen is its own chunk, fetched when its tab shows.
const SalesReportTab = lazy(() => import('../comercio/SalesReportPage').then((m) => ({ default: () => <m.SalesReportScreen embedded /> })));

export function ReportsScreen() {
  return <ReportsTabs kind="operational" />;
}

export function FinancialReportsScreen() {
  return <ReportsTabs kind="financial" />;
}

function ReportsTabs({ kind }: { kind: keyof typeof REPORT_TABS }) {
  const machines = use(useServices().machines.reports());
  const dark = useTheme((s) => s.context.styles.darkTheme);
  const search = useSearch();
  const [location, navigate] = useLocation();
  const tab = tabOf(kind, search);
  const tabsId = `reportes-${kind}`;
  const title = kind === 'operational' ? 'Reportes' : 'Reportes Económicos';
  const select = (next: ReportTab) => navigate(`${location}${tabSearch(next, search)}`, { replace: true });
  return (
    <section className="reports-page" aria-labelledby="reportes-title">
      <h1 id="reportes-title" className="bp6-heading reports-title">
        {title}
      </h1>
      <Tabs id={tabsId} selectedTabId={tab} onChange={(id) => select(id as ReportTab)} className="reports-tabs" large={false}>
        {REPORT_TABS[kind].map((t) => (
          <Tab key={t} id={t} title={tabTitle(t)} />
        ))}
      </Tabs>
      <OutsideTabPanel tabsId={tabsId} selectedTabId={tab}>
        {isSharedReport(tab) ? (
          <Suspense fallback={<Spinner aria-label="Cargando el reporte" />}>
            <ReportPanel key={tab} report={tab} machines={machines as ReportsMachines} dark={dark} />
          </Suspense>
        ) : tab === EXPENSES_TAB ? (
          <Suspense fallback={<Spinner aria-label="Cargando los egresos" />}>
            <ExpensesTab machines={machines as ReportsMachines} />
          </Suspense>
        ) : (
          <Suspense fallback={<Spinner aria-label="Cargando el reporte" />}>
            <SalesReportTab />
          </Suspense>
        )}
      </OutsideTabPanel>
    </section>
  );
}
