#!/usr/bin/env node
/**
 * Deterministic generator of the lot-import fixtures (issue "Proyectos" → Import; docs/import.md).
 *
 * Plan coordinates: metres, y up, on a local UTM-like grid (zone 18S) whose origin is
 * (278000, 8688000) — roughly Carabayllo, Lima. Each subdivision is a grid of blocks (manzanas) of
 * two back-to-back rows of lots (7.5–9.5 m front, 10 m on corners, 15–20 m deep), 12 m streets
 * between blocks, a park in one block slot, chamfered corners (ochavas) on some corner lots and
 * one block with a slanted street (irregular quadrilateral lots). Lots are numbered around the
 * block: top row left → right 1…n, bottom row right → left n+1…2n.
 *
 * The GeoJSON converts the plan to WGS84 lon/lat around (-77.03, -11.85) on a sphere (1° =
 * 111 319.49 m), so @turf/area gives back the plan areas.
 *
 * Usage: `node scripts/generate-plan-fixtures.mjs` writes fixtures/ (200-lot DXF, GeoJSON, CSV,
 * XLSX; 1 200-lot DXF and CSV; small bad files). `buildPlan` and `planToDxf` are also imported by
 * scripts/bench-import.mjs for the 5 000-lot DXF (never committed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Origin of the local grid (metres). */
export const PLAN_ORIGIN = [278000, 8688000];
/** Georeference of the plan origin for the GeoJSON (lon, lat). */
export const GEO_ORIGIN = [-77.03, -11.85];
const METRES_PER_DEGREE = 111319.49;
const STREET = 12;

/** Small seeded PRNG (mulberry32) → [0, 1). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Block names A…Z, then AA, AB… */
export function blockName(index) {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return index < 26 ? letters[index] : letters[Math.floor(index / 26) - 1] + letters[index % 26];
}

/** Lots per block (8–24, even) adding up to `total`. */
function blockSizes(total, random) {
  const sizes = [];
  let left = total;
  while (left > 0) {
    let size = 8 + 2 * Math.floor(random() * 9); // 8…24
    if (left - size < 8 && left - size !== 0) size = left <= 24 ? left : left - 8;
    size = Math.min(size, left);
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

const round2 = (v) => Math.round(v * 100) / 100;

/** Shoelace area of a ring ([x, y][], not closed). */
export function ringArea(ring) {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    s += x1 * y2 - x2 * y1;
  }
  return Math.abs(s) / 2;
}

function ringPerimeter(ring) {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    s += Math.hypot(x2 - x1, y2 - y1);
  }
  return s;
}

const STREET_NAMES = [
  'Calle Los Olivos',
  'Calle Las Vides',
  'Av. Túpac Amaru',
  'Calle Los Sauces',
  'Jr. Las Uvas',
  'Calle Santa Rosa',
  'Pasaje Los Pinos',
  'Av. Principal',
];

/**
 * Builds a subdivision plan.
 * @param options.lots total number of lots; options.seed PRNG seed; options.blocksPerRow grid width.
 * @returns `{ blocks: [{ name, outline, label: [x, y] }], lots: [{ block, number, ring, front,
 *   back, right, left, neighbours, isCorner, facingPark, pricePerM2 }], park, streets }`.
 */
