/**
 * CSV writing for "Exportar a CSV" (issue "Configuración", CRUD pattern): RFC 4180 — fields
 * separated by commas, records by CRLF; a field holding a comma, a double quote, CR or LF is
 * quoted and its quotes doubled. The text starts with a UTF-8 byte-order mark so Excel reads
 * accents (á, ñ) correctly when the file is opened with a double click.
 */

/** UTF-8 byte-order mark. */
export const UTF8_BOM = '\uFEFF';

/** A cell value: text, number, boolean, or nothing (written as an empty field). */
export type CellValue = string | number | boolean | null | undefined;

/** One field, quoted when RFC 4180 requires it. */
export function csvField(value: CellValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
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
