import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { ReportColumn, ReportOutput, ReportRow } from '../../../src/schemas/reportes/report';
import { formatReportCell, isFigureColumn } from '../../../src/lib/reportes/report-cells';
import { formatDate, formatDateTime } from '../../../src/lib/dates';
import { neutralizeFormula } from '../../../src/lib/csv';
import { salesMonthLabel } from '../../../src/schemas/comercio/sales-report';
import { PDF_FONT, renderPdf } from '../../platform/pdf';

/**
 * A report as files (docs/reports.md "Exports"): the rows the screen shows, every one of them, with
 * the printed header — company, title, period and filters, the moment of issue and who issued it —
 * written by exceljs (a streaming workbook writer: rows are flushed as they are added, so 100 000
 * rows never sit in memory as a workbook model) and pdfmake (A4, landscape past five columns).
 * Both run on the documents' worker pool (server/worker-tasks.ts 'report.file'), off the event loop.
 */

/** What the files say besides the figures. */
export interface ReportFileContext {
  companyName: string;
  /** ISO instant the file was made. */
  issuedAt: string;
  /** Who asked for it: "Ana Quispe". */
  userName: string;
}

/** "Período 01/11/2026 – 30/11/2026" or "Al 30/11/2026" (a picture at a date). */
export function periodText(report: Pick<ReportOutput, 'from' | 'to'>): string {
  if (report.from && report.to) return `Período ${formatDate(report.from)} – ${formatDate(report.to)}`;
  return report.to ? `Al ${formatDate(report.to)}` : '';
}

/** The header lines of both files: company, title, period and filters, issue, notes. */
export function headerLines(report: ReportOutput, context: ReportFileContext): { title: string; lines: string[] } {
  const filters = (report.filters ?? []).map((f) => `${f.label}: ${f.value}`);
  return {
    title: report.title,
    lines: [
      ...(context.companyName ? [context.companyName] : []),
      [periodText(report), ...filters].filter(Boolean).join(' · '),
      `Emitido el ${formatDateTime(context.issuedAt)} por ${context.userName}`,
      ...(report.notes ?? []),
    ].filter((l) => l.length > 0),
  };
}

/** Whether the report has money columns (then each row's currency gets a column of its own in Excel). */
const hasMoney = (columns: readonly ReportColumn[]) => columns.some((c) => c.kind === 'money');

/** A cell as Excel takes it: money in currency units, ratios as numbers shown as %, dates as dates, text neutralised. */
function xlsxValue(column: ReportColumn, value: string | number | null | undefined): string | number | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return column.kind === 'money' ? value / 100 : value;
  if (column.kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  if (column.kind === 'month') return salesMonthLabel(value);
  return neutralizeFormula(value);
}

const XLSX_FORMAT: Partial<Record<ReportColumn['kind'], string>> = {
  money: '#,##0.00',
  area: '#,##0.00',
  percent: '0.0%',
  count: '#,##0',
  days: '#,##0',
  date: 'dd/mm/yyyy',
};

/**
 * The report as an .xlsx: the header lines, then the table (a "Moneda" column after the first when
 * the report has money), every row, then the totals per currency.
 * @returns the workbook's bytes.
 */
export async function renderReportXlsx(report: ReportOutput, context: ReportFileContext): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = context.companyName || 'Parcela';
  const sheet = workbook.addWorksheet(report.title.slice(0, 31));
  const { title, lines } = headerLines(report, context);
  const titleRow = sheet.addRow([title]);
  titleRow.font = { bold: true, size: 14 };
  titleRow.commit();
  for (const line of lines) sheet.addRow([neutralizeFormula(line)]).commit();
  sheet.addRow([]).commit();

  const columns = report.columns;
  const money = hasMoney(columns);
  const headers = columns.map((c) => c.label);
  if (money) headers.splice(1, 0, 'Moneda');
  const headerRow = sheet.addRow(headers);
  headerRow.font = { bold: true };
  headerRow.commit();
  const writeRow = (row: ReportRow, bold: boolean) => {
    const values: (string | number | Date | null)[] = columns.map((c) => xlsxValue(c, row.cells[c.key]));
    if (money) values.splice(1, 0, row.currency ?? null);
    const added = sheet.addRow(values);
    columns.forEach((c, i) => {
      const format = XLSX_FORMAT[c.kind];
      if (format) added.getCell(i + 1 + (money && i >= 1 ? 1 : 0)).numFmt = format;
    });
    if (bold) added.font = { bold: true };
    added.commit();
  };
  for (const row of report.rows) writeRow(row, false);
  if ((report.totals ?? []).length > 0) sheet.addRow([]).commit();
  for (const row of report.totals ?? []) writeRow(row, true);
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}

/**
 * The report as an A4 PDF: the header lines, the table (figures aligned right, money with its
 * currency symbol) and the totals, "Página n de m" and the issue in the footer.
 * @returns the PDF's bytes.
 */
export async function renderReportPdf(report: ReportOutput, context: ReportFileContext): Promise<Uint8Array> {
  const columns = report.columns;
  const landscape = columns.length > 5;
  const cell = (column: ReportColumn, row: ReportRow, bold = false): TableCell => ({
    text: formatReportCell(column, row.cells[column.key], row.currency),
    alignment: isFigureColumn(column) ? 'right' : 'left',
    bold,
  });
  const table: Content =
    report.rows.length === 0
      ? { text: 'Sin datos para los filtros elegidos.', italics: true, color: '#5f6b7c', margin: [0, 8, 0, 0] }
      : {
          table: {
            headerRows: 1,
            widths: columns.map((_, i) => (i === 0 ? '*' : 'auto')),
            body: [
              columns.map((c) => ({ text: c.label, style: 'th', alignment: isFigureColumn(c) ? ('right' as const) : ('left' as const) })),
              ...report.rows.map((row) => columns.map((c) => cell(c, row))),
              ...(report.totals ?? []).map((row) => columns.map((c) => cell(c, row, true))),
            ],
          },
          layout: 'lightHorizontalLines',
          margin: [0, 8, 0, 0],
        };
  const { title, lines } = headerLines(report, context);
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageOrientation: landscape ? 'landscape' : 'portrait',
    pageMargins: [36, 36, 36, 48],
    info: { title: `${title} ${periodText(report)}`, author: context.companyName },
    defaultStyle: { font: PDF_FONT, fontSize: 8.5 },
    styles: {
      title: { fontSize: 15, bold: true },
      label: { color: '#5f6b7c' },
      th: { bold: true, fillColor: '#eef1f4' },
    },
    footer: (page, pages) => ({
      text: `${context.companyName ? `${context.companyName} · ` : ''}${title} · Emitido el ${formatDateTime(context.issuedAt)} · Página ${page} de ${pages}`,
      alignment: 'center',
      fontSize: 7,
      color: '#5f6b7c',
    }),
    content: [{ text: title, style: 'title', margin: [0, 0, 0, 4] }, ...lines.map((text) => ({ text, style: 'label' })), table],
  };
  return renderPdf(definition);
}