export function buildPlan({ lots: total, seed = 7, blocksPerRow = 4 }) {
  const random = prng(seed);
  const sizes = blockSizes(total, random);
  const [ox, oy] = PLAN_ORIGIN;
  const blocks = [];
  const lots = [];
  const streets = [];
  // The park takes the slot after the first row's second block.
  const parkSlot = 2;
  let slot = 0;
  let x = ox;
  let y = oy;
  let rowHeight = 0;
  let park = null;
  let col = 0;
  const nextSlot = (width, height) => {
    const at = [x, y];
    x += width + STREET;
    rowHeight = Math.max(rowHeight, height);
    col += 1;
    slot += 1;
    if (col === blocksPerRow) {
      col = 0;
      x = ox;
      y -= rowHeight + STREET;
      rowHeight = 0;
    }
    return at;
  };
  for (let b = 0; b < sizes.length; b++) {
    if (slot === parkSlot) {
      const [px, py] = nextSlot(60, 36);
      park = [
        [px, py - 36],
        [px + 60, py - 36],
        [px + 60, py],
        [px, py],
      ];
    }
    const name = blockName(b);
    const perRow = sizes[b] / 2;
    const depth = 15 + Math.round(random() * 10) / 2; // 15…20 m, each row
    const widths = Array.from({ length: perRow }, (_, i) => (i === 0 || i === perRow - 1 ? 10 : 7.5 + Math.round(random() * 4) / 2));
    const blockWidth = widths.reduce((s, w) => s + w, 0);
    const [bx, top] = nextSlot(blockWidth, 2 * depth);
    const slanted = b === sizes.length - 1 && sizes.length > 3; // last block: slanted street on top
    const chamfer = b % 3 === 0 ? 2 : 0; // ochavas on every third block
    const mid = top - depth;
    const bottom = top - 2 * depth;
    const topAt = (px) => (slanted ? top - ((px - bx) / blockWidth) * 4 : top);
    const neighbourStreet = (k) => STREET_NAMES[(b + k) % STREET_NAMES.length];
    // Top row: left → right, lots 1…n (front on the top street).
    let cx = bx;
    for (let i = 0; i < perRow; i++) {
      const w = widths[i];
      const x0 = cx;
      const x1 = cx + w;
      let ring = [
        [x0, mid],
        [x1, mid],
        [x1, topAt(x1)],
        [x0, topAt(x0)],
      ];
      if (chamfer && i === 0)
        ring = [
          [x0, mid],
          [x1, mid],
          [x1, topAt(x1)],
          [x0 + chamfer, topAt(x0)],
          [x0, topAt(x0) - chamfer],
        ];
      if (chamfer && i === perRow - 1)
        ring = [
          [x0, mid],
          [x1, mid],
          [x1, topAt(x1) - chamfer],
          [x1 - chamfer, topAt(x1)],
          [x0, topAt(x0)],
        ];
      lots.push({
        block: name,
        number: String(i + 1),
        ring,
        front: w,
        back: w,
        right: round2(topAt(x1) - mid),
        left: round2(topAt(x0) - mid),
        neighbours: {
          front: neighbourStreet(0),
          back: `Lote ${2 * perRow - i}`,
          right: i === perRow - 1 ? neighbourStreet(1) : `Lote ${i + 2}`,
          left: i === 0 ? neighbourStreet(3) : `Lote ${i}`,
        },
        isCorner: i === 0 || i === perRow - 1,
        facingPark: false,
        row: 'top',
        blockIndex: b,
      });
      cx = x1;
    }
    // Bottom row: right → left, lots n+1…2n (front on the bottom street).
    cx = bx + blockWidth;
    for (let i = 0; i < perRow; i++) {
      const w = widths[i];
      const x1 = cx;
      const x0 = cx - w;
      let ring = [
        [x0, bottom],
        [x1, bottom],
        [x1, mid],
        [x0, mid],
      ];
      if (chamfer && i === 0)
        ring = [
          [x0, bottom],
          [x1 - chamfer, bottom],
          [x1, bottom + chamfer],
          [x1, mid],
          [x0, mid],
        ];
      lots.push({
        block: name,
        number: String(perRow + i + 1),
        ring,
        front: w,
        back: w,
        right: depth,
        left: depth,
        neighbours: {
          front: neighbourStreet(2),
          back: `Lote ${perRow - i}`,
          right: i === perRow - 1 ? neighbourStreet(3) : `Lote ${perRow + i + 2}`,
          left: i === 0 ? neighbourStreet(1) : `Lote ${perRow + i}`,
        },
        isCorner: i === 0 || i === perRow - 1,
        facingPark: false,
        row: 'bottom',
        blockIndex: b,
      });
      cx = x0;
    }
    blocks.push({
      name,
      outline: [
        [bx, bottom],
        [bx + blockWidth, bottom],
        [bx + blockWidth, topAt(bx + blockWidth)],
        [bx, topAt(bx)],
      ],
      label: [bx + blockWidth / 2, mid + 0.01],
    });
    streets.push([
      [bx - STREET / 2, top + STREET / 2],
      [bx + blockWidth + STREET / 2, top + STREET / 2],
    ]);
  }
  // Lots whose front faces the park (the row right below the park's slot row): mark the top row
  // of blocks right under the park.
  if (park) {
    const [pMinX, pMaxX, pMinY] = [park[0][0], park[1][0], park[0][1]];
    for (const lot of lots) {
      const xs = lot.ring.map((p) => p[0]);
      const maxY = Math.max(...lot.ring.map((p) => p[1]));
      const gap = pMinY - maxY;
      if (lot.row === 'top' && Math.min(...xs) < pMaxX && Math.max(...xs) > pMinX && gap >= STREET - 1e-6 && gap <= STREET + 10)
        lot.facingPark = true;
    }
  }
  for (const lot of lots) {
    lot.area = round2(ringArea(lot.ring));
    lot.perimeter = round2(ringPerimeter(lot.ring));
    lot.pricePerM2 = priceFor(lot);
  }
  return { blocks, lots, park, streets };
}

