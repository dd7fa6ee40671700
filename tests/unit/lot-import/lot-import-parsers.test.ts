import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, MAX_IMPORT_LOTS, readImportFile } from '../../../server/modules/proyectos/lot-import';
import { stageName } from '../../../server/modules/proyectos/lot-import/types';
import { readLandUseValue } from '../../../src/lib/proyectos/land-use-words';

const landUseOf = (raw: unknown) => readLandUseValue(raw).use;
import { projectedCrs } from '../../../server/modules/proyectos/lot-import/spatial';
import {
  cleanRing,
  overlapArea,
  overlappingPairs,
  planArea,
  geoArea,
  type Ring,
} from '../../../server/modules/proyectos/lot-import/geometry';
import { parseLabel, plainText } from '../../../server/modules/proyectos/lot-import/labels';
import { columnOf, parseCsv, parseDecimal, parseXlsx } from '../../../server/modules/proyectos/lot-import/table';
import { parseDxf, parseGeoJson } from '../../../server/modules/proyectos/lot-import/spatial';
import { lotWorkbook } from '../../server/xlsx-builder';

/** Lot-import parsers and checks (server/modules/proyectos/lot-import/) against fixtures/ and inline samples. */

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const read = (name: string, layer?: string) => readImportFile(fixture(name), name, layer);
const errors = <T extends { severity: string }>(issues: T[]) => issues.filter((i) => i.severity === 'ERROR');

describe('labels', () => {
  it.each([
    ['A-12', { kind: 'full', block: 'A', number: '12' }],
    ['mz b - lt 3', { kind: 'full', block: 'B', number: '3' }],
    ['MZ. C LT. 7', { kind: 'full', block: 'C', number: '7' }],
    ['Manzana D Lote 10', { kind: 'full', block: 'D', number: '10' }],
    ['{\\fArial|b0|i0;A-7}', { kind: 'full', block: 'A', number: '7' }],
    ['MZ A', { kind: 'block', block: 'A' }],
    ['LT 12', { kind: 'lot', number: '12' }],
  ])('reads %s', (text, label) => {
    expect(parseLabel(text)).toEqual(label);
  });
  it.each(['8.00', 'CALLE LOS OLIVOS', 'PARQUE', 'AREA = 2160.00 m2', '19.50', ''])('ignores %s', (text) => {
    expect(parseLabel(text)).toBeNull();
  });
  it('strips MTEXT formatting', () => {
    expect(plainText('{\\fArial|b1;MZ A}\\PLT 4')).toBe('MZ A LT 4');
  });
});

describe('numbers and headers', () => {
  it.each([
    ['250.00', 250],
    ['250,00', 250],
    ['1,234.50', 1234.5],
    ['1.234,50', 1234.5],
    ['1,234,567', 1234567],
    ['S/ 300.50', 300.5],
    [' 160.2 m2', 160.2],
    [42, 42],
  ])('parses %s', (raw, value) => {
    expect(parseDecimal(raw)).toBe(value);
  });
  it('empty is null, junk is NaN', () => {
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal(null)).toBeNull();
    expect(parseDecimal('abc')).toBeNaN();
  });
  it('matches headers without accents, case or spaces', () => {
    expect(columnOf('Área (m²)')).toBe('area');
    expect(columnOf('  MZ ')).toBe('manzana');
    expect(columnOf('N° Lote')).toBe('lote');
    expect(columnOf('Precio m2')).toBe('precio_m2');
    expect(columnOf('Perímetro')).toBe('perimetro');
    expect(columnOf('Frente colindante')).toBe('frente_colindante');
    expect(columnOf('color')).toBeNull();
  });
});

