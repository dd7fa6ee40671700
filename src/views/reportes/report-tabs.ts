import { FINANCIAL_REPORTS, OPERATIONAL_REPORTS, REPORT_IDS, REPORT_TITLES, type ReportId } from '../../schemas/reportes/report';

/**
 * The tabs of /Reportes (Ventas — the sales report, merged here — then the operational reports)
 * and of /ReportesEconomicos (docs/reports.md; its last tab, Egresos, is the expenses register the
 * report Ingresos vs egresos sums). The tab is `?reporte=<id>` in the address; none (or an unknown
 * one) opens the first.
 */

/** The sales report's tab id on /Reportes. */
export const SALES_TAB = 'ventas';
/** The expenses register's tab id on /ReportesEconomicos (not a report: a list with its editor). */
export const EXPENSES_TAB = 'egresos';
export type ReportTab = ReportId | typeof SALES_TAB | typeof EXPENSES_TAB;

export const REPORT_TABS = {
  operational: [SALES_TAB, ...OPERATIONAL_REPORTS] as readonly ReportTab[],
  financial: [...FINANCIAL_REPORTS, EXPENSES_TAB] as readonly ReportTab[],
};

/** A tab's title. */
export const tabTitle = (tab: ReportTab) => (tab === SALES_TAB ? 'Ventas' : tab === EXPENSES_TAB ? 'Egresos' : REPORT_TITLES[tab]);

/** The tab of `search` among `kind`'s tabs (the first when absent or unknown). */
export function tabOf(kind: keyof typeof REPORT_TABS, search: string): ReportTab {
  const asked = new URLSearchParams(search).get('reporte');
  const tabs = REPORT_TABS[kind];
  return tabs.find((t) => t === asked) ?? (tabs[0] as ReportTab);
}

/** Whether a tab is a report of the shared shape (not the sales report, not Egresos). */
export const isSharedReport = (tab: ReportTab): tab is ReportId => (REPORT_IDS as readonly string[]).includes(tab);

/** The address of `tab`, keeping the period of `search` (the other filters belong to the report left). */
export function tabSearch(tab: ReportTab, search: string): string {
  const current = new URLSearchParams(search);
  const next = new URLSearchParams({ reporte: tab });
  for (const key of ['from', 'to']) {
    const value = current.get(key);
    if (value) next.set(key, value);
  }
  return `?${next.toString()}`;
}