/**
 * Demo price per m² in céntimos (S/ 150–450): cheaper far from the entrance (higher block index),
 * +12 % on corners, +18 % facing the park; rounded to S/ 5.
 */
export function priceFor(lot) {
  const base = 420 - (lot.blockIndex % 30) * 8; // S/ 420 … 188
  const factor = 1 + (lot.isCorner ? 0.12 : 0) + (lot.facingPark ? 0.18 : 0);
  const soles = Math.min(450, Math.max(150, Math.round((base * factor) / 5) * 5));
  return soles * 100;
}

// ----------------------------------------------------------------------------------------------
// DXF writer (AutoCAD 2000 ASCII: HEADER, TABLES/LAYER, ENTITIES)
// ----------------------------------------------------------------------------------------------

const f = (v) => (Math.round(v * 10000) / 10000).toFixed(4);

/** A DXF writer accumulating group-code pairs; `handle()` issues hex handles. */
function dxfWriter() {
  const out = [];
  let handle = 0x100;
  const pair = (code, value) => out.push(String(code).padStart(3, ' '), String(value));
  return {
    pair,
    handle: () => (handle++).toString(16).toUpperCase(),
    text: () => out.join('\r\n') + '\r\n',
  };
}

const LAYERS = [
  ['0', 7],
  ['LOTES', 3],
  ['MANZANAS', 1],
  ['VIAS', 8],
  ['COTAS', 2],
  ['PARQUE', 94],
];

/**
 * Serialises a plan as an AutoCAD 2000 ASCII DXF.
 * @param options.labels 'single' → one TEXT "A-12" per lot (every 7th lot an MTEXT);
 *   'double' → two TEXTs "MZ A" and "LT 12". options.open: lot codes drawn as open polylines;
 *   options.unlabelled: codes drawn without label; options.relabel: { code: label } overrides;
 *   options.shift: { code: [dx, dy] } moves a lot; options.oldPolyline: codes drawn as POLYLINE.
 */
