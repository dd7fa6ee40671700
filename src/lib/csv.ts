import { formatDate } from './dates';

/**
 * CSV writing for "Exportar a CSV" (issue "Configuración", CRUD pattern): RFC 4180 — fields
 * separated by commas, records by CRLF; a field holding a comma, a double quote, CR or LF is
 * quoted and its quotes doubled. The text starts with a UTF-8 byte-order mark so Excel reads
 * accents (á, ñ) correctly when the file is opened with a double click. Text that a spreadsheet
 * would run as a formula is neutralised ({@link neutralizeFormula}).
 */

/** UTF-8 byte-order mark. */
export const UTF8_BOM = '\uFEFF';

/**
 * A calendar-date cell: `date` is an ISO day `YYYY-MM-DD` (America/Lima, as every date of the
 * app). The XLSX writer stores it as a real Excel date (a serial day shown `dd/mm/yyyy`, so Excel
 * sorts and filters it as a date); the CSV writes the text `dd/mm/yyyy`. A text that is not a real
 * day is written empty. Build it with {@link dateCell}.
 */
export interface DateCell {
  date: string;
}

/**
 * A cell value: text, number, boolean, a calendar date ({@link DateCell}), or nothing (written as
 * an empty field).
 */
export type CellValue = string | number | boolean | DateCell | null | undefined;

/** A date cell of an ISO day (`YYYY-MM-DD`); null or empty → an empty cell. */
export function dateCell(iso: string | null | undefined): DateCell | null {
  return iso ? { date: iso } : null;
}

/** Whether `value` is a {@link DateCell}. */
export function isDateCell(value: CellValue): value is DateCell {
  return typeof value === 'object' && value !== null && typeof (value as DateCell).date === 'string';
}

/** The `dd/mm/yyyy` text of a date cell ('' when it is not a real day: src/lib/dates.ts `formatDate`). */
export function dateCellText(value: DateCell): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value.date) ? formatDate(value.date) : '';
}

/** Characters that make a spreadsheet read a cell as a formula (also their full-width forms, which some read the same). */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A signed number or phone (`-12.50`, `+51 987 654 321`, `-(1)`): no letter, quote or operator can reach a function. */
const SIGNED_NUMBER = /^[+-][\d\s.,()/-]*$/;

/**
 * A text cell made safe from formula injection (OWASP "CSV Injection"): a text starting with `=`,
 * `+`, `-`, `@`, tab, CR or LF (or a full-width `＝＋－＠`) gets a leading `'`, so Excel, LibreOffice
 * and Google Sheets show it as text and never run it (`=HYPERLINK(…)`, `@SUM(…)`, `=cmd|…` DDE).
 * A signed number or phone written as text is left as it is. Numbers, booleans and empty cells are
 * never touched. Every export applies it — CSV and XLSX, in the browser and on the server
 * (docs/security.md 30.13); what is stored stays as typed.
 */
export function neutralizeFormula<T extends CellValue>(value: T): T | string {
  if (typeof value !== 'string' || !FORMULA_START.test(value) || SIGNED_NUMBER.test(value)) return value;
  return `'${value}`;
}

/** One field (a date as `dd/mm/yyyy`), neutralised ({@link neutralizeFormula}) and quoted when RFC 4180 requires it. */
export function csvField(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (isDateCell(value)) return dateCellText(value);
  const text = String(neutralizeFormula(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The CSV text of a header row and data rows.
 * @param options.bom prepend the UTF-8 BOM (default true, for Excel).
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CellValue[])[], options: { bom?: boolean } = {}): string {
  const lines = [header, ...rows].map((row) => row.map(csvField).join(','));
  return (options.bom === false ? '' : UTF8_BOM) + lines.join('\r\n') + '\r\n';
}
