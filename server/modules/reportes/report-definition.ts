import { Temporal } from 'temporal-polyfill';
import type { Report, ReportId, ReportOutput, ReportQuery } from '../../../src/schemas/reportes/report';
import type { AppDeps } from '../../context';
import { todayInLimaBy } from '../../clock';

/**
 * One report of /Reportes or /ReportesEconomicos (docs/reports.md): what the routes
 * (reports.routes.ts) need to answer GET /api/reports/{id}, its Excel and its PDF. Every report
 * builds its whole table: the screen shows the first rows, the files carry every row.
 */

/** What a report may read: the database and the app's clock. */
export type ReportDeps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Who asks: `agentId`, when set, is the only agent whose sales, leads, reservations and commissions
 * the caller may see (the sales scope 'Solo sus ventas' or the exports scope: a report never shows
 * what the caller's lists hide; docs/security.md); the routes have already forced `query.agent_id`
 * to it.
 */
export interface ReportScope {
  agentId: number | null;
}

/** A report's inputs: `today` is Lima's date by the app's clock (`YYYY-MM-DD`). */
export interface ReportContext {
  deps: ReportDeps;
  query: ReportQuery;
  scope: ReportScope;
  today: string;
}

/**
 * A report: its `id`, whether it belongs to /Reportes or /ReportesEconomicos (`kind`, which decides
 * the module permission), and `build`, which answers every row (`rows` complete, `row_count` =
 * `rows.length`; the route trims the screen's copy). `period` says whether the report reads
 * `from`/`to` (defaulting to this month) or is a picture at `today`.
 */
export interface ReportDefinition {
  id: ReportId;
  kind: 'operational' | 'financial';
  period: boolean;
  build(context: ReportContext): Promise<ReportOutput>;
}

/** Lima's today (`YYYY-MM-DD`) by the app's clock. */
export const reportToday = (deps: ReportDeps): string => todayInLimaBy(deps.clock);

/**
 * The period of a report that reads one: the query's `from`/`to`, or this month from its first day
 * to `today` when absent (a lone `from` runs to `today`, a lone `to` starts its month).
 */
export function reportPeriod(query: ReportQuery, today: string): { from: string; to: string } {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? Temporal.PlainDate.from(to).with({ day: 1 }).toString();
  return { from, to };
}

/** A built report with every optional part filled in (what the route answers and the files print). */
export function completeReport(report: ReportOutput): Report {
  return {
    ...report,
    from: report.from ?? null,
    to: report.to ?? null,
    filters: report.filters ?? [],
    notes: report.notes ?? [],
    totals: report.totals ?? [],
    chart: report.chart ?? null,
  } as Report;
}
