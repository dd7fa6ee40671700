import DxfParser from 'dxf-parser';
import proj4 from 'proj4';
import type { ImportIssue } from '../../../../src/schemas/proyectos/projects';
import { centroid, isGeographic, locatePoints, measureRing, openRing, round2, type Point, type Ring } from './geometry';
import { parseLabel, plainText, type Label } from './labels';
import { normaliseHeader, parseDecimal } from './table';
import { emptyLot, formatPoint, issue, readLandUse, stageName, validateBlockAndNumber, type ParsedLot, type ParseResult } from './types';

/**
 * DXF and GeoJSON lot polygons (docs/import.md "DXF" and "GeoJSON").
 */

/** Layer counts as the layer chooser lists them. */
type LayerCounts = { name: string; closed_polylines: number; open_polylines: number; texts: number };

/** Minimal view of the dxf-parser entities used here. */
interface DxfEntity {
  type: string;
  layer?: string;
  shape?: boolean;
  vertices?: Array<{ x: number; y: number }>;
  text?: string;
  startPoint?: { x: number; y: number };
  position?: { x: number; y: number };
}

/** True when the text looks like an ASCII DXF (group code 0 + SECTION near the start). */
export function looksLikeDxf(text: string): boolean {
  return /^\s*(999\s*\r?\n[^\n]*\r?\n\s*)?0\s*\r?\nSECTION\s*\r?\n/.test(text.slice(0, 2000));
}

/** Group codes kept by {@link entitiesOnly}: text (1, 3), layer (8), coordinates (10/20/30), flags (70), vertex count (90). */
const KEPT_GROUP_CODES = new Set(['1', '3', '8', '10', '20', '30', '70', '90']);

/**
 * Rewrites an ASCII DXF into what dxf-parser 1.1 reads without looping forever (found by fuzzing,
 * issue 11 item 7: a truncated LAYER table or a POLYLINE without SEQEND froze the reader):
 * - only the ENTITIES section is kept (the table readers loop on an unexpected record; the
 *   importer needs no table, header or block);
 * - every POLYLINE is closed by a SEQEND before the next entity that is not one of its VERTEXes;
 * - every LWPOLYLINE's vertex count (group 90) is set to the number of vertices (group 10) it
 *   really has (a declared 10^9 made the reader allocate 10^9 empty vertices).
 * - only the group codes the importer reads are kept ({@link KEPT_GROUP_CODES}): a file whose
 *   lines got out of step (code/value swapped) otherwise sends thousands of unknown codes through
 *   the reader, which logs each one.
 * Lines are read as (group code, value) pairs from the start, as the format defines them.
 */
export function entitiesOnly(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  type Entity = { type: string; pairs: Array<[string, string]> };
  const entities: Entity[] = [];
  let section: string | null = null;
  let expectName = false;
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const code = lines[i]!.trim();
    const value = lines[i + 1]!;
    const word = value.trim();
    if (code === '0' && word === 'SECTION') {
      section = null;
      expectName = true;
      continue;
    }
    if (expectName) {
      expectName = false;
      if (code === '2') {
        section = word;
        continue;
      }
    }
    if (code === '0' && (word === 'ENDSEC' || word === 'EOF')) {
      section = null;
      continue;
    }
    if (section !== 'ENTITIES') continue;
    if (code === '0') entities.push({ type: word, pairs: [] });
    else if (KEPT_GROUP_CODES.has(code)) entities.at(-1)?.pairs.push([code, value]);
  }
  const out: string[] = ['0', 'SECTION', '2', 'ENTITIES'];
  let inPolyline = false;
  for (const entity of entities) {
    if (inPolyline && entity.type !== 'VERTEX' && entity.type !== 'SEQEND') out.push('0', 'SEQEND');
    if (entity.type === 'POLYLINE') inPolyline = true;
    else if (entity.type === 'SEQEND') {
      if (!inPolyline) continue;
      inPolyline = false;
    } else if (entity.type !== 'VERTEX') inPolyline = false;
    out.push('0', entity.type);
    if (entity.type !== 'LWPOLYLINE') {
      for (const [code, value] of entity.pairs) out.push(code, value);
      continue;
    }
    // The reader's vertex loop must end on the next entity (code 0): its own properties first,
    // then the vertices, nothing after them.
    const isVertexCode = (code: string) => code === '10' || code === '20' || code === '30';
    const vertices = entity.pairs.filter(([code]) => code === '10').length;
    for (const [code, value] of entity.pairs) {
      if (code === '8' || code === '70') out.push(code, value);
    }
    if (vertices > 0) out.push('90', String(vertices));
    for (const [code, value] of entity.pairs) if (isVertexCode(code)) out.push(code, value);
  }
  if (inPolyline) out.push('0', 'SEQEND');
  out.push('0', 'ENDSEC', '0', 'EOF');
  return out.join('\n');
}