describe('geometry', () => {
  const square = (x: number, y: number, s = 10): Ring => [
    [x, y],
    [x + s, y],
    [x + s, y + s],
    [x, y + s],
  ];
  it('shoelace and turf areas', () => {
    expect(planArea(square(500000, 8670000))).toBe(100);
    // 0.0001° × 0.0001° near Lima ≈ 11.13 m × 10.9 m.
    const geo = geoArea([
      [-77.03, -11.85],
      [-77.0299, -11.85],
      [-77.0299, -11.8499],
      [-77.03, -11.8499],
    ]);
    expect(geo).toBeGreaterThan(118);
    expect(geo).toBeLessThan(125);
  });
  it('shared edges and corners share no area; a 2 m shift shares 20 m², nested lots the smaller one', () => {
    expect(overlapArea(square(0, 0), square(10, 0), false)).toBe(0);
    expect(overlapArea(square(0, 0), square(10, 10), false)).toBe(0);
    expect(overlapArea(square(0, 0), square(8, 0), false)).toBeCloseTo(20, 9);
    expect(overlapArea(square(0, 0), square(0, 0), false)).toBeCloseTo(100, 9);
    expect(overlapArea(square(0, 0), square(2, 2, 3), false)).toBeCloseTo(9, 9); // nested
  });
  it('two lots sharing an edge with extra (T-junction) vertices on one side share nothing', () => {
    // An L-shaped (non-convex) lot whose right edge has two extra vertices where the neighbours' corners meet it.
    const l: Ring = [
      [0, 0],
      [10, 0],
      [10, 4],
      [10, 7],
      [10, 10],
      [5, 10],
      [5, 20],
      [0, 20],
    ];
    const right: Ring = [
      [10, 0],
      [20, 0],
      [20, 10],
      [10, 10],
      [10, 7],
      [10, 4],
    ];
    expect(overlapArea(l, right, false)).toBe(0);
    expect(overlapArea(right, l, false)).toBe(0);
    expect(overlappingPairs([l, right], { tolerance: 0.01, geographic: false })).toEqual([]);
  });
  it('a zero-area spike into the neighbour shares nothing, and cleaning removes it', () => {
    // Lot A (non-convex once spiked) goes 0.66 m into B along one line and comes back.
    const spiked: Ring = [
      [0, 0],
      [10, 0],
      [10, 5],
      [10.66, 5],
      [10, 5],
      [10, 10],
      [0, 10],
    ];
    const b = square(10, 0);
    expect(overlapArea(spiked, b, false)).toBeLessThan(1e-9);
    const cleaned = cleanRing(spiked, 0.01);
    expect(cleaned.spikes).toHaveLength(1);
    expect(cleaned.spikes[0]).toBeCloseTo(0.66, 9);
    expect(cleaned.ring).toEqual([
      [0, 0],
      [10, 0],
      [10, 5],
      [10, 10],
      [0, 10],
    ]);
    expect(cleanRing(square(0, 0), 0.01)).toEqual({ ring: square(0, 0), repeated: 0, spikes: [] });
    // Repeated vertices (zero-length edges) go too.
    expect(
      cleanRing(
        [
          [0, 0],
          [0, 0],
          [10, 0],
          [10, 10],
          [10, 10.001],
          [0, 10],
        ],
        0.01,
      ),
    ).toMatchObject({ ring: square(0, 0), repeated: 2, spikes: [] });
  });
  it('a real 1 m² overlap between non-convex lots is measured exactly', () => {
    const l1: Ring = [
      [0, 0],
      [10, 0],
      [10, 10],
      [5, 10],
      [5, 20],
      [0, 20],
    ];
    // l2's corner square [9,9]–[10,10] lies inside l1: exactly 1 m² in common.
    const l2b: Ring = [
      [9, 9],
      [20, 9],
      [20, 30],
      [15, 30],
      [15, 10],
      [9, 10],
    ];
    expect(overlapArea(l1, l2b, false)).toBeCloseTo(1, 9);
    expect(overlappingPairs([l1, l2b], { tolerance: 0.01, geographic: false })).toEqual([{ i: 0, j: 1, area_m2: expect.closeTo(1, 9) }]);
  });
  it('finds overlapping pairs in a grid with one intruder', () => {
    const rings = Array.from({ length: 100 }, (_, i) => square((i % 10) * 10, Math.floor(i / 10) * 10));
    expect(overlappingPairs(rings, { tolerance: 0.01, geographic: false })).toEqual([]);
    rings.push(square(15, 15));
    expect(overlappingPairs(rings, { tolerance: 0.01, geographic: false }).map(({ j, area_m2 }) => [j, area_m2])).toEqual([
      [100, 25],
      [100, 25],
      [100, 25],
      [100, 25],
    ]);
  });
});

