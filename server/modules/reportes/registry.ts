import type { ReportId } from '../../../src/schemas/reportes/report';
import { overduePortfolioReport } from './cartera-morosa.report';
import { collectionsReport } from './cobranza.report';
import { commissionsReport } from './comisiones.report';
import { leadConversionReport } from './conversion-leads.report';
import { cashFlowReport } from './flujo-caja.report';
import { incomeExpensesReport } from './ingresos-egresos.report';
import { inventoryReport } from './inventario.report';
import type { ReportDefinition } from './report-definition';
import { reservationsReport } from './reservas.report';
import { portfolioValueReport } from './valor-cartera.report';

/** Every report the server answers (GET /api/reports/{id}), in the tabs' order (docs/reports.md). */
export const REPORTS: readonly ReportDefinition[] = [
  collectionsReport,
  overduePortfolioReport,
  inventoryReport,
  leadConversionReport,
  reservationsReport,
  commissionsReport,
  cashFlowReport,
  incomeExpensesReport,
  portfolioValueReport,
];

/** A report by id, or undefined. */
export const reportById = (id: ReportId | string): ReportDefinition | undefined => REPORTS.find((r) => r.id === id);