/** Closing tolerance of a polyline drawn open whose last vertex repeats the first (drawing units). */
const CLOSE_TOLERANCE = 0.001;

/**
 * Parses an ASCII DXF: closed LWPOLYLINE/POLYLINE of `layer` (default: the layer with most closed
 * polylines) are lots; TEXT/MTEXT of any layer whose insertion point lies inside a lot label it
 * (see labels.ts). Checks: unreadable file, unknown layer, open polylines in the layer, lots
 * without label or with two different labels, labels outside every lot (WARNING), invalid
 * block/number. Coordinates are kept as drawn (PLAN, or GEO when they are all lon/lat).
 */
export function parseDxf(text: string, requestedLayer?: string | null): ParseResult {
  const issues: ImportIssue[] = [];
  const fail = (message: string): ParseResult => ({
    format: 'DXF',
    layers: null,
    layer: null,
    lots: [],
    issues: [issue('ERROR', 'archivo', message, { field: 'file' })],
    coordinateSystem: null,
  });
  if (!looksLikeDxf(text)) return fail('El archivo no es un DXF válido (se espera un DXF ASCII de AutoCAD)');
  let entities: DxfEntity[];
  try {
    const dxf = new DxfParser().parseSync(entitiesOnly(text)) as unknown as { entities?: DxfEntity[] } | null;
    entities = dxf?.entities ?? [];
  } catch {
    return fail('El archivo DXF está dañado y no se puede leer');
  }

  const counts = new Map<string, LayerCounts>();
  const countsOf = (name: string) => {
    let c = counts.get(name);
    if (!c) counts.set(name, (c = { name, closed_polylines: 0, open_polylines: 0, texts: 0 }));
    return c;
  };
  type Polyline = { layer: string; ring: Ring; closed: boolean };
  const polylines: Polyline[] = [];
  const texts: Array<{ point: Point; value: string; layer: string }> = [];
  for (const entity of entities) {
    const layer = entity.layer ?? '0';
    if ((entity.type === 'LWPOLYLINE' || entity.type === 'POLYLINE') && entity.vertices) {
      // A vertex without numeric x/y (a damaged file) is left out rather than read as NaN.
      const points = entity.vertices
        .filter((v) => typeof v?.x === 'number' && typeof v.y === 'number' && !Number.isNaN(v.x + v.y))
        .map((v) => [v.x, v.y] as Point);
      const first = points[0],
        last = points[points.length - 1];
      const closesItself = !!first && !!last && points.length > 3 && Math.hypot(first[0] - last[0], first[1] - last[1]) <= CLOSE_TOLERANCE;
      const ring = openRing(points, 1e-9);
      const closed = (entity.shape === true || closesItself) && ring.length >= 3;
      polylines.push({ layer, ring, closed });
      if (closed) countsOf(layer).closed_polylines += 1;
      else countsOf(layer).open_polylines += 1;
    } else if ((entity.type === 'TEXT' || entity.type === 'MTEXT') && typeof entity.text === 'string') {
      const at = entity.type === 'TEXT' ? entity.startPoint : entity.position;
      if (at && typeof at.x === 'number' && typeof at.y === 'number') texts.push({ point: [at.x, at.y], value: entity.text, layer });
      countsOf(layer).texts += 1;
    }
  }
  const layers = [...counts.values()].sort((a, b) => b.closed_polylines - a.closed_polylines || a.name.localeCompare(b.name));
  if (layers.every((l) => l.closed_polylines === 0 && l.open_polylines === 0)) {
    return { ...fail('El DXF no tiene polilíneas: dibuje cada lote como una polilínea cerrada'), layers };
  }
  let layer = layers[0]!.name;
  if (requestedLayer) {
    const wanted =
      layers.find((l) => l.name === requestedLayer) ?? layers.find((l) => l.name.toUpperCase() === requestedLayer.toUpperCase());
    if (!wanted) return { ...fail(`La capa "${requestedLayer}" no existe en el DXF`), layers };
    layer = wanted.name;
  }

  const chosen = polylines.filter((p) => p.layer === layer);
  for (const p of chosen) {
    if (!p.closed) {
      issues.push(
        issue(
          'ERROR',
          `capa ${layer}, polilínea abierta cerca de ${formatPoint(p.ring[0] ?? [0, 0])}`,
          'La polilínea no está cerrada: ciérrela en el plano para que sea un lote',
        ),
      );
    }
  }
  const rings = chosen.filter((p) => p.closed).map((p) => p.ring);
  if (rings.length === 0) issues.push(issue('ERROR', `capa ${layer}`, 'La capa no tiene polilíneas cerradas', { field: 'layer' }));
  const geographic = isGeographic(rings);

  const labels = texts.map((t) => ({ ...t, label: parseLabel(t.value) })).filter((t): t is typeof t & { label: Label } => t.label !== null);
  const owners = locatePoints(
    labels.map((t) => t.point),
    rings,
  );
  const labelsOf: Array<Array<(typeof labels)[number]>> = rings.map(() => []);
  owners.forEach((owner, i) => {
    const label = labels[i]!;
    if (owner >= 0) labelsOf[owner]!.push(label);
    else if (label.label.kind === 'full') {
      issues.push(
        issue(
          'WARNING',
          `capa ${label.layer}, texto cerca de ${formatPoint(label.point)}`,
          `El rótulo "${plainText(label.value)}" no está dentro de ninguna polilínea de la capa ${layer}`,
        ),
      );
    }
  });

  const lots: ParsedLot[] = [];
  const strayRings: Array<{ ring: Ring; location: string }> = [];
  rings.forEach((ring, i) => {
    const location = `capa ${layer}, polilínea cerca de ${formatPoint(centroid(ring))}`;
    strayRings.push({ ring, location });
    const found = labelsOf[i]!;
    const full = new Map<string, { block: string; number: string }>();
    for (const t of found) if (t.label.kind === 'full') full.set(`${t.label.block}|${t.label.number}`, t.label);
    let pair: { block: string; number: string } | null = null;
    if (full.size > 1) {
      const names = [...full.values()].map((l) => `${l.block}-${l.number}`).join(', ');
      issues.push(issue('ERROR', location, `La polilínea tiene varios rótulos distintos (${names})`));
      return;
    } else if (full.size === 1) {
      pair = [...full.values()][0]!;
    } else {
      const blocks = [...new Set(found.flatMap((t) => (t.label.kind === 'block' ? [t.label.block] : [])))];
      const numbers = [...new Set(found.flatMap((t) => (t.label.kind === 'lot' ? [t.label.number] : [])))];
      if (blocks.length === 1 && numbers.length === 1) pair = { block: blocks[0]!, number: numbers[0]! };
    }
    if (!pair) {
      issues.push(issue('ERROR', location, 'Lote sin rótulo: escriba dentro de la polilínea un texto como "A-12" o "MZ A" y "LT 12"'));
      return;
    }
    const valid = validateBlockAndNumber(pair.block, pair.number);
    if (!valid.ok) {
      for (const message of valid.messages) issues.push(issue('ERROR', location, message));
      return;
    }
    const lot = emptyLot(valid.block, valid.number, location);
    const { area, perimeter } = measureRing(ring, geographic);
    lot.polygon = ring;
    lot.drawn_area_m2 = round2(area);
    lot.area_m2 = lot.drawn_area_m2;
    lot.perimeter_m = round2(perimeter);
    lots.push(lot);
    strayRings.pop();
  });
  return { format: 'DXF', layers, layer, lots, issues, coordinateSystem: rings.length ? (geographic ? 'GEO' : 'PLAN') : null, strayRings };
}

