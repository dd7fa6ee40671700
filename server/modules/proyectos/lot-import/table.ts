import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { ImportIssue } from '../../../../src/schemas/proyectos/projects';
import { round2 } from './geometry';
import { emptyLot, issue, readLandUse, stageName, validateBlockAndNumber, type ParsedLot, type ParseResult } from './types';
import { parseLabel } from './labels';

/**
 * CSV and XLSX lot tables (docs/import.md "CSV y XLSX"). The first non-empty row is the header;
 * header names are matched without accents, case, spaces or punctuation ("Área (m²)" = "area").
 * Numbers take a decimal point or a decimal comma ("1 234,50", "1,234.50", "250,00", "S/ 250.00");
 * `precio_m2` is in the subdivision's currency units (soles) and becomes céntimos.
 */

/** Canonical columns and the spellings accepted for each (normalised: a–z and digits only). */
export const COLUMN_ALIASES: Readonly<Record<string, readonly string[]>> = {
  manzana: ['manzana', 'mz', 'mza', 'manz', 'block', 'bloque'],
  lote: ['lote', 'lt', 'lot', 'numero', 'nro', 'nlote', 'nrolote', 'numerolote', 'lotenro', 'lotenumero'],
  codigo: ['codigo', 'code', 'rotulo', 'ml', 'codlote', 'codigolote'],
  area: ['area', 'aream2', 'areatotal', 'areatotalm2', 'superficie', 'superficiem2'],
  perimetro: ['perimetro', 'perimetrom', 'perimeter'],
  frente: ['frente', 'frentem'],
  frente_colindante: ['frentecolindante', 'colindantefrente', 'lindero frente', 'frentelindero'],
  fondo: ['fondo', 'fondom'],
  fondo_colindante: ['fondocolindante', 'colindantefondo', 'fondolindero'],
  derecha: ['derecha', 'derecham', 'ladoderecho'],
  derecha_colindante: ['derechacolindante', 'colindantederecha', 'derecholindero'],
  izquierda: ['izquierda', 'izquierdam', 'ladoizquierdo'],
  izquierda_colindante: ['izquierdacolindante', 'colindanteizquierda', 'izquierdolindero'],
  precio_m2: ['preciom2', 'precioporm2', 'preciom2s', 'preciopormetro', 'preciometro', 'preciometrocuadrado', 'pm2', 'precio'],
  etapa: ['etapa', 'sector', 'stage', 'fase'],
  uso: ['uso', 'usodelsuelo', 'usosuelo', 'tipo', 'tipouso', 'destino', 'landuse'],
  esquina: ['esquina', 'esesquina'],
  frente_parque: ['frenteparque', 'frentealparque', 'parque'],
};

/** "Área (m²)" → "aream2". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/²/g, '2')
    .replace(/[^a-z0-9]/g, '');
}

const aliasToColumn = new Map<string, string>();
for (const [column, aliases] of Object.entries(COLUMN_ALIASES)) {
  for (const alias of aliases) aliasToColumn.set(normaliseHeader(alias), column);
}

/** The canonical column of a header cell, or null. */
export function columnOf(header: string): string | null {
  return aliasToColumn.get(normaliseHeader(header)) ?? null;
}

/**
 * Parses a decimal written either way. Rules: both "," and "." → the last one is the decimal
 * separator; only "," → decimal comma unless it appears more than once (thousands); spaces,
 * "S/", "US$", "$", "m2", "m²" ignored.
 * @returns the number, null for an empty cell, NaN when unreadable.
 */
export function parseDecimal(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  let text = String(value)
    .replace(/\u00a0/g, ' ')
    .trim();
  if (!text) return null;
  text = text
    .replace(/^(S\/\.?|US\$|\$)\s*/i, '')
    .replace(/\s*(m2|m²|m)$/i, '')
    .replace(/\s/g, '');
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    text = lastComma > lastDot ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  } else if (lastComma >= 0) {
    text = (text.match(/,/g) ?? []).length > 1 ? text.replace(/,/g, '') : text.replace(',', '.');
  }
  if (!/^-?\d+(\.\d+)?$/.test(text)) return Number.NaN;
  return Number(text);
}

