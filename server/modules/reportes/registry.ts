import type { ReportId } from '../../../src/schemas/reportes/report';
import { collectionsReport } from './cobranza.report';
import type { ReportDefinition } from './report-definition';

/** Every report the server answers (GET /api/reports/{id}), in the tabs' order (docs/reports.md). */
export const REPORTS: readonly ReportDefinition[] = [collectionsReport];

/** A report by id, or undefined. */
export const reportById = (id: ReportId | string): ReportDefinition | undefined => REPORTS.find((r) => r.id === id);
