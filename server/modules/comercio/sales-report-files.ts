import ExcelJS from 'exceljs';
import { PDF_FONT, renderPdf } from '../../platform/pdf';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { salesChannelLabel, salesMonthLabel, type SalesFigures, type SalesReport } from '../../../src/schemas/comercio/sales-report';
import { formatArea, formatMoney, CURRENCY_SYMBOL } from '../../../src/lib/money';
import { formatDate } from '../../../src/lib/dates';
import { neutralizeFormula } from '../../../src/lib/csv';

/**
 * The sales report as files (issue "CRM and sales": "Excel and PDF export"): the same figures the
 * screen shows (`salesReport`), written by exceljs (one sheet per view, amounts as numbers in soles
 * or dollars with their currency column, so the spreadsheet can sum them) and by pdfmake (A4, one
 * table per view). Both list the period and the filters applied.
 */

/** What the files say besides the figures: the company, the filters by name, the moment of issue. */
export interface SalesReportFileContext {
  companyName: string;
  /** "Lotización: Los Viñedos", "Asesor: Ana Quispe", "Canal: Facebook"; empty for none. */
  filters: string[];
  /** ISO instant the file was made. */
  issuedAt: string;
}

/** "01/01/2026 – 27/11/2026". */
const periodText = (report: SalesReport) => `${formatDate(report.from)} – ${formatDate(report.to)}`;

/** The figures' columns, in both files. */
const FIGURE_HEADERS = ['Moneda', 'Ventas', 'Total vendido', 'Área vendida (m²)', 'Precio promedio por m²'];

/** Each month of the period with a row per currency of the report (zero when none sold that month). */
function monthRows(report: SalesReport): { month: string; figures: SalesFigures }[] {
  const currencies = report.totals.map((t) => t.currency);
  return report.months.flatMap((month) =>
    currencies.map((currency) => {
      const found = report.by_month.find((m) => m.month === month && m.currency === currency);
      return { month, figures: found ?? { currency, count: 0, total: 0, area_m2: 0, price_per_m2: null } };
    }),
  );
}

/** The five views of a report as labelled rows: [first column(s)…, figures]. */
function views(
  report: SalesReport,
): { title: string; sheet: string; head: string[]; rows: { labels: string[]; figures: SalesFigures }[] }[] {
  return [
    {
      title: 'Totales',
      sheet: 'Resumen',
      head: ['Período'],
      rows: report.totals.map((t) => ({ labels: [periodText(report)], figures: t })),
    },
    {
      title: 'Por mes',
      sheet: 'Por mes',
      head: ['Mes'],
      rows: monthRows(report).map((r) => ({ labels: [salesMonthLabel(r.month)], figures: r.figures })),
    },
    {
      title: 'Por lotización',
      sheet: 'Por lotización',
      head: ['Lotización'],
      rows: report.by_subdivision.map((r) => ({ labels: [r.name], figures: r })),
    },
    { title: 'Por asesor', sheet: 'Por asesor', head: ['Asesor'], rows: report.by_agent.map((r) => ({ labels: [r.name], figures: r })) },
    {
      title: 'Por canal',
      sheet: 'Por canal',
      head: ['Canal'],
      rows: report.by_channel.map((r) => ({ labels: [salesChannelLabel(r.channel)], figures: r })),
    },
  ];
}

/**
 * The report as an Excel workbook: sheet "Resumen" (title, period, filters, totals per currency),
 * then "Por mes", "Por lotización", "Por asesor" and "Por canal". Amounts are numbers in currency
 * units (céntimos ÷ 100) formatted `#,##0.00`, beside their currency code.
 * @returns the .xlsx bytes.
 */
