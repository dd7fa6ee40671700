import { dateCellText, isDateCell, neutralizeFormula, type CellValue } from './csv';
import { epochDay } from './dates';

/**
 * Excel workbook for "Exportar a Excel" (issue "Configuración", CRUD pattern). exceljs is large,
 * so it is imported on demand: it never weighs on the first load, only on the first export.
 */

/** MIME type of an .xlsx file. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Number format of a date cell ({@link toXlsx}): the app's `dd/mm/yyyy`. */
export const XLSX_DATE_FORMAT = 'dd/mm/yyyy';

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;

/**
 * A cell as exceljs takes it: a date cell ({@link DateCell} of src/lib/csv.ts) as a `Date` at UTC
 * midnight of its day (exceljs writes a Date as the serial day of its UTC date, so the day never
 * shifts with the machine's time zone); a day that is not real as an empty cell; text neutralised.
 */
function xlsxCell(value: CellValue): string | number | boolean | Date {
  if (value === null || value === undefined) return '';
  if (isDateCell(value)) {
    const day = epochDay(value.date);
    return day === null ? '' : new Date(day * DAY_MS);
  }
  return neutralizeFormula(value);
}

/** A cell's shown width in characters (a date as its `dd/mm/yyyy`). */
function shownLength(value: CellValue): number {
  if (value === null || value === undefined) return 0;
  return isDateCell(value) ? dateCellText(value).length : String(value).length;
}

/**
 * Builds an .xlsx with one sheet: a bold header row, frozen, and the data rows. Text that a
 * spreadsheet would run as a formula once edited or saved as CSV is neutralised like the CSV's
 * (src/lib/csv.ts `neutralizeFormula`). A date cell (src/lib/csv.ts `dateCell`) is a real Excel
 * date shown {@link XLSX_DATE_FORMAT}, so Excel sorts and filters it by date.
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
  for (const row of rows) {
    const added = sheet.addRow(row.map(xlsxCell));
    row.forEach((value, index) => {
      if (isDateCell(value)) added.getCell(index + 1).numFmt = XLSX_DATE_FORMAT;
    });
  }
  sheet.columns.forEach((column, index) => {
    const longest = Math.max(header[index]?.length ?? 0, ...rows.map((row) => shownLength(row[index])));
    column.width = Math.min(Math.max(longest + 2, 8), 60);
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