/** "SI", "Sí", "x", "1", "true" → true; "NO", "0", "" → false/null. */
function parseFlag(value: unknown): boolean | null {
  if (value === null || value === undefined || value === '') return null;
  const text = normaliseHeader(String(value));
  if (['si', 's', 'x', '1', 'true', 'yes'].includes(text)) return true;
  if (['no', 'n', '0', 'false'].includes(text)) return false;
  return null;
}

const cellText = (value: unknown): string => (value === null || value === undefined ? '' : String(value).trim());

/**
 * Lots from table rows. `rows[0]` is the header; `rowNumbers[i]` is the row number people see
 * (spreadsheet row, header = 1).
 */
export function lotsFromTable(rows: readonly unknown[][], rowNumbers: readonly number[], format: 'CSV' | 'XLSX'): ParseResult {
  const issues: ImportIssue[] = [];
  const lots: ParsedLot[] = [];
  const result = (): ParseResult => ({ format, layers: null, layer: null, lots, issues, coordinateSystem: null });
  const header = rows[0];
  if (!header) {
    issues.push(issue('ERROR', 'archivo', 'El archivo está vacío', { field: 'file' }));
    return result();
  }
  const columns = new Map<string, number>();
  header.forEach((cell, i) => {
    const column = columnOf(cellText(cell));
    if (column && !columns.has(column)) columns.set(column, i);
  });
  const hasCode = columns.has('codigo');
  if (!(columns.has('manzana') && columns.has('lote')) && !hasCode) {
    issues.push(issue('ERROR', 'fila 1 (encabezado)', 'Faltan las columnas "manzana" y "lote" (o "codigo")', { field: 'file' }));
    return result();
  }
  if (!columns.has('area')) issues.push(issue('ERROR', 'fila 1 (encabezado)', 'Falta la columna "area"', { field: 'area' }));
  if (!columns.has('precio_m2'))
    issues.push(issue('ERROR', 'fila 1 (encabezado)', 'Falta la columna "precio_m2"', { field: 'price_per_m2' }));

  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    if (row.every((cell) => cellText(cell) === '')) continue;
    const location = `fila ${rowNumbers[r]}`;
    const get = (column: string): unknown => {
      const i = columns.get(column);
      return i === undefined ? undefined : row[i];
    };
    let block = cellText(get('manzana'));
    let number = cellText(get('lote'));
    if ((!block || !number) && hasCode) {
      const label = parseLabel(cellText(get('codigo')));
      if (label?.kind === 'full') ({ block, number } = label);
    }
    block = block.replace(/^(MZA?|MANZANA)\.?\s*/i, '');
    number = number.replace(/^(LTE?|LOTE)\.?\s*/i, '');
    const valid = validateBlockAndNumber(block, number);
    if (!valid.ok) {
      for (const message of valid.messages) issues.push(issue('ERROR', location, message, { field: block ? 'number' : 'block' }));
      continue;
    }
    const lot = emptyLot(valid.block, valid.number, location);
    const code = lot.code;
    const measure = (column: string, field: string, label: string, required: boolean): number | null => {
      const raw = get(column);
      const value = parseDecimal(raw);
      if (value === null) {
        if (required && columns.has(column)) issues.push(issue('ERROR', location, `Falta ${label}`, { lot_code: code, field }));
        return null;
      }
      if (Number.isNaN(value) || value <= 0) {
        issues.push(
          issue('ERROR', location, `${label[0]!.toUpperCase()}${label.slice(1)} no es válido: "${cellText(raw)}"`, {
            lot_code: code,
            field,
          }),
        );
        return null;
      }
      return round2(value);
    };
    lot.area_m2 = measure('area', 'area_m2', 'el área', true);
    lot.declared_area_m2 = lot.area_m2;
    lot.perimeter_m = measure('perimetro', 'perimeter_m', 'el perímetro', false);
    lot.front_m = measure('frente', 'front_m', 'la medida del frente', false);
    lot.back_m = measure('fondo', 'back_m', 'la medida del fondo', false);
    lot.right_m = measure('derecha', 'right_m', 'la medida de la derecha', false);
    lot.left_m = measure('izquierda', 'left_m', 'la medida de la izquierda', false);
    const text = (column: string) => cellText(get(column)).slice(0, 200) || null;
    lot.front_neighbour = text('frente_colindante');
    lot.back_neighbour = text('fondo_colindante');
    lot.right_neighbour = text('derecha_colindante');
    lot.left_neighbour = text('izquierda_colindante');
    const rawPrice = get('precio_m2');
    const price = parseDecimal(rawPrice);
    if (price === null) {
      if (columns.has('precio_m2'))
        issues.push(issue('ERROR', location, 'Falta el precio por m²', { lot_code: code, field: 'price_per_m2' }));
    } else if (Number.isNaN(price) || price < 0) {
      issues.push(
        issue('ERROR', location, `El precio por m² no es válido: "${cellText(rawPrice)}"`, { lot_code: code, field: 'price_per_m2' }),
      );
    } else {
      lot.price_per_m2 = Math.round(price * 100);
    }
    lot.stage = stageName(cellText(get('etapa')));
    readLandUse(lot, cellText(get('uso')));
    lot.is_corner = parseFlag(get('esquina'));
    lot.facing_park = parseFlag(get('frente_parque'));
    lots.push(lot);
  }
  if (lots.length === 0 && !issues.some((i) => i.severity === 'ERROR'))
    issues.push(issue('ERROR', 'archivo', 'El archivo no tiene filas de lotes', { field: 'file' }));
  return result();
}

