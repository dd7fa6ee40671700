import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { importIssueSchema } from '../../../src/schemas/projects';
import { readImportFile, type ParseResult } from '../../../server/lot-import';
import { parseDxf, parseGeoJson } from '../../../server/lot-import/spatial';
import { parseCsv } from '../../../server/lot-import/table';

/**
 * Fuzzing of the lot-import parsers (issue 11 item 7): ≥ 1 000 malformed inputs per format, each
 * must come back as a ParseResult whose problems are Spanish issues — never a throw (a throw was a
 * 500). fast-check is not installed (it must be added to devDependencies to replace this), so the
 * inputs come from a seeded generator: the same cases on every run, and a failure prints its seed
 * and case number.
 */

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const CASES = Number(process.env.FUZZ_CASES ?? 1000);

/** mulberry32: a small seeded PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const NASTY_STRINGS = [
  '', ' ', '\u0000', '\u202e', '\uFEFF', '"', '""', "'", ',', ';', '\t', '\n', '\r\n', '\\', '{', '}', '[', ']',
  'NaN', 'Infinity', '-Infinity', '1e300', '-1e300', '1e-300', '99999999999999', '-0', '0', '00', '1,5', '1.234,56', '1,234.56',
  'S/ 250', 'US$ 10', '120 m2', 'A', 'MZ A', 'LT 1', 'A-1', 'MZ Ñ - LT 99', 'ZZZZZZZZZZZZZZZZ', '🙂', 'x'.repeat(300),
  '__proto__', 'constructor', 'toString', 'SI', 'NO', 'true', 'null', 'undefined',
];
const NASTY_NUMBERS = [0, -0, 1, -1, 0.5, 1e-9, 1e9, 1e20, 1e308, -1e308, 2 ** 53, 5e-324, 180, 90, -180, -90, 12.345];

/** A random JSON value of bounded depth (nulls, numbers, strings, arrays, objects with GeoJSON keys). */
function jsonValue(r: Rng, depth: number): unknown {
  const kind = r.int(depth <= 0 ? 4 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.pick(NASTY_NUMBERS);
    case 2:
      return r.pick(NASTY_STRINGS);
    case 3:
      return r.next() < 0.5;
    case 4:
      return Array.from({ length: r.int(5) }, () => jsonValue(r, depth - 1));
    default: {
      const keys = ['type', 'features', 'geometry', 'coordinates', 'properties', 'manzana', 'lote', 'codigo', 'area', 'precio_m2', 'x'];
      return Object.fromEntries(Array.from({ length: r.int(5) }, () => [r.pick(keys), jsonValue(r, depth - 1)]));
    }
  }
}

/** A ring of 0–6 vertices whose coordinates may be anything. */
function ring(r: Rng): unknown {
  return Array.from({ length: r.int(7) }, () => (r.next() < 0.9 ? [r.pick(NASTY_NUMBERS), r.pick(NASTY_NUMBERS)] : jsonValue(r, 1)));
}

/** A GeoJSON-ish document: valid shapes with broken parts, random JSON, or broken text. */
function geoJsonCase(r: Rng): string {
  const mode = r.int(4);
  if (mode === 0) return JSON.stringify(jsonValue(r, 4));
  const features = Array.from({ length: r.int(6) }, () => {
    if (r.next() < 0.15) return jsonValue(r, 2);
    const geometry = r.next() < 0.8 ? { type: r.pick(['Polygon', 'MultiPolygon', 'Point', 'LineString', 7, null]), coordinates: r.next() < 0.5 ? [ring(r)] : [[ring(r)], [ring(r)]] } : jsonValue(r, 2);
    const properties = r.next() < 0.8 ? { manzana: r.pick(NASTY_STRINGS), lote: r.pick(NASTY_STRINGS), area: r.pick([...NASTY_STRINGS, ...NASTY_NUMBERS]), precio_m2: r.pick([...NASTY_STRINGS, ...NASTY_NUMBERS]) } : jsonValue(r, 2);
    return { type: 'Feature', geometry, properties };
  });
  const text = JSON.stringify(r.next() < 0.9 ? { type: 'FeatureCollection', features } : { type: 'Feature', ...(features[0] as object) });
  if (mode === 1) return text;
  if (mode === 2) return text.slice(0, r.int(text.length + 1)); // truncated
  return text.replace(/\d/g, () => (r.next() < 0.05 ? r.pick(['e999', '.', '-', '9'.repeat(400)]) : String(r.int(10)))); // numbers mangled
}

/** A CSV-ish document: known and unknown headers, any cells, any delimiter, quotes and line ends. */
function csvCase(r: Rng): string {
  const delimiter = r.pick([',', ';', '\t', '|']);
  const headers = ['manzana', 'lote', 'codigo', 'area', 'precio_m2', 'perimetro', 'frente', 'esquina', 'parque', r.pick(NASTY_STRINGS)];
  const header = Array.from({ length: r.int(7) }, () => r.pick(headers));
  const rows = Array.from({ length: r.int(8) }, () =>
    Array.from({ length: r.int(header.length + 3) }, () => {
      const cell = r.next() < 0.7 ? r.pick(NASTY_STRINGS) : String(r.pick(NASTY_NUMBERS));
      return r.next() < 0.2 ? `"${cell}` : cell; // unbalanced quotes too
    }).join(delimiter),
  );
  return [header.join(delimiter), ...rows].join(r.pick(['\n', '\r\n', '\r']));
}

const baseDxf = readFileSync(join(FIXTURES, 'lotizacion-16.dxf'), 'utf8').split(/\r?\n/);