describe('stages and coordinate systems (issue 13)', () => {
  it('normalises stage names', () => {
    expect(['1', '01', 'ETAPA 1', 'etapa  1', 1].map(stageName)).toEqual(['Etapa 1', 'Etapa 1', 'Etapa 1', 'Etapa 1', 'Etapa 1']);
    expect(stageName(' Sector Norte ')).toBe('Sector Norte');
    expect([null, undefined, '', '  '].map(stageName)).toEqual([null, null, null, null]);
  });
  it('reads land uses as engineers write them (issue 13 item 4)', () => {
    const uses = [
      'VIVIENDA',
      'Vivienda Multifamiliar',
      'COMERCIO',
      'Zona comercial',
      'EDUCACIÓN',
      'Salud',
      'PARQUE',
      'Área verde',
      'CLUB HOUSE',
    ];
    expect(uses.map(landUseOf)).toEqual([
      'VIVIENDA',
      'MULTIFAMILIAR',
      'COMERCIO',
      'COMERCIO',
      'EQUIPAMIENTO',
      'EQUIPAMIENTO',
      'RECREACION',
      'RECREACION',
      'CLUB_HOUSE',
    ]);
    expect(['Aportes', 'Aporte Municipalidad', 'OTROS_USOS', 'Otros fines', 'Área de recreación pública'].map(landUseOf)).toEqual([
      'OTROS_USOS',
      'OTROS_USOS',
      'OTROS_USOS',
      'OTROS_USOS',
      'RECREACION',
    ]);
    expect([null, undefined, '', '   ', ' - '].map(landUseOf)).toEqual([null, null, null, null, null]);
    expect(readLandUseValue(' Cementerio ')).toEqual({ use: null, label: 'Cementerio' });
  });

  it('takes `uso`, `tipo` or `destino` from CSV columns and GeoJSON properties; an unknown use is kept as a label, never an issue', () => {
    const csv = parseCsv('manzana,lote,area,precio_m2,uso\nA,1,120,250,Vivienda\nA,2,300,0,Parque\nA,3,120,250,Granja\n');
    expect(csv.lots.map((l) => [l.code, l.land_use])).toEqual([
      ['MZ A - LT 1', 'VIVIENDA'],
      ['MZ A - LT 2', 'RECREACION'],
      ['MZ A - LT 3', null],
    ]);
    // "Vivienda" is a use's own name (no label); "Parque" is a synonym and "Granja" unknown: both listed by the preview.
    expect(csv.lots.map((l) => l.land_use_label)).toEqual([null, 'Parque', 'Granja']);
    expect(csv.issues).toEqual([]);
    const square = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const geo = parseGeoJson(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: { MZ: 'B', LT: '1', TIPO: 'Club House' }, geometry: { type: 'Polygon', coordinates: [square] } },
          {
            type: 'Feature',
            properties: { MZ: 'B', LT: '2', Destino: 'Aporte' },
            geometry: { type: 'Polygon', coordinates: [square.map(([x, y]) => [x! + 10, y!])] },
          },
        ],
      }),
    );
    expect(geo.lots.map((l) => l.land_use)).toEqual(['CLUB_HOUSE', 'OTROS_USOS']);
  });

  it('knows the UTM zones of Peru and refuses other projected systems', () => {
    const named = (name: string) => projectedCrs({ crs: { type: 'name', properties: { name } } });
    expect(named('urn:ogc:def:crs:EPSG::32718')).toMatchObject({ epsg: 32718, definition: expect.stringContaining('+zone=18 +south') });
    expect(named('EPSG:32617')).toMatchObject({ epsg: 32617, definition: expect.not.stringContaining('+south') });
    expect(named('EPSG:24877')).toMatchObject({ epsg: 24877, definition: expect.stringContaining('+zone=17 +south +ellps=intl') });
    expect(named('urn:ogc:def:crs:OGC:1.3:CRS84')).toBeNull();
    expect(named('EPSG:4326')).toBeNull();
    expect(projectedCrs({})).toBeNull();
    expect(named('EPSG:3857')).toMatch(/^El sistema de coordenadas EPSG:3857 no está admitido/);
  });
});

describe('format detection', () => {
  it('sniffs the content, the extension only breaking ties', () => {
    expect(detectFormat(fixture('lotizacion-200.dxf'), 'plano.txt')).toBe('DXF');
    expect(detectFormat(fixture('lotes-200.xlsx'), 'lotes')).toBe('XLSX');
    expect(detectFormat(fixture('lotizacion-200.geojson'), 'x.json')).toBe('GEOJSON');
    expect(detectFormat(fixture('lotes-200.csv'), 'x.csv')).toBe('CSV');
    expect(detectFormat(fixture('bad-not-a-dxf.dxf'), 'bad.dxf')).toBeNull();
    expect(detectFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'plano.png')).toBeNull();
  });
});

