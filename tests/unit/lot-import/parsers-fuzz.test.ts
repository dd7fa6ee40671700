import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importIssueSchema } from '../../../src/schemas/proyectos/projects';
import { readImportFile, type ParseResult } from '../../../server/modules/proyectos/lot-import';
import { parseDxf, parseGeoJson } from '../../../server/modules/proyectos/lot-import/spatial';
import { parseCsv } from '../../../server/modules/proyectos/lot-import/table';
import { readLeadFile } from '../../../server/modules/crm/lead-import';
import { leadImportIssueSchema } from '../../../src/schemas/crm/leads';

/**
 * Property-based fuzzing of the lot-import parsers with fast-check (issue 11 item 7): for ≥ 1 000
 * malformed inputs per format, the parser answers a ParseResult whose problems are Spanish issues
 * — never a throw (a throw was a 500). `FUZZ_CASES` raises the number of cases; the seeds are
 * fixed so CI runs the same cases every time (`FUZZ_SEED` runs another sequence). A failure is
 * shrunk by fast-check to a minimal input and printed with its seed and path.
 */

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const CASES = Math.max(1000, Number(process.env.FUZZ_CASES ?? 1000));
const SEED_OFFSET = Number(process.env.FUZZ_SEED ?? 0);

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u202e',
  '\uFEFF',
  '"',
  '""',
  "'",
  ',',
  ';',
  '\t',
  '\n',
  '\r\n',
  '\\',
  '{',
  '}',
  '[',
  ']',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e300',
  '-1e300',
  '1e-300',
  '99999999999999',
  '-0',
  '0',
  '00',
  '1,5',
  '1.234,56',
  '1,234.56',
  'S/ 250',
  'US$ 10',
  '120 m2',
  'A',
  'MZ A',
  'LT 1',
  'A-1',
  'MZ Ñ - LT 99',
  'ZZZZZZZZZZZZZZZZ',
  '🙂',
  'x'.repeat(300),
  '__proto__',
  'constructor',
  'toString',
  'SI',
  'NO',
  'true',
  'null',
  'undefined',
];
const NASTY_NUMBERS = [0, -0, 1, -1, 0.5, 1e-9, 1e9, 1e20, 1e308, -1e308, 2 ** 53, 5e-324, 180, 90, -180, -90, 12.345];

/** Text cells: the known troublemakers, or any string (any code unit, lone surrogates included). */
const nastyString = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
);
/** Numbers: the known troublemakers, or any double (NaN and ±Infinity included) or integer. */
const nastyNumber = fc.oneof({ arbitrary: fc.constantFrom(...NASTY_NUMBERS), weight: 3 }, fc.double(), fc.integer());

const GEOJSON_KEYS = ['type', 'features', 'geometry', 'coordinates', 'properties', 'manzana', 'lote', 'codigo', 'area', 'precio_m2', 'x'];
/** A JSON value of bounded depth: nulls, numbers, strings, booleans, arrays, objects with GeoJSON keys. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    nastyNumber,
    nastyString,
    fc.boolean(),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...GEOJSON_KEYS), tie('json'), { maxKeys: 4 }),
  ),
}));

/** A ring of 0–6 vertices whose coordinates may be anything. */
const ring = fc.array(fc.oneof({ arbitrary: fc.tuple(nastyNumber, nastyNumber), weight: 9 }, { arbitrary: json, weight: 1 }), {
  maxLength: 6,
});

const feature = fc.oneof(
  { arbitrary: json, weight: 1 },
  {
    arbitrary: fc.record({
      type: fc.constant('Feature'),
      geometry: fc.oneof(
        {
          arbitrary: fc.record({
            type: fc.constantFrom<unknown>('Polygon', 'MultiPolygon', 'Point', 'LineString', 7, null),
            coordinates: fc.oneof(fc.tuple(ring), fc.tuple(fc.tuple(ring), fc.tuple(ring))),
          }),
          weight: 4,
        },
        { arbitrary: json, weight: 1 },
      ),
      properties: fc.oneof(
        {
          arbitrary: fc.record({
            manzana: nastyString,
            lote: nastyString,
            area: fc.oneof(nastyString, nastyNumber),
            precio_m2: fc.oneof(nastyString, nastyNumber),
          }),
          weight: 4,
        },
        { arbitrary: json, weight: 1 },
      ),
    }),
    weight: 6,
  },
);