/**
 * GeoJSON properties by any of their spellings (normalised: a–z and digits), as ArcGIS, QGIS and
 * CAD exports write them (issue 13 item 7): `MZ`/`MZA`/`manzana`, `LT`/`LOTE`/`lote`,
 * `ML`/`codigo`/`COD_LOTE`, `area_m2`/`AREA`, `perimetro`, `Etapa`/`sector`, `uso`/`tipo`/`destino`. `Shape_Area` and
 * `Shape_Length` are the GIS's own measures, in the CRS's units: read only when the CRS is
 * projected (metres), see {@link projectedCrs}.
 */
const GEO_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  manzana: ['manzana', 'mz', 'mza', 'block', 'bloque'],
  lote: ['lote', 'lt', 'lot', 'numero', 'nro', 'nlote'],
  codigo: ['codigo', 'code', 'name', 'nombre', 'rotulo', 'label', 'ml', 'codlote', 'codigolote'],
  area: ['area', 'aream2', 'areadeclarada', 'superficie'],
  shape_area: ['shapearea'],
  perimetro: ['perimetro', 'perimetrom', 'perimeter'],
  shape_length: ['shapelength', 'shapeleng'],
  precio_m2: ['preciom2', 'precioporm2', 'precio'],
  etapa: ['etapa', 'sector', 'stage', 'fase'],
  uso: ['uso', 'usodelsuelo', 'usosuelo', 'tipo', 'tipouso', 'destino', 'landuse'],
};