describe('DXF', () => {
  it('reads the 200-lot plan: layer LOTES by default, every lot labelled, plan areas', async () => {
    const result = await read('lotizacion-200.dxf');
    expect(result.format).toBe('DXF');
    expect(result.layer).toBe('LOTES');
    expect(result.layers?.[0]).toMatchObject({ name: 'LOTES', closed_polylines: 200, open_polylines: 0 });
    expect(result.layers?.find((l) => l.name === 'COTAS')?.texts).toBeGreaterThan(0);
    expect(result.issues).toEqual([]);
    expect(result.lots).toHaveLength(200);
    expect(result.coordinateSystem).toBe('PLAN');
    const a1 = result.lots.find((l) => l.code === 'MZ A - LT 1')!;
    expect(a1.area_m2).toBe(193); // 10 × 19.5 minus a 2 m chamfer
    expect(a1.polygon).toHaveLength(5);
    expect(new Set(result.lots.map((l) => l.code)).size).toBe(200);
  });
  it('accepts the two-text convention and old-style POLYLINE', async () => {
    const result = await read('lotizacion-16.dxf');
    expect(errors(result.issues)).toEqual([]);
    expect(result.lots.map((l) => l.code)).toContain('MZ A - LT 5');
    expect(result.lots).toHaveLength(16);
  });
  it('not a DXF', async () => {
    const result = await read('bad-not-a-dxf.dxf');
    expect(result.issues).toEqual([
      expect.objectContaining({ severity: 'ERROR', location: 'archivo', message: expect.stringMatching(/no es un DXF/) }),
    ]);
    expect(parseDxf('0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n').issues[0]!.message).toMatch(/no tiene polilíneas/);
  });
  it('open polylines are errors located on the plan', async () => {
    const result = await read('bad-open-polylines.dxf');
    const open = errors(result.issues).filter((i) => /no está cerrada/.test(i.message));
    expect(open).toHaveLength(2);
    expect(open[0]!.location).toMatch(/^capa LOTES, polilínea abierta cerca de \(\d+\.\d{2}, \d+\.\d{2}\)$/);
  });
  it('overlapping lots', async () => {
    const result = await read('bad-overlapping.dxf');
    expect(errors(result.issues).some((i) => /se superpone/.test(i.message))).toBe(true);
  });
  it('duplicated codes', async () => {
    const result = await read('bad-duplicated-codes.dxf');
    expect(errors(result.issues)).toEqual([
      expect.objectContaining({ lot_code: 'MZ A - LT 3', message: expect.stringMatching(/Código repetido/) }),
    ]);
  });
  it('a lot without label', async () => {
    const result = await read('bad-missing-label.dxf');
    expect(errors(result.issues)).toEqual([expect.objectContaining({ message: expect.stringMatching(/Lote sin rótulo/) })]);
    expect(result.lots).toHaveLength(15);
  });
  it('unknown layer', async () => {
    const result = await read('lotizacion-16.dxf', 'NO-EXISTE');
    expect(errors(result.issues)[0]!.message).toBe('La capa "NO-EXISTE" no existe en el DXF');
  });
});

describe('GeoJSON', () => {
  it('geographic polygons measured with turf; > 1 % declared area differences are warnings', async () => {
    const result = await read('lotizacion-200.geojson');
    expect(result.coordinateSystem).toBe('GEO');
    expect(errors(result.issues)).toEqual([]);
    expect(result.issues.map((i) => i.lot_code)).toEqual(['MZ A - LT 3', 'MZ C - LT 10']);
    const a1 = result.lots.find((l) => l.code === 'MZ A - LT 1')!;
    expect(Math.abs(a1.drawn_area_m2! - 193) / 193).toBeLessThan(0.01);
    expect(a1.area_m2).toBe(193); // the declared one
  });
  it('plan coordinates use the shoelace area; bad geometries are errors', () => {
    const polygon = (coords: number[][]) => ({ type: 'Polygon', coordinates: [coords] });
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { MZ: 'A', Lote: '1', Area: '200,00' },
          geometry: polygon([
            [500000, 8670000],
            [500010, 8670000],
            [500010, 8670020],
            [500000, 8670020],
            [500000, 8670000],
          ]),
        },
        {
          type: 'Feature',
          properties: { codigo: 'MZ A - LT 2' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
        },
        {
          type: 'Feature',
          properties: {},
          geometry: polygon([
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ]),
        },
      ],
    });
    const result = parseGeoJson(text);
    expect(result.coordinateSystem).toBe('PLAN');
    expect(result.lots).toHaveLength(1);
    expect(result.lots[0]).toMatchObject({ code: 'MZ A - LT 1', drawn_area_m2: 200, area_m2: 200, perimeter_m: 60 });
    expect(result.issues.map((i) => i.location)).toEqual(['elemento 2 (MZ A - LT 2)', 'elemento 3']);
    expect(parseGeoJson('{nope').issues[0]!.message).toMatch(/no es un JSON válido/);
  });
});

