/**
 * The tabs of /Reportes and /ReportesEconomicos (src/views/reportes/report-tabs.ts; docs/reports.md):
 * the tab is `?reporte=<id>`, none or an unknown one opens the first (Ventas on /Reportes), and a
 * new tab keeps only the period of the one left.
 */
import { describe, expect, it } from 'vitest';
import { isSharedReport, REPORT_TABS, SALES_TAB, tabOf, tabSearch, tabTitle } from '../../../src/views/reportes/report-tabs';

describe('report tabs', () => {
  it('opens the asked tab among the kind’s tabs, else the first', () => {
    expect(tabOf('operational', '')).toBe(SALES_TAB);
    expect(SALES_TAB).toBe('ventas');
    expect(tabOf('operational', '?reporte=cobranza&from=2026-01-01')).toBe('cobranza');
    expect(tabOf('operational', '?reporte=nada')).toBe('ventas');
    // A financial report is not a tab of /Reportes, and the other way round.
    expect(tabOf('operational', '?reporte=flujo-caja')).toBe('ventas');
    expect(tabOf('financial', '?reporte=cobranza')).toBe('flujo-caja');
    expect(tabOf('financial', '?reporte=valor-cartera')).toBe('valor-cartera');
  });

  it('keeps only from/to when switching tabs (the other filters belong to the report left)', () => {
    expect(tabSearch('inventario', '?reporte=cobranza&from=2026-01-01&to=2026-03-31&group=month&subdivision_id=3')).toBe(
      '?reporte=inventario&from=2026-01-01&to=2026-03-31',
    );
    expect(tabSearch('ventas', '?reporte=cobranza&subdivision_id=3')).toBe('?reporte=ventas');
  });

  it('titles every tab; only the sales tab and Egresos are not of the shared report shape', () => {
    expect(tabTitle('ventas')).toBe('Ventas');
    expect(tabTitle('flujo-caja')).toBe('Flujo de caja proyectado');
    expect(tabTitle('egresos')).toBe('Egresos');
    expect(REPORT_TABS.financial.at(-1)).toBe('egresos');
    expect(tabOf('financial', '?reporte=egresos')).toBe('egresos');
    expect(tabOf('operational', '?reporte=egresos')).toBe('ventas');
    expect([...REPORT_TABS.operational, ...REPORT_TABS.financial].filter((t) => !isSharedReport(t))).toEqual(['ventas', 'egresos']);
  });
});