export function planToDxf(plan, options = {}) {
  const { labels = 'single', open = [], unlabelled = [], relabel = {}, shift = {}, oldPolyline = [], distractions = true } = options;
  const w = dxfWriter();
  w.pair(0, 'SECTION');
  w.pair(2, 'HEADER');
  w.pair(9, '$ACADVER');
  w.pair(1, 'AC1015');
  w.pair(9, '$INSUNITS');
  w.pair(70, 6);
  w.pair(0, 'ENDSEC');
  w.pair(0, 'SECTION');
  w.pair(2, 'TABLES');
  w.pair(0, 'TABLE');
  w.pair(2, 'LAYER');
  w.pair(70, LAYERS.length);
  for (const [name, color] of LAYERS) {
    w.pair(0, 'LAYER');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbSymbolTableRecord');
    w.pair(100, 'AcDbLayerTableRecord');
    w.pair(2, name);
    w.pair(70, 0);
    w.pair(62, color);
    w.pair(6, 'CONTINUOUS');
  }
  w.pair(0, 'ENDTAB');
  w.pair(0, 'ENDSEC');
  w.pair(0, 'SECTION');
  w.pair(2, 'ENTITIES');

  const lwpolyline = (layer, ring, closed) => {
    w.pair(0, 'LWPOLYLINE');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbEntity');
    w.pair(8, layer);
    w.pair(100, 'AcDbPolyline');
    w.pair(90, ring.length);
    w.pair(70, closed ? 1 : 0);
    w.pair(43, '0.0');
    for (const [x, y] of ring) {
      w.pair(10, f(x));
      w.pair(20, f(y));
    }
  };
  const polyline = (layer, ring, closed) => {
    w.pair(0, 'POLYLINE');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbEntity');
    w.pair(8, layer);
    w.pair(100, 'AcDb2dPolyline');
    w.pair(66, 1);
    w.pair(10, '0.0');
    w.pair(20, '0.0');
    w.pair(30, '0.0');
    w.pair(70, closed ? 1 : 0);
    for (const [x, y] of ring) {
      w.pair(0, 'VERTEX');
      w.pair(5, w.handle());
      w.pair(100, 'AcDbEntity');
      w.pair(8, layer);
      w.pair(100, 'AcDbVertex');
      w.pair(100, 'AcDb2dVertex');
      w.pair(10, f(x));
      w.pair(20, f(y));
      w.pair(30, '0.0');
    }
    w.pair(0, 'SEQEND');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbEntity');
    w.pair(8, layer);
  };
  const text = (layer, [x, y], height, value, rotation = 0) => {
    w.pair(0, 'TEXT');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbEntity');
    w.pair(8, layer);
    w.pair(100, 'AcDbText');
    w.pair(10, f(x));
    w.pair(20, f(y));
    w.pair(30, '0.0');
    w.pair(40, f(height));
    w.pair(1, value);
    if (rotation) w.pair(50, f(rotation));
    w.pair(100, 'AcDbText');
  };
  const mtext = (layer, [x, y], height, value) => {
    w.pair(0, 'MTEXT');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbEntity');
    w.pair(8, layer);
    w.pair(100, 'AcDbMText');
    w.pair(10, f(x));
    w.pair(20, f(y));
    w.pair(30, '0.0');
    w.pair(40, f(height));
    w.pair(41, '6.0');
    w.pair(71, 5);
    w.pair(1, value);
  };
  const line = (layer, [x1, y1], [x2, y2]) => {
    w.pair(0, 'LINE');
    w.pair(5, w.handle());
    w.pair(100, 'AcDbEntity');
    w.pair(8, layer);
    w.pair(100, 'AcDbLine');
    w.pair(10, f(x1));
    w.pair(20, f(y1));
    w.pair(30, '0.0');
    w.pair(11, f(x2));
    w.pair(21, f(y2));
    w.pair(31, '0.0');
  };

  if (distractions) {
    for (const block of plan.blocks) {
      lwpolyline('MANZANAS', block.outline, true);
      text('MANZANAS', [block.label[0] - 3, block.outline[3][1] + 2], 2.5, `MZ ${block.name}`);
    }
    for (const street of plan.streets) line('VIAS', street[0], street[1]);
    plan.streets.forEach((street, i) =>
      text('VIAS', [street[0][0] + 4, street[0][1] + 0.5], 1.8, STREET_NAMES[i % STREET_NAMES.length].toUpperCase()),
    );
    if (plan.park) {
      lwpolyline('PARQUE', plan.park, true);
      const [px, py] = plan.park[0];
      text('PARQUE', [px + 20, py + 18], 3, 'PARQUE');
      text('PARQUE', [px + 18, py + 14], 1.5, `AREA = ${(60 * 36).toFixed(2)} m2`);
    }
  }
  let n = 0;
  for (const lot of plan.lots) {
    n += 1;
    const code = `${lot.block}-${lot.number}`;
    const [dx, dy] = shift[code] ?? [0, 0];
    const ring = lot.ring.map(([x, y]) => [x + dx, y + dy]);
    const closed = !open.includes(code);
    if (oldPolyline.includes(code)) polyline('LOTES', ring, closed);
    else lwpolyline('LOTES', ring, closed);
    const cx = ring.reduce((s, p) => s + p[0], 0) / ring.length;
    const cy = ring.reduce((s, p) => s + p[1], 0) / ring.length;
    if (!unlabelled.includes(code)) {
      const label = relabel[code] ?? code;
      if (labels === 'double') {
        text('LOTES', [cx - 1.5, cy + 0.6], 1, `MZ ${lot.block}`);
        text('LOTES', [cx - 1.5, cy - 0.9], 1, `LT ${lot.number}`);
      } else if (n % 7 === 0) mtext('LOTES', [cx, cy], 1.2, `{\\fArial|b0|i0;${label}}`);
      else text('LOTES', [cx - 1.2, cy - 0.5], 1.2, label);
    }
    if (distractions) {
      // Dimension texts: the front width near the front edge, the depth near the left edge.
      const ys = ring.map((p) => p[1]);
      const front = lot.front.toFixed(2);
      const nearFront = lot.row === 'top' ? Math.max(...ys) - 1.2 : Math.min(...ys) + 0.4;
      text('COTAS', [cx - 1, nearFront], 0.6, front);
      text('COTAS', [Math.min(...ring.map((p) => p[0])) + 0.3, cy], 0.6, lot.left.toFixed(2), 90);
    }
  }
  w.pair(0, 'ENDSEC');
  w.pair(0, 'EOF');
  return w.text();
}

