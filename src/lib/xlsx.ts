import { neutralizeFormula, type CellValue } from './csv';

/**
 * Excel workbook for "Exportar a Excel" (issue "Configuración", CRUD pattern). exceljs is large,
 * so it is imported on demand: it never weighs on the first load, only on the first export.
 */

/** MIME type of an .xlsx file. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Builds an .xlsx with one sheet: a bold header row, frozen, and the data rows. Text that a
 * spreadsheet would run as a formula once edited or saved as CSV is neutralised like the CSV's
 * (src/lib/csv.ts `neutralizeFormula`).
 * @returns the file's bytes.
 */
export async function toXlsx(sheetName: string, header: readonly string[], rows: readonly (readonly CellValue[])[]): Promise<Uint8Array> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Parcela';
  // Excel limits sheet names to 31 characters and forbids some symbols.
  const sheet = workbook.addWorksheet(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Hoja 1', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.addRow(header.map(neutralizeFormula)).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map((value) => (value === null || value === undefined ? '' : neutralizeFormula(value))));
  sheet.columns.forEach((column, index) => {
    const longest = Math.max(header[index]?.length ?? 0, ...rows.map((row) => String(row[index] ?? '').length));
    column.width = Math.min(Math.max(longest + 2, 8), 60);
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
