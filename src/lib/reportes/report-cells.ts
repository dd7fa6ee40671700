import type { ReportColumn, ReportRow } from '../../schemas/reportes/report';
import { salesMonthLabel } from '../../schemas/comercio/sales-report';
import { formatArea, formatMoney } from '../money';
import { formatDate } from '../dates';

/**
 * How a report's cell reads on screen and in the PDF (docs/reports.md): money with its row's
 * currency symbol ("S/ 1,234.50"), counts and days as whole numbers, m² with two decimals, a ratio
 * 0..1 as a percentage with one decimal ("72.4 %", es-PE), dates dd/mm/yyyy, months "nov 2026". An empty
 * cell, or money in a row without currency, reads "—".
 */
export function formatReportCell(
  column: Pick<ReportColumn, 'kind'>,
  value: string | number | null | undefined,
  currency: ReportRow['currency'],
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') {
    // A text that is not a date (a totals row's 'Total' in a date column) reads as is.
    if (column.kind === 'date') return formatDate(value) || value;
    if (column.kind === 'month') return salesMonthLabel(value);
    return value;
  }
  switch (column.kind) {
    case 'money':
      return currency ? formatMoney(value, currency) : '—';
    case 'area':
      return formatArea(value);
    case 'percent':
      return `${(value * 100).toLocaleString('es-PE', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;
    case 'count':
    case 'days':
      return Math.round(value).toLocaleString('es-PE');
    default:
      return String(value);
  }
}

/** Whether a column's cells are figures (aligned right on screen and in the files). */
export const isFigureColumn = (column: Pick<ReportColumn, 'kind'>) =>
  column.kind !== 'text' && column.kind !== 'date' && column.kind !== 'month';