// ----------------------------------------------------------------------------------------------
// GeoJSON, CSV, XLSX
// ----------------------------------------------------------------------------------------------

/** Plan metres → [lon, lat] near {@link GEO_ORIGIN} (spherical, 1° = 111 319.49 m). */
export function planToLonLat([x, y]) {
  const [lon0, lat0] = GEO_ORIGIN;
  const lat = lat0 + (y - PLAN_ORIGIN[1]) / METRES_PER_DEGREE;
  const lon = lon0 + (x - PLAN_ORIGIN[0]) / (METRES_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180));
  return [Math.round(lon * 1e9) / 1e9, Math.round(lat * 1e9) / 1e9];
}

/**
 * GeoJSON FeatureCollection of the lots in lon/lat. `offArea`: codes whose declared `area` is
 * written 3 % off (to show the > 1 % warning).
 */
export function planToGeoJson(plan, { offArea = [] } = {}) {
  return {
    type: 'FeatureCollection',
    name: 'lotes',
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } },
    features: plan.lots.map((lot) => {
      const code = `${lot.block}-${lot.number}`;
      const ring = lot.ring.map(planToLonLat);
      return {
        type: 'Feature',
        properties: { manzana: lot.block, lote: lot.number, area: offArea.includes(code) ? round2(lot.area * 1.03) : lot.area },
        geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] },
      };
    }),
  };
}

/** Uses of the ArcGIS export by lot ("A-4" style); the rest are VIVIENDA. */
const ARCGIS_USES = {
  'A-1': 'COMERCIO',
  'B-1': 'CLUB HOUSE',
  'C-2': 'EDUCACION',
  'D-3': 'PARQUE',
  'E-4': 'Vivienda Multifamiliar',
  'F-1': 'APORTE',
};