/** A projected CRS the importer converts to lon/lat: its EPSG code and proj4 definition. */
interface ProjectedCrs {
  epsg: number;
  definition: string;
}

/**
 * The CRS named by a GeoJSON's `crs` member (the 2008 GeoJSON spec; RFC 7946 dropped it, but
 * ArcGIS and QGIS still write it): null for none or WGS84 lon/lat (EPSG:4326, CRS84);
 * a {@link ProjectedCrs} for the UTM zones that cover Peru and its neighbours — WGS84 UTM north
 * and south (EPSG:326zz, 327zz) and PSAD56 UTM 17S–19S (EPSG:24877–24879, the old Peruvian
 * datum); a string (the Spanish error) for any other. Converted with proj4.
 */
export function projectedCrs(json: Record<string, unknown>): ProjectedCrs | null | string {
  const crs = json.crs as { properties?: { name?: unknown } } | undefined;
  const name = typeof crs?.properties?.name === 'string' ? crs.properties.name : null;
  if (!name) return null;
  if (/CRS84$/i.test(name)) return null;
  const code = /EPSG:{1,2}(?:[\d.]*:)?(\d{4,5})$/i.exec(name)?.[1];
  const epsg = code ? Number(code) : NaN;
  if (epsg === 4326) return null;
  const zone = epsg % 100;
  if ((Math.floor(epsg / 100) === 326 || Math.floor(epsg / 100) === 327) && zone >= 1 && zone <= 60) {
    return { epsg, definition: `+proj=utm +zone=${zone}${Math.floor(epsg / 100) === 327 ? ' +south' : ''} +datum=WGS84 +units=m +no_defs` };
  }
  if (epsg >= 24877 && epsg <= 24879) {
    return { epsg, definition: `+proj=utm +zone=${epsg - 24860} +south +ellps=intl +towgs84=-288,175,-376,0,0,0,0 +units=m +no_defs` };
  }
  const shown = Number.isFinite(epsg) ? `EPSG:${epsg}` : `"${name.slice(0, 60)}"`;
  return `El sistema de coordenadas ${shown} no está admitido: exporte el archivo en WGS84 (EPSG:4326) o en UTM WGS84 (EPSG:32717, 32718 o 32719)`;
}