/** Non-empty rows of a table file with their 1-based line (CSV) or row (XLSX) numbers. */
export interface TableRows {
  rows: unknown[][];
  numbers: number[];
  /** Rows were left unread after `maxRows` (+ the header). */
  truncated: boolean;
}

/**
 * Reads the non-empty rows of a CSV file (delimiter , ; | or tab detected; UTF-8, BOM allowed),
 * stopping after the header and `maxRows` more (`truncated` when rows were left unread; issue 11
 * item 8). Shared by the lot import and the lead import (server/modules/crm/lead-import.ts).
 */
export function readCsvRows(text: string, maxRows = Number.POSITIVE_INFINITY): TableRows {
  const rows: string[][] = [];
  const numbers: number[] = [];
  let line = 0;
  let truncated = false;
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: false,
    delimitersToGuess: [',', ';', '\t', '|'],
    step: (step, parser) => {
      line += 1;
      const row = step.data;
      if (row.every((cell) => cell.trim() === '')) return;
      if (rows.length > maxRows) {
        truncated = true;
        parser.abort();
        return;
      }
      rows.push(row);
      numbers.push(line);
    },
  });
  return { rows, numbers, truncated };
}

/**
 * Parses a CSV lot table ({@link readCsvRows}); the result has `truncated: true` when rows were
 * left unread.
 */
export function parseCsv(text: string, maxRows = Number.POSITIVE_INFINITY): ParseResult {
  const { rows, numbers, truncated } = readCsvRows(text, maxRows);
  const result = lotsFromTable(rows, numbers, 'CSV');
  if (truncated) result.truncated = true;
  return result;
}

/** A cell value of exceljs as plain data (rich text, formulas, hyperlinks unwrapped). */
function xlsxValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('result' in value) return xlsxValue(value.result as ExcelJS.CellValue);
  if ('text' in value) return value.text;
  return String(value);
}