/**
 * A GeoJSON as an ArcGIS export of a Peruvian plan writes it (issue 13 "Done when"): the plan's
 * metres as UTM 18S (`crs` EPSG:32718), properties `MZ`, `LT`, `ML` ("A-12"), `Etapa` (blocks of
 * the first half 1, the rest 2), `uso` (ARCGIS_USES, else VIVIENDA), `Shape_Area`, and CAD
 * leftovers (`Layer`, `RefName`, `Elevation`). Defects, as real exports have them:
 * - `spikes`: codes whose ring goes 0.4–0.7 m into the next lot and back along the same line
 *   (a zero-area spike, to be cleaned with a warning);
 * - every lot 3 of a block: a T-junction vertex on its right edge (shared with lot 4), harmless;
 * - `duplicates`: `{ "A-5": "A-4" }` labels lot A-5 as A-4 (a repeated code the user resolves);
 * - `shift`: `{ "C-3": [1, 0] }` moves a lot (a real overlap above the limit).
 */
export function planToArcgisExport(plan, { spikes = [], duplicates = {}, shift = {} } = {}) {
  const blocks = [...new Set(plan.lots.map((l) => l.block))];
  const firstStage = new Set(blocks.slice(0, Math.ceil(blocks.length / 2)));
  return {
    type: 'FeatureCollection',
    name: 'LOTES_ARCGIS',
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32718' } },
    features: plan.lots.map((lot, index) => {
      const code = `${lot.block}-${lot.number}`;
      const [dx, dy] = shift[code] ?? [0, 0];
      let ring = lot.ring.map(([x, y]) => [round2(x + dx), round2(y + dy)]);
      // Right edge: ring[1] → ring[2] (bottom-right → top-right) in the top row's rings.
      if (lot.number === '3' && ring.length === 4) {
        const [[x1, y1], [x2, y2]] = [ring[1], ring[2]];
        ring = [ring[0], ring[1], [x1, round2(y1 + (y2 - y1) * 0.35)], ...ring.slice(2)];
        void x2;
      }
      if (spikes.includes(code)) {
        const [[x1, y1], [, y2]] = [ring[1], ring[2]];
        const base = [x1, round2((y1 + y2) / 2)];
        const tip = [round2(x1 + 0.4 + (index % 4) * 0.1), base[1]];
        ring = [ring[0], ring[1], base, tip, base, ...ring.slice(2)];
      }
      const label = duplicates[code] ?? code;
      const [block, number] = label.split('-');
      return {
        type: 'Feature',
        properties: {
          OBJECTID: index + 1,
          MZ: block,
          LT: number,
          ML: label,
          Etapa: firstStage.has(lot.block) ? 1 : 2,
          uso: ARCGIS_USES[code] ?? 'VIVIENDA',
          Shape_Area: lot.area,
          Layer: 'LOTES',
          RefName: `${block}${number}`,
          Elevation: 0,
        },
        geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] },
      };
    }),
  };
}

/** Columns of the lots CSV/XLSX (docs/import.md). */
export const CSV_COLUMNS = [
  'manzana',
  'lote',
  'area',
  'perimetro',
  'frente',
  'frente_colindante',
  'fondo',
  'fondo_colindante',
  'derecha',
  'derecha_colindante',
  'izquierda',
  'izquierda_colindante',
  'precio_m2',
  'esquina',
  'frente_parque',
];

/** Row values of a lot, in {@link CSV_COLUMNS} order (price in soles with 2 decimals). */
function lotRow(lot) {
  return [
    lot.block,
    lot.number,
    lot.area.toFixed(2),
    lot.perimeter.toFixed(2),
    lot.front.toFixed(2),
    lot.neighbours.front,
    lot.back.toFixed(2),
    lot.neighbours.back,
    lot.right.toFixed(2),
    lot.neighbours.right,
    lot.left.toFixed(2),
    lot.neighbours.left,
    (lot.pricePerM2 / 100).toFixed(2),
    lot.isCorner ? 'SI' : 'NO',
    lot.facingPark ? 'SI' : 'NO',
  ];
}