/** A GeoJSON-ish document: random JSON, valid shapes with broken parts, truncated, or with mangled numbers. */
const geoJsonCase = fc.oneof(
  json.map((value) => JSON.stringify(value) ?? 'null'),
  fc
    .record({
      features: fc.array(feature, { maxLength: 6 }),
      single: fc.boolean(),
      mangle: fc.constantFrom('none', 'truncate', 'numbers'),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      noise: fc.infiniteStream(
        fc.oneof(
          { arbitrary: fc.constantFrom('e999', '.', '-', '9'.repeat(400)), weight: 1 },
          { arbitrary: fc.nat(9).map(String), weight: 19 },
        ),
      ),
    })
    .map(({ features, single, mangle, cut, noise }) => {
      const text = JSON.stringify(single ? { type: 'Feature', ...(features[0] as object) } : { type: 'FeatureCollection', features });
      if (mangle === 'truncate') return text.slice(0, Math.floor(cut * (text.length + 1)));
      if (mangle === 'numbers') return text.replace(/\d/g, () => noise.next().value as string);
      return text;
    }),
);

const CSV_HEADERS = ['manzana', 'lote', 'codigo', 'area', 'precio_m2', 'perimetro', 'frente', 'esquina', 'parque'];
/** A CSV-ish document: known and unknown headers, any cells, any delimiter, unbalanced quotes, any line ends. */
const csvCase = fc
  .record({
    delimiter: fc.constantFrom(',', ';', '\t', '|'),
    lineEnd: fc.constantFrom('\n', '\r\n', '\r'),
    header: fc.array(fc.oneof(fc.constantFrom(...CSV_HEADERS), nastyString), { maxLength: 6 }),
    rows: fc.array(
      fc.array(fc.tuple(fc.oneof({ arbitrary: nastyString, weight: 7 }, { arbitrary: nastyNumber.map(String), weight: 3 }), fc.boolean()), {
        maxLength: 9,
      }),
      { maxLength: 7 },
    ),
  })
  .map(({ delimiter, lineEnd, header, rows }) =>
    [
      header.join(delimiter),
      ...rows.map((cells) => cells.map(([cell, openQuote]) => (openQuote ? `"${cell}` : cell)).join(delimiter)),
    ].join(lineEnd),
  );

const baseDxf = readFileSync(join(FIXTURES, 'lotizacion-16.dxf'), 'utf8').split(/\r?\n/);
const DXF_WORDS = [
  ...NASTY_STRINGS,
  ...NASTY_NUMBERS.map(String),
  'SECTION',
  'ENDSEC',
  'EOF',
  'LWPOLYLINE',
  'POLYLINE',
  'VERTEX',
  'SEQEND',
  'TEXT',
  'MTEXT',
  '10',
  '20',
  '70',
  '90',
];
const DXF_ENTITIES = ['LWPOLYLINE', 'TEXT', 'MTEXT', 'POLYLINE', 'VERTEX'];

/** One edit of the 16-lot DXF fixture: lines dropped, duplicated, replaced by garbage, cut off, or an entity inserted. */
const dxfEdit = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), word: fc.oneof(fc.constantFrom(...DXF_WORDS), nastyString) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    entity: fc.constantFrom(...DXF_ENTITIES),
    layer: nastyString,
    x: nastyNumber,
  }),
);

/** A DXF: the 16-lot fixture after 1–12 edits. */
const dxfCase = fc.array(dxfEdit, { minLength: 1, maxLength: 12 }).map((edits) => {
  const lines = [...baseDxf];
  for (const edit of edits) {
    const at = edit.at % Math.max(1, lines.length);
    switch (edit.kind) {
      case 'drop':
        lines.splice(at, edit.count);
        break;
      case 'duplicate':
        lines.splice(at, 0, ...lines.slice(at, at + edit.count));
        break;
      case 'replace':
        lines[at] = edit.word;
        break;
      case 'truncate':
        lines.length = Math.max(4, at);
        break;
      case 'insert':
        lines.splice(at, 0, '0', edit.entity, '8', edit.layer, '10', String(edit.x));
    }
  }
  return lines.join('\n');
});

/** Asserts the parser's answer is a well-formed ParseResult with Spanish issues and finite numbers. */
function expectWellFormed(result: ParseResult, label: string): void {
  for (const found of result.issues) {
    const parsed = importIssueSchema.safeParse(found);
    expect(parsed.success, `${label}: ${JSON.stringify(found)}`).toBe(true);
    // The file's own text is quoted in messages ("El área no es válida: \"undefined\""): only the rest counts.
    expect(found.message.replace(/"[^"]*"/g, '""'), label).not.toMatch(
      /TypeError|undefined|Cannot read|is not a function|\[object Object\]/,
    );
  }
  for (const lot of result.lots) {
    expect(typeof lot.code, label).toBe('string');
  }
}

/**
 * Checks with fast-check that `parse` answers every input of `inputs` with a well-formed
 * ParseResult ({@link expectWellFormed}); {@link CASES} runs from a fixed seed (see the module comment).
 */