/** Options of exceljs's streaming reader that skip everything the import does not read. */
const STREAM_OPTIONS = { hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' } as const;

/**
 * exceljs's streaming reader over `bytes`, told that the shared strings (and workbook relations)
 * are already known: a worksheet stored before `sharedStrings.xml` in the zip — Excel's own order —
 * is then read (or drained) in place instead of being copied whole to a temporary file first.
 * `failed` rejects when the zip parser exceljs pipes the bytes into reports an error (a truncated
 * or corrupted zip): exceljs only listens for those between entries, so a read inside a damaged
 * entry would otherwise wait forever.
 */
function streamReader(bytes: Buffer, options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>, sharedStrings: unknown[]) {
  const source = Readable.from([bytes]);
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_resolve, reject) => (fail = reject));
  failed.catch(() => {}); // observed through `guard`; never an unhandled rejection
  const pipe = source.pipe.bind(source);
  source.pipe = (<T extends NodeJS.WritableStream>(destination: T, pipeOptions?: { end?: boolean }) => {
    destination.on('error', fail);
    return pipe(destination, pipeOptions);
  }) as typeof source.pipe;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, { ...STREAM_OPTIONS, ...options });
  Object.assign(reader, { sharedStrings, workbookRels: [], model: { sheets: [] } });
  /** `promise`, or the zip parser's error if that comes first. */
  const guard = <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, failed]);
  return { reader, guard };
}

/** Iterates `iterable` with every step raced against `guard` (see {@link streamReader}). */
async function* guarded<T>(iterable: AsyncIterable<T>, guard: <U>(promise: Promise<U>) => Promise<U>): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await guard(iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    void iterator.return?.().catch(() => {});
  }
}

/** The shared-string table of a workbook (first pass: worksheets are decompressed and dropped). */
async function sharedStringsOf(bytes: Buffer): Promise<unknown[]> {
  const { reader, guard } = streamReader(bytes, { worksheets: 'ignore', sharedStrings: 'cache' }, []);
  for await (const worksheet of guarded(reader, guard)) void worksheet; // nothing is yielded: worksheets are ignored
  return (reader as unknown as { sharedStrings: unknown[] }).sharedStrings;
}

/**
 * Reads the non-empty rows of the first worksheet of an XLSX workbook with exceljs's streaming
 * reader (issue 11 item 8: loading a 1.3 MB workbook of 4 M rows whole froze the server for 21.7 s;
 * 1 M rows took 3.3 GB). Two passes over the zip: the shared strings, then the worksheet's rows,
 * stopping after the header and `maxRows` more (`truncated` when rows were left unread). Memory:
 * the shared strings plus at most `maxRows + 1` rows. Dates come as Excel serial numbers unless
 * the cell holds a date value (styles are not read).
 * @throws Error when exceljs cannot read the workbook.
 */
export async function readXlsxRows(bytes: Buffer, maxRows = Number.POSITIVE_INFINITY): Promise<TableRows> {
  const sharedStrings = await sharedStringsOf(bytes);
  const { reader, guard } = streamReader(bytes, { worksheets: 'emit', sharedStrings: 'ignore' }, sharedStrings);
  const rows: unknown[][] = [];
  const numbers: number[] = [];
  let truncated = false;
  for await (const worksheet of guarded(reader, guard)) {
    for await (const row of guarded(worksheet, guard)) {
      if (!row.hasValues) continue;
      if (rows.length > maxRows) {
        truncated = true;
        break;
      }
      const values: unknown[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        values[col - 1] = xlsxValue(cell.value);
      });
      rows.push(values);
      numbers.push(row.number);
    }
    break; // the first worksheet only
  }
  return { rows, numbers, truncated };
}

/**
 * Parses the first worksheet of an XLSX lot table ({@link readXlsxRows}; no lot column holds a
 * date). @throws Error when exceljs cannot read the workbook.
 */
export async function parseXlsx(bytes: Buffer, maxRows = Number.POSITIVE_INFINITY): Promise<ParseResult> {
  const { rows, numbers, truncated } = await readXlsxRows(bytes, maxRows);
  const result = lotsFromTable(rows, numbers, 'XLSX');
  if (truncated) result.truncated = true;
  return result;
}