const csvCell = (v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The lots as CSV text (comma separated, decimal point, UTF-8). */
export function planToCsv(plan) {
  return [CSV_COLUMNS, ...plan.lots.map(lotRow)].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Writes the lots as an XLSX workbook (numbers as numbers). */
async function writeXlsx(plan, path) {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Parcela';
  workbook.created = new Date('2026-01-15T12:00:00Z');
  workbook.modified = workbook.created;
  const sheet = workbook.addWorksheet('Lotes');
  sheet.addRow(CSV_COLUMNS);
  for (const lot of plan.lots) {
    const row = lotRow(lot);
    sheet.addRow(row.map((v, i) => ([2, 3, 4, 6, 8, 10, 12].includes(i) ? Number(v) : v)));
  }
  await workbook.xlsx.writeFile(path);
}

// ----------------------------------------------------------------------------------------------
// Fixtures
// ----------------------------------------------------------------------------------------------

/** Writes every committed fixture under `dir`. */
export async function writeFixtures(dir) {
  mkdirSync(dir, { recursive: true });
  const plan200 = buildPlan({ lots: 200, seed: 200 });
  writeFileSync(join(dir, 'lotizacion-200.dxf'), planToDxf(plan200));
  writeFileSync(join(dir, 'lotizacion-200.geojson'), JSON.stringify(planToGeoJson(plan200, { offArea: ['A-3', 'C-10'] })) + '\n');
  writeFileSync(join(dir, 'lotes-200.csv'), planToCsv(plan200));
  await writeXlsx(plan200, join(dir, 'lotes-200.xlsx'));

  const plan1200 = buildPlan({ lots: 1200, seed: 1200, blocksPerRow: 8 });
  writeFileSync(join(dir, 'lotizacion-1200.dxf'), planToDxf(plan1200));
  writeFileSync(join(dir, 'lotes-1200.csv'), planToCsv(plan1200));

  // Small bad files: one 16-lot block, two rows of 8.
  const small = buildPlan({ lots: 16, seed: 16 });
  writeFileSync(join(dir, 'lotizacion-16.dxf'), planToDxf(small, { labels: 'double', oldPolyline: ['A-5'] }));
  writeFileSync(join(dir, 'bad-not-a-dxf.dxf'), 'Plano de lotización - versión impresa\nEste archivo no es un DXF, es un texto.\n');
  writeFileSync(join(dir, 'bad-open-polylines.dxf'), planToDxf(small, { open: ['A-2', 'A-7'] }));
  writeFileSync(join(dir, 'bad-overlapping.dxf'), planToDxf(small, { shift: { 'A-3': [2, 0] } }));
  writeFileSync(join(dir, 'bad-duplicated-codes.dxf'), planToDxf(small, { relabel: { 'A-4': 'A-3' } }));
  writeFileSync(join(dir, 'bad-missing-label.dxf'), planToDxf(small, { unlabelled: ['A-6'] }));
  // An ArcGIS export of 96 lots with the defects of real ones (issue 13): spikes, T-junctions, a
  // repeated code, stages and uses; and the same with a real overlap.
  const plan96 = buildPlan({ lots: 96, seed: 96 });
  const defects = { spikes: ['A-2', 'B-5', 'D-7'], duplicates: { 'C-5': 'C-4' } };
  writeFileSync(join(dir, 'arcgis-utm18s-96.geojson'), JSON.stringify(planToArcgisExport(plan96, defects)) + '\n');
  writeFileSync(
    join(dir, 'bad-arcgis-overlap.geojson'),
    JSON.stringify(planToArcgisExport(plan96, { ...defects, shift: { 'E-2': [1, 0] } })) + '\n',
  );
  const csvLines = planToCsv(small).trimEnd().split('\r\n');
  csvLines[3] = csvLines[3].replace(/^A,3,[^,]*,/, 'A,3,,'); // fila 4: lot A-3 without area
  csvLines[5] = csvLines[5].replace(/,(\d+\.\d{2}),(SI|NO),(SI|NO)$/, ',abc,$2,$3'); // fila 6: A-5 bad price
  csvLines[8] = csvLines[8].replace(/^A,8,/, 'A,7,'); // fila 9: duplicates A-7
  writeFileSync(join(dir, 'bad-lotes.csv'), csvLines.join('\r\n') + '\r\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
  await writeFixtures(dir);
  console.log(`Fixtures written to ${dir}`);
}
