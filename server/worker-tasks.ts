import type { ReportOutput } from '../src/schemas/reportes/report';
import type { ReportFileContext } from './modules/reportes/report-files';
import type { Payment } from '../src/schemas/finanzas/payments';
import type { Quote } from '../src/schemas/comercio/quotes';
import type { SalesReport } from '../src/schemas/comercio/sales-report';
import type { CellValue } from '../src/lib/csv';
import type { ImportCheckOptions } from './modules/proyectos/lot-import';
import type { SalesReportFileContext } from './modules/comercio/sales-report-files';
import type { PdfIssuer } from './platform/pdf';
import type { ContractPdfInput } from './modules/administracion/contract-pdf';
import type { SettlementDetail } from '../src/schemas/administracion/commissions';

/**
 * Every job a worker thread runs (server/platform/worker-pool.ts, docs/decisions.md "Heavy work off
 * the event loop"), by name: each entry loads its modules (once per worker, cached by the worker)
 * and gives the function to run. A worker thus loads only what it is asked for (jsdom for SVG
 * logos, pdfmake for PDFs, exceljs for spreadsheets, the lot parsers for imports), and the job's
 * time budget starts once they are loaded; `warm` preloads the document modules at start-up.
 *
 * Inputs and results cross the thread boundary by structured clone: a Buffer arrives as a plain
 * Uint8Array, which {@link asBuffer} turns back into a Buffer view without copying.
 */

/** A Buffer view of `bytes` (no copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The issuer as it crossed the thread boundary (its logo bytes as a Uint8Array). */
function issuerOf(issuer: PdfIssuer): PdfIssuer {
  return issuer.logo ? { ...issuer, logo: { ...issuer.logo, data: asBuffer(issuer.logo.data) } } : issuer;
}

/** A spreadsheet export (server/platform/exports.ts). */
export interface TableFileInput {
  format: 'csv' | 'xlsx';
  /** Sheet name of the XLSX (Excel's 31-character limit applied by the writer). */
  sheetName: string;
  header: readonly string[];
  rows: ReadonlyArray<readonly CellValue[]>;
}

export const WORKER_TASKS = {
  /** Loads the document writers (pdfmake, exceljs) so the first PDF or export does not pay for it. */
  warm: async () => {
    await Promise.all([import('./platform/pdf'), import('exceljs'), import('../src/lib/xlsx')]);
    return async (_input: Record<string, never>): Promise<true> => true;
  },
  /** Lot-import parse + check (`readImportFile`, docs/security.md item 1). */
  'lots.check': async () => {
    const { readImportFile } = await import('./modules/proyectos/lot-import');
    return (input: { bytes: Uint8Array; filename: string; layer: string | null; options: ImportCheckOptions }) =>
      readImportFile(asBuffer(input.bytes), input.filename, input.layer, input.options);
  },
  /** Lead file read (`readLeadFile`). */
  'leads.read': async () => {
    const { readLeadFile } = await import('./modules/crm/lead-import');
    return (input: { bytes: Uint8Array; filename: string }) => readLeadFile(asBuffer(input.bytes), input.filename);
  },
  /** A payment's receipt PDF (server/modules/finanzas/receipt-pdf.ts). */
  'pdf.receipt': async () => {
    const { renderReceiptPdf } = await import('./modules/finanzas/receipt-pdf');
    return (input: { payment: Payment; issuer: PdfIssuer; balanceAfter?: number | null }): Promise<Uint8Array> =>
      renderReceiptPdf(input.payment, issuerOf(input.issuer), input.balanceAfter ?? null);
  },
  /** One agent's liquidation of commissions (server/modules/administracion/commission-pdf.ts). */
  'pdf.commissionSettlement': async () => {
    const { renderSettlementPdf } = await import('./modules/administracion/commission-pdf');
    return (input: { settlement: SettlementDetail; issuer: PdfIssuer }): Promise<Uint8Array> =>
      renderSettlementPdf(input.settlement, issuerOf(input.issuer));
  },
  /** A quote's PDF (server/modules/comercio/quote-pdf.ts). */
  'pdf.quote': async () => {
    const { renderQuotePdf } = await import('./modules/comercio/quote-pdf');
    return (input: { quote: Quote; issuer: PdfIssuer }): Promise<Uint8Array> => renderQuotePdf(input.quote, issuerOf(input.issuer));
  },
  /** A contract's PDF from its resolved document (server/modules/administracion/contract-pdf.ts). */
  'pdf.contract': async () => {
    const { renderContractPdf } = await import('./modules/administracion/contract-pdf');
    return (input: ContractPdfInput): Promise<Uint8Array> => renderContractPdf({ ...input, issuer: issuerOf(input.issuer) });
  },
  /** The sales report as PDF or XLSX (server/modules/comercio/sales-report-files.ts). */
  'salesReport.file': async () => {
    const files = await import('./modules/comercio/sales-report-files');
    return (input: { format: 'pdf' | 'xlsx'; report: SalesReport; context: SalesReportFileContext }): Promise<Uint8Array> =>
      input.format === 'pdf'
        ? files.renderSalesReportPdf(input.report, input.context)
        : files.renderSalesReportXlsx(input.report, input.context);
  },
  /** A report of /Reportes or /ReportesEconomicos as PDF or XLSX (server/modules/reportes/report-files.ts). */
  'report.file': async () => {
    const files = await import('./modules/reportes/report-files');
    return (input: { format: 'pdf' | 'xlsx'; report: ReportOutput; context: ReportFileContext }): Promise<Uint8Array> =>
      input.format === 'pdf' ? files.renderReportPdf(input.report, input.context) : files.renderReportXlsx(input.report, input.context);
  },
  /** A table as CSV or XLSX, by the one writer of every export (src/lib/csv.ts, src/lib/xlsx.ts). */
  'table.file': async () => {
    const [{ toCsv }, { toXlsx }] = await Promise.all([import('../src/lib/csv'), import('../src/lib/xlsx')]);
    return async (input: TableFileInput): Promise<Uint8Array> =>
      input.format === 'csv' ? Buffer.from(toCsv(input.header, input.rows), 'utf8') : toXlsx(input.sheetName, input.header, input.rows);
  },
  /** An SVG logo checked (depth, element count) and sanitised (server/modules/configuracion/logo.ts). */
  'logo.svg': async () => {
    const { sanitizeSvg } = await import('./modules/configuracion/logo');
    return (input: { bytes: Uint8Array }) => sanitizeSvg(asBuffer(input.bytes));
  },
};

/** A task's name. */
export type WorkerTaskName = keyof typeof WORKER_TASKS;
/** The function a task runs, once its modules are loaded. */
type TaskFunction<K extends WorkerTaskName> = Awaited<ReturnType<(typeof WORKER_TASKS)[K]>>;
/** What `task` takes. */
export type WorkerTaskInput<K extends WorkerTaskName> = Parameters<TaskFunction<K>>[0];
/** What `task` resolves to. */
export type WorkerTaskOutput<K extends WorkerTaskName> = Awaited<ReturnType<TaskFunction<K>>>;