describe('CSV and XLSX', () => {
  it('reads the 200-lot CSV with prices in céntimos and boundaries', async () => {
    const result = await read('lotes-200.csv');
    expect(result.issues).toEqual([]);
    expect(result.lots).toHaveLength(200);
    expect(result.lots[0]).toMatchObject({
      code: 'MZ A - LT 1',
      area_m2: 193,
      perimeter_m: 57.83,
      front_m: 10,
      front_neighbour: 'Calle Los Olivos',
      price_per_m2: 45000,
      is_corner: true,
      polygon: null,
    });
  });
  it('stop reading at the row limit (issue 11 item 8): at most that many lots, `truncated` when rows were left', async () => {
    const csv = ['manzana,lote,area,precio_m2', ...Array.from({ length: 30 }, (_, i) => `A,${i + 1},120,250`)].join('\n');
    expect(parseCsv(csv, 30).truncated).toBeUndefined();
    const cut = parseCsv(csv + '\n\n\n', 10);
    expect(cut.lots.map((l) => l.number)).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    expect(cut.truncated).toBe(true);

    const whole = await parseXlsx(lotWorkbook(30), 30);
    expect(whole.lots).toHaveLength(30);
    expect(whole.truncated).toBeUndefined();
    const partial = await parseXlsx(lotWorkbook(30), 10);
    expect(partial.lots.map((l) => l.code)).toEqual(Array.from({ length: 10 }, (_, i) => `MZ A - LT ${i + 1}`));
    expect(partial.truncated).toBe(true);

    const refused = await readImportFile(lotWorkbook(MAX_IMPORT_LOTS + 1), 'lotes.xlsx');
    expect(refused.lots).toEqual([]);
    expect(refused.issues.map((i) => i.message)).toEqual([`El archivo tiene más de ${MAX_IMPORT_LOTS.toLocaleString('es-PE')} lotes`]);
  });

  it('reads the XLSX the same as the CSV', async () => {
    const [csv, xlsx] = await Promise.all([read('lotes-200.csv'), read('lotes-200.xlsx')]);
    expect(xlsx.format).toBe('XLSX');
    expect(xlsx.issues).toEqual([]);
    expect(xlsx.lots.map(({ location: _l, ...lot }) => lot)).toEqual(csv.lots.map(({ location: _l, ...lot }) => lot));
  });
  it('reports missing area, bad price and duplicates by row', async () => {
    const result = await read('bad-lotes.csv');
    expect(errors(result.issues).map((i) => [i.location, i.field])).toEqual([
      ['fila 4', 'area_m2'],
      ['fila 6', 'price_per_m2'],
      ['fila 9', null],
    ]);
  });
  it('accepts semicolons, decimal commas and accented headers', () => {
    const result = parseCsv('\uFEFFMz;N° Lote;Área (m²);Precio m2\nB;1;160,50;S/ 320,00\nb;2A;150;300\n');
    expect(result.issues).toEqual([]);
    expect(result.lots.map((l) => [l.code, l.area_m2, l.price_per_m2])).toEqual([
      ['MZ B - LT 1', 160.5, 32000],
      ['MZ B - LT 2A', 150, 30000],
    ]);
  });
  it('refuses files without the key columns or with bad blocks', () => {
    expect(parseCsv('color,tamaño\nrojo,1\n').issues[0]!.message).toMatch(/Faltan las columnas/);
    const bad = parseCsv('manzana,lote,area,precio_m2\nA B,1,100,200\n');
    expect(bad.issues[0]).toMatchObject({ location: 'fila 2', message: 'La manzana solo admite letras y números' });
  });
});

describe('the 1 200-lot fixture', () => {
  // Its speed is measured by `npm run bench` (scripts/bench-import.mjs), not asserted here: tests
  // hold no absolute times (they run on loaded machines).
  it('reads and checks the 1 200-lot DXF without an error', async () => {
    const result = await read('lotizacion-1200.dxf');
    expect(result.lots).toHaveLength(1200);
    expect(errors(result.issues)).toEqual([]);
  });
});