/** A DXF: the 16-lot fixture with lines dropped, duplicated, replaced by garbage, or truncated. */
function dxfCase(r: Rng): string {
  const lines = [...baseDxf];
  const edits = 1 + r.int(12);
  for (let e = 0; e < edits; e++) {
    const at = r.int(lines.length);
    switch (r.int(5)) {
      case 0:
        lines.splice(at, 1 + r.int(4));
        break;
      case 1:
        lines.splice(at, 0, ...lines.slice(at, at + 1 + r.int(6)));
        break;
      case 2:
        lines[at] = r.pick([...NASTY_STRINGS, ...NASTY_NUMBERS.map(String), 'SECTION', 'ENDSEC', 'EOF', 'LWPOLYLINE', 'POLYLINE', 'VERTEX', 'SEQEND', 'TEXT', 'MTEXT', '10', '20', '70', '90']);
        break;
      case 3:
        lines.length = Math.max(4, at);
        break;
      default:
        lines.splice(at, 0, '0', r.pick(['LWPOLYLINE', 'TEXT', 'MTEXT', 'POLYLINE', 'VERTEX']), '8', r.pick(NASTY_STRINGS), '10', String(r.pick(NASTY_NUMBERS)));
    }
  }
  return lines.join('\n');
}

/** Asserts the parser's answer is a well-formed ParseResult with Spanish issues and finite numbers. */
function expectWellFormed(result: ParseResult, label: string): void {
  for (const found of result.issues) {
    const parsed = importIssueSchema.safeParse(found);
    expect(parsed.success, `${label}: ${JSON.stringify(found)}`).toBe(true);
    expect(found.message, label).not.toMatch(/TypeError|undefined|Cannot read|is not a function|\[object Object\]/);
  }
  for (const lot of result.lots) {
    expect(typeof lot.code, label).toBe('string');
  }
}

/** Runs `CASES` cases of `make`, each through `parse`; a throw fails with the case number. */
async function fuzz(name: string, seed: number, make: (r: Rng) => string | Buffer | Promise<Buffer>, parse: (input: string | Buffer) => ParseResult | Promise<ParseResult>) {
  const r = prng(seed);
  for (let i = 0; i < CASES; i++) {
    const input = await make(r);
    let result: ParseResult;
    try {
      result = await parse(input);
    } catch (error) {
      throw new Error(`${name} case ${i} (seed ${seed}) threw ${(error as Error).stack}\ninput: ${String(input).slice(0, 500)}`);
    }
    expectWellFormed(result, `${name} case ${i} (seed ${seed})`);
  }
}

describe('lot-import parsers under malformed input (seeded fuzzing, 1 000 cases each)', () => {
  it('GeoJSON: parseGeoJson and readImportFile never throw', async () => {
    await fuzz('geojson', 11, geoJsonCase, (text) => parseGeoJson(String(text)));
    await fuzz('geojson/readImportFile', 12, geoJsonCase, (text) => readImportFile(Buffer.from(String(text)), 'lotes.geojson'));
  });

  it('`features: [null]` and other non-objects are located issues, not a TypeError', () => {
    const result = parseGeoJson(JSON.stringify({ type: 'FeatureCollection', features: [null, 3, 'x', []] }));
    expect(result.issues.map((i) => i.location)).toEqual(['elemento 1', 'elemento 2', 'elemento 3', 'elemento 4']);
    expect(result.issues[0]!.message).toBe('El elemento no es un Feature de GeoJSON (se esperaba un objeto con "geometry" y "properties")');
  });

  it('CSV: parseCsv and readImportFile never throw', async () => {
    await fuzz('csv', 21, csvCase, (text) => parseCsv(String(text)));
    await fuzz('csv/readImportFile', 22, csvCase, (text) => readImportFile(Buffer.from(String(text)), 'lotes.csv'));
  });

  it('DXF: parseDxf and readImportFile never throw', async () => {
    await fuzz('dxf', 31, dxfCase, (text) => parseDxf(String(text)));
    await fuzz('dxf/readImportFile', 32, dxfCase, (text) => readImportFile(Buffer.from(String(text)), 'plano.dxf', 'LOTES'));
  }, 60_000);

  it('XLSX: readImportFile never throws on generated workbooks nor on corrupted zips', async () => {
    const r = prng(41);
    /** A workbook whose cells are any of the nasty values (exceljs writes it). */
    const workbook = async (): Promise<Buffer> => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet(r.pick(['Lotes', '', 'x'.repeat(31)]).slice(0, 31) || 'Hoja');
      for (let row = 0; row < 1 + r.int(6); row++) {
        sheet.addRow(Array.from({ length: r.int(8) }, () => {
          const v = r.int(5);
          return v === 0 ? r.pick(NASTY_STRINGS).split('\u0000').join('') : v === 1 ? r.pick(NASTY_NUMBERS) : v === 2 ? r.next() < 0.5 : v === 3 ? new Date(r.int(2 ** 40)) : null;
        }));
      }
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    const seeds = await Promise.all(Array.from({ length: 20 }, () => workbook()));
    let i = 0;
    await fuzz('xlsx', 42, async () => {
      i += 1;
      if (i % 10 === 0) return workbook();
      const bytes = Buffer.from(seeds[r.int(seeds.length)]!);
      const mode = r.int(3);
      if (mode === 0) return bytes.subarray(0, 4 + r.int(bytes.length)); // truncated zip
      for (let k = 0; k < 1 + r.int(20); k++) bytes[4 + r.int(bytes.length - 4)] = r.int(256); // flipped bytes (PK signature kept)
      return bytes;
    }, (bytes) => readImportFile(bytes as Buffer, 'lotes.xlsx'));
  }, 120_000);
});
