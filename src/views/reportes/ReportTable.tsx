import { HTMLTable } from '@blueprintjs/core';
import { Link } from 'wouter';
import type { Report, ReportRow } from '../../schemas/reportes/report';
import { formatReportCell, isFigureColumn } from '../../lib/reportes/report-cells';

/**
 * A report's table: its columns, the first rows (REPORT_SCREEN_ROWS of src/schemas/reportes/report.ts) (a row with a `link`
 * opens the list it summarises from its first cell), then the totals per currency. When the report
 * has more rows, the caption says the export carries them all.
 */
export function ReportTable({ report, caption }: { report: Report; caption: string }) {
  const more = report.row_count > report.rows.length;
  const cells = (row: ReportRow, total: boolean) =>
    report.columns.map((column, index) => {
      const text = formatReportCell(column, row.cells[column.key], row.currency);
      const className = isFigureColumn(column) ? 'report-figure' : undefined;
      if (index === 0)
        return (
          <th key={column.key} scope="row" className={className}>
            {row.link && !total ? <Link to={row.link}>{text}</Link> : text}
          </th>
        );
      return (
        <td key={column.key} className={className}>
          {text}
        </td>
      );
    });
  return (
    <div className="report-table-wrap">
      <HTMLTable compact striped className="report-table">
        <caption className="report-caption">
          {caption}
          {more
            ? ` · se muestran ${report.rows.length.toLocaleString('es-PE')} de ${report.row_count.toLocaleString('es-PE')} filas; la exportación a Excel las incluye todas`
            : ''}
        </caption>
        <thead>
          <tr>
            {report.columns.map((column) => (
              <th key={column.key} scope="col" className={isFigureColumn(column) ? 'report-figure' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row, i) => (
            <tr key={i}>{cells(row, false)}</tr>
          ))}
        </tbody>
        {report.totals.length > 0 ? (
          <tfoot>
            {report.totals.map((row, i) => (
              <tr key={i} className="report-total">
                {cells(row, true)}
              </tr>
            ))}
          </tfoot>
        ) : null}
      </HTMLTable>
    </div>
  );
}