function property(properties: Record<string, unknown>, name: string): unknown {
  const wanted = new Set(GEO_PROPERTIES[name]!.map(normaliseHeader));
  for (const [key, value] of Object.entries(properties)) if (wanted.has(normaliseHeader(key))) return value;
  return undefined;
}

/** Outer ring of a Polygon / one-polygon MultiPolygon, or an error message. */
function outerRing(geometry: unknown): Ring | string {
  const g = geometry as { type?: string; coordinates?: unknown } | null;
  if (!g || typeof g !== 'object') return 'El elemento no tiene geometría';
  let rings: unknown;
  if (g.type === 'Polygon') rings = g.coordinates;
  else if (g.type === 'MultiPolygon') {
    const polygons = g.coordinates as unknown[];
    if (!Array.isArray(polygons) || polygons.length !== 1) return 'MultiPolygon con varios polígonos: separe cada lote en un elemento';
    rings = polygons[0];
  } else {
    // Only a text or number type is named: `{"type": {}}` would read "[object Object]" (found by fast-check).
    const type = typeof g.type === 'string' || typeof g.type === 'number' ? String(g.type).slice(0, 40) : 'desconocida';
    return `Geometría ${type} no admitida: cada lote debe ser un Polygon`;
  }
  const outer = Array.isArray(rings) ? (rings[0] as unknown) : null;
  if (!Array.isArray(outer) || !outer.every((p) => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number')) {
    return 'Coordenadas del polígono no válidas';
  }
  const ring = openRing(outer.map((p: number[]) => [p[0]!, p[1]!] as Point));
  return ring.length >= 3 ? ring : 'El polígono tiene menos de 3 vértices';
}

/**
 * Parses a GeoJSON FeatureCollection (or one Feature) of lot polygons. Properties `manzana` +
 * `lote` (or `codigo` "MZ A - LT 12"), optional `area` (declared, m²), `perimetro` (m),
 * `precio_m2` (soles) and `etapa`, by any spelling of {@link GEO_PROPERTIES}. A projected `crs`
 * (UTM) is converted to lon/lat ({@link projectedCrs}). Area from the geometry: @turf/area when
 * the coordinates are lon/lat, shoelace otherwise.
 */
export function parseGeoJson(text: string): ParseResult {
  const result: ParseResult = { format: 'GEOJSON', layers: null, layer: null, lots: [], issues: [], coordinateSystem: null };
  let json: { type?: string; features?: unknown[] } & Record<string, unknown>;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    result.issues.push(issue('ERROR', 'archivo', 'El archivo GeoJSON no es un JSON válido', { field: 'file' }));
    return result;
  }
  const features =
    json?.type === 'FeatureCollection' && Array.isArray(json.features) ? json.features : json?.type === 'Feature' ? [json] : null;
  if (!features) {
    result.issues.push(issue('ERROR', 'archivo', 'El GeoJSON debe ser un FeatureCollection de polígonos', { field: 'file' }));
    return result;
  }
  const crs = projectedCrs(json);
  if (typeof crs === 'string') {
    result.issues.push(issue('ERROR', 'archivo', crs, { field: 'file' }));
    return result;
  }
  // Projected coordinates (UTM metres) become lon/lat, so the lots sit on the real map.
  const toLonLat = crs ? proj4(crs.definition, 'WGS84') : null;
  const unproject = (ring: Ring): Ring | string => {
    if (!toLonLat) return ring;
    const converted = ring.map((p) => toLonLat.forward([p[0], p[1]]) as Point);
    return converted.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
      ? converted
      : `Coordenadas fuera del sistema EPSG:${crs!.epsg}`;
  };
  // A feature must be an object: `features: [null]` or `[3]` was a TypeError (issue 11 item 7).
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const ringOf = (f: unknown): Ring | string => {
    const ring = isObject(f) ? outerRing(f.geometry) : 'no';
    return typeof ring === 'string' ? ring : unproject(ring);
  };
  const rings: Array<Ring | null> = features.map((f) => {
    const ring = ringOf(f);
    return typeof ring === 'string' ? null : ring;
  });
  const geographic = crs !== null || isGeographic(rings.filter((r): r is Ring => r !== null));
  features.forEach((feature, i) => {
    let location = `elemento ${i + 1}`;
    if (!isObject(feature)) {
      result.issues.push(
        issue('ERROR', location, 'El elemento no es un Feature de GeoJSON (se esperaba un objeto con "geometry" y "properties")'),
      );
      return;
    }
    const properties = isObject(feature.properties) ? feature.properties : {};
    const ring = ringOf(feature);
    let block = String(property(properties, 'manzana') ?? '').trim();
    let number = String(property(properties, 'lote') ?? '').trim();
    if (!block || !number) {
      const label = parseLabel(String(property(properties, 'codigo') ?? ''));
      if (label?.kind === 'full') ({ block, number } = label);
    }
    if (!block && !number) {
      result.issues.push(issue('ERROR', location, 'Lote sin rótulo: faltan las propiedades "manzana" y "lote"'));
      return;
    }
    const valid = validateBlockAndNumber(block.replace(/^(MZA?|MANZANA)\.?\s*/i, ''), number.replace(/^(LTE?|LOTE)\.?\s*/i, ''));
    if (!valid.ok) {
      for (const message of valid.messages) result.issues.push(issue('ERROR', location, message));
      return;
    }
    const lot = emptyLot(valid.block, valid.number, location);
    location = `elemento ${i + 1} (${lot.code})`;
    lot.location = location;
    if (typeof ring === 'string') {
      result.issues.push(issue('ERROR', location, ring, { lot_code: lot.code }));
      return;
    }
    const { area, perimeter } = measureRing(ring, geographic);
    lot.polygon = ring;
    lot.drawn_area_m2 = round2(area);
    lot.perimeter_m = round2(perimeter);
    // The GIS's Shape_Area/Shape_Length are in the CRS's units: metres only when it is projected.
    const declared = parseDecimal(property(properties, 'area') ?? (crs ? property(properties, 'shape_area') : undefined));
    const declaredPerimeter = parseDecimal(property(properties, 'perimetro') ?? (crs ? property(properties, 'shape_length') : undefined));
    if (declaredPerimeter !== null && Number.isFinite(declaredPerimeter) && declaredPerimeter > 0)
      lot.perimeter_m = round2(declaredPerimeter);
    lot.stage = stageName(property(properties, 'etapa'));
    readLandUse(lot, property(properties, 'uso'));
    if (declared !== null && (Number.isNaN(declared) || declared <= 0)) {
      result.issues.push(issue('ERROR', location, 'El área declarada no es válida', { lot_code: lot.code, field: 'area_m2' }));
    } else if (declared !== null) lot.declared_area_m2 = round2(declared);
    lot.area_m2 = lot.declared_area_m2 ?? lot.drawn_area_m2;
    const price = parseDecimal(property(properties, 'precio_m2'));
    if (price !== null && (Number.isNaN(price) || price < 0)) {
      result.issues.push(issue('ERROR', location, 'El precio por m² no es válido', { lot_code: lot.code, field: 'price_per_m2' }));
    } else if (price !== null) lot.price_per_m2 = Math.round(price * 100);
    result.lots.push(lot);
  });
  if (features.length === 0) result.issues.push(issue('ERROR', 'archivo', 'El GeoJSON no tiene elementos', { field: 'file' }));
  result.coordinateSystem = rings.some((r) => r !== null) ? (geographic ? 'GEO' : 'PLAN') : null;
  return result;
}