async function fuzz<T>(
  name: string,
  seed: number,
  inputs: fc.Arbitrary<T>,
  parse: (input: T) => ParseResult | Promise<ParseResult>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(inputs, async (input) => {
      expectWellFormed(await parse(input), name);
    }),
    { numRuns: CASES, seed: seed + SEED_OFFSET, endOnFailure: false },
  );
}

// 1 000 cases a property take seconds alone and many times that on a loaded 2-core machine.
describe('lot-import parsers under malformed input (fast-check properties, ≥ 1 000 cases each)', { timeout: 120_000 }, () => {
  it('GeoJSON: parseGeoJson and readImportFile never throw', async () => {
    await fuzz('geojson', 11, geoJsonCase, (text) => parseGeoJson(text));
    await fuzz('geojson/readImportFile', 12, geoJsonCase, (text) => readImportFile(Buffer.from(text), 'lotes.geojson'));
  }, 60_000);

  it('`features: [null]` and other non-objects are located issues, not a TypeError', () => {
    const result = parseGeoJson(JSON.stringify({ type: 'FeatureCollection', features: [null, 3, 'x', []] }));
    expect(result.issues.map((i) => i.location)).toEqual(['elemento 1', 'elemento 2', 'elemento 3', 'elemento 4']);
    expect(result.issues[0]!.message).toBe('El elemento no es un Feature de GeoJSON (se esperaba un objeto con "geometry" y "properties")');
  });

  it('CSV: parseCsv and readImportFile never throw', async () => {
    await fuzz('csv', 21, csvCase, (text) => parseCsv(text));
    await fuzz('csv/readImportFile', 22, csvCase, (text) => readImportFile(Buffer.from(text), 'lotes.csv'));
  }, 60_000);

  it('lead files: readLeadFile never throws; its issues are Spanish, located and well formed', async () => {
    const LEAD_HEADERS = ['full_name', 'phone_number', 'email', 'created_time', 'campaign_name', 'platform', 'dni'];
    const leadCsv = csvCase.map((text) => `${LEAD_HEADERS.join(',')}\n${text}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(csvCase, leadCsv), async (text) => {
        const result = await readLeadFile(Buffer.from(text), 'leads.csv');
        for (const found of result.issues) expect(leadImportIssueSchema.safeParse(found).success).toBe(true);
        for (const row of result.rows) expect(typeof row.name).toBe('string');
      }),
      { numRuns: CASES, seed: 23 + SEED_OFFSET, endOnFailure: false },
    );
  }, 60_000);

  it('DXF: parseDxf and readImportFile never throw', async () => {
    await fuzz('dxf', 31, dxfCase, (text) => parseDxf(text));
    await fuzz('dxf/readImportFile', 32, dxfCase, (text) => readImportFile(Buffer.from(text), 'plano.dxf', 'LOTES'));
  }, 120_000);

  it('XLSX: readImportFile never throws on generated workbooks nor on truncated or corrupted zips', async () => {
    /** Sheet contents: rows of nasty strings (NUL removed: exceljs cannot write it), numbers, booleans, dates, blanks. */
    const cellValue = fc.oneof(
      nastyString.map((text) => text.split('\u0000').join('')),
      nastyNumber,
      fc.boolean(),
      fc.date({ min: new Date(0), max: new Date(2 ** 40), noInvalidDate: true }),
      fc.constant(null),
    );
    const sheetContent = fc.record({
      name: fc.constantFrom('Lotes', 'Hoja', 'x'.repeat(31)),
      rows: fc.array(fc.array(cellValue, { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
    });
    const write = async ({ name, rows }: { name: string; rows: unknown[][] }): Promise<Buffer> => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet(name);
      for (const row of rows) sheet.addRow(row);
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    // Corrupting written workbooks needs no exceljs per case: 20 are written once.
    const bases = await Promise.all(fc.sample(sheetContent, { numRuns: 20, seed: 41 + SEED_OFFSET }).map(write));
    const damage = fc.record({
      base: fc.nat(bases.length - 1),
      mode: fc.constantFrom('truncate', 'flip'),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 20,
      }),
    });
    const workbookCase = fc.oneof({ arbitrary: damage, weight: 9 }, { arbitrary: sheetContent, weight: 1 });
    await fuzz('xlsx', 42, workbookCase, async (input) => {
      if ('rows' in input) return readImportFile(await write(input), 'lotes.xlsx');
      const bytes = Buffer.from(bases[input.base]!);
      if (input.mode === 'truncate') return readImportFile(bytes.subarray(0, 4 + Math.floor(input.cut * bytes.length)), 'lotes.xlsx');
      // Flipped bytes past the PK signature (so the file is still detected as XLSX).
      for (const [at, value] of input.flips) bytes[4 + Math.floor(at * (bytes.length - 4))] = value;
      return readImportFile(bytes, 'lotes.xlsx');
    });
  }, 180_000);
});