export async function renderSalesReportXlsx(report: SalesReport, context: SalesReportFileContext): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = context.companyName || 'Parcela';
  workbook.created = new Date(context.issuedAt);
  for (const view of views(report)) {
    const sheet = workbook.addWorksheet(view.sheet);
    if (view.sheet === 'Resumen') {
      sheet.addRow(['Reporte de ventas']).font = { bold: true, size: 14 };
      if (context.companyName) sheet.addRow([neutralizeFormula(context.companyName)]);
      sheet.addRow(['Período', periodText(report)]);
      sheet.addRow(['Filtros', context.filters.length > 0 ? neutralizeFormula(context.filters.join(' · ')) : 'Ninguno']);
      sheet.addRow(['Ventas anuladas', 'No incluidas']);
      sheet.addRow([]);
    }
    const header = sheet.addRow([...view.head, ...FIGURE_HEADERS]);
    header.font = { bold: true };
    for (const row of view.rows) {
      const f = row.figures;
      // Names (subdivisions, agents) are typed by users: neutralised like every export (src/lib/csv.ts).
      sheet.addRow([
        ...row.labels.map(neutralizeFormula),
        f.currency,
        f.count,
        f.total / 100,
        f.area_m2,
        f.price_per_m2 === null ? null : f.price_per_m2 / 100,
      ]);
    }
    const first = view.head.length;
    sheet.getColumn(first + 3).numFmt = '#,##0.00';
    sheet.getColumn(first + 4).numFmt = '#,##0.00';
    sheet.getColumn(first + 5).numFmt = '#,##0.00';
    sheet.columns.forEach((column, i) => {
      column.width = i < first ? 28 : i === first ? 10 : 20;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * The report as a PDF (A4): header with the company, title, period, filters, then one table per
 * view (totals, by month, subdivision, agent, channel) with the count, total sold, area and price
 * per m² of each row. Amounts with their currency symbol (S/, US$).
 * @returns the PDF bytes.
 */
export async function renderSalesReportPdf(report: SalesReport, context: SalesReportFileContext): Promise<Buffer> {
  const money = (cents: number, currency: SalesFigures['currency']) => formatMoney(cents, currency);
  const right = (text: string): TableCell => ({ text, alignment: 'right' });
  const table = (head: string[], rows: { labels: string[]; figures: SalesFigures }[]): Content =>
    rows.length === 0
      ? { text: 'Sin ventas en el período.', italics: true, color: '#5f6b7c' }
      : {
          table: {
            headerRows: 1,
            widths: [...head.map(() => '*'), 'auto', 'auto', 'auto', 'auto'],
            body: [
              [...head, 'Ventas', 'Total vendido', 'Área vendida', 'Precio por m²'].map((h, i) => ({
                text: h,
                style: 'th',
                alignment: i >= head.length ? ('right' as const) : ('left' as const),
              })),
              ...rows.map((r) => [
                ...r.labels,
                right(String(r.figures.count)),
                right(money(r.figures.total, r.figures.currency)),
                right(formatArea(r.figures.area_m2)),
                right(r.figures.price_per_m2 === null ? '—' : money(r.figures.price_per_m2, r.figures.currency)),
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
        };
  const sections = views(report).flatMap((view): Content[] => [
    { text: view.title, style: 'h2' },
    table(
      view.sheet === 'Resumen' ? ['Moneda'] : view.head,
      view.sheet === 'Resumen' ? view.rows.map((r) => ({ ...r, labels: [CURRENCY_SYMBOL[r.figures.currency]] })) : view.rows,
    ),
  ]);
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 50],
    info: { title: `Reporte de ventas ${periodText(report)}`, author: context.companyName },
    defaultStyle: { font: PDF_FONT, fontSize: 9 },
    styles: {
      title: { fontSize: 16, bold: true },
      h2: { fontSize: 11, bold: true, margin: [0, 12, 0, 4] },
      label: { color: '#5f6b7c' },
      th: { bold: true, fillColor: '#eef1f4' },
    },
    footer: (page, pages) => ({
      text: `${context.companyName ? `${context.companyName} · ` : ''}Emitido el ${formatDate(context.issuedAt)} · Página ${page} de ${pages}`,
      alignment: 'center',
      fontSize: 7,
      color: '#5f6b7c',
    }),
    content: [
      ...(context.companyName ? [{ text: context.companyName, bold: true, alignment: 'right' as const }] : []),
      { text: 'Reporte de ventas', style: 'title', margin: [0, 8, 0, 2] },
      { text: `Período ${periodText(report)} · ventas anuladas no incluidas`, style: 'label' },
      { text: `Filtros: ${context.filters.length > 0 ? context.filters.join(' · ') : 'ninguno'}`, style: 'label' },
      ...sections,
    ],
  };
  return renderPdf(definition);
}
