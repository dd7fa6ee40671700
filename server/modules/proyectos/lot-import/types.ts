import {
  blockNameSchema,
  IMPORT_ISSUE_KINDS,
  lotCode,
  lotNumberSchema,
  type ImportDuplicate,
  type ImportFormat,
  type ImportIssue,
  type ImportIssueKind,
  type ImportUseValue,
  type LandUse,
} from '../../../../src/schemas/proyectos/projects';
import { readLandUseValue } from '../../../../src/lib/proyectos/land-use-words';
import type { LotBoundaries } from '../../../db/database';
import type { Ring } from './geometry';

/**
 * Shapes shared by the lot-import parsers (server/modules/proyectos/lot-import/*; docs/import.md).
 * Units: areas m², lengths metres (2 decimals), prices céntimos per m².
 */

/**
 * One lot read from a file, before it is compared with the subdivision's lots. Perimeter and
 * boundaries (metres, neighbours): {@link LotBoundaries}, as the lots table stores them.
 */
export interface ParsedLot extends LotBoundaries {
  block: string;
  number: string;
  /** "MZ A - LT 12" ({@link lotCode}). */
  code: string;
  /** Declared area when the file gives one, else the drawn area (m², 2 decimals); null when neither. */
  area_m2: number | null;
  /** Area declared in the file (CSV `area`, GeoJSON `area`), m². */
  declared_area_m2: number | null;
  /** Area computed from the polygon, m². */
  drawn_area_m2: number | null;
  /** Céntimos per m², or null when the file gives no price. */
  price_per_m2: number | null;
  is_corner: boolean | null;
  facing_park: boolean | null;
  /** Outer ring in the file's coordinates, or null (CSV/XLSX). */
  polygon: Ring | null;
  /** Stage (etapa) the file puts the lot in, normalised by {@link stageName}; null when it says none. */
  stage: string | null;
  /**
   * Land use the file gives the lot ({@link readLandUse}, then the user's and the remembered
   * choices: `resolveLandUses` in ./land-uses.ts); null when it says none or the value has no use yet.
   */
  land_use: LandUse | null;
  /** The `uso` value as written when it is not a use's own name (the preview lists it); else null. */
  land_use_label: string | null;
  /** Where people find it: "fila 14", "capa LOTES, polilínea cerca de (120.50, 88.00)". */
  location: string;
  /**
   * Place among the file's lots, 1-based, set by readImportFile once the limits are applied (0
   * before): stable for the same bytes, so a duplicate resolution names a lot by it (issue 13 item 5).
   */
  position: number;
}

/** What a parser returns. `lots` excludes rows/polylines whose block or number is unusable. */
export interface ParseResult {
  format: ImportFormat;
  /** DXF only: every layer with its counts. */
  layers: Array<{ name: string; closed_polylines: number; open_polylines: number; texts: number }> | null;
  /** DXF only: the layer read. */
  layer: string | null;
  lots: ParsedLot[];
  issues: ImportIssue[];
  /** Coordinates of the polygons (null when the file has none). */
  coordinateSystem: 'PLAN' | 'GEO' | null;
  /** Closed polygons that did not become lots (no or bad label): still checked for overlaps. */
  strayRings?: Array<{ ring: Ring; location: string }>;
  /**
   * CSV and XLSX: true when the reader stopped at its row limit with rows still unread (issue 11
   * item 8), so the file has more lots than may be imported.
   */
  truncated?: boolean;
  /**
   * The codes the file repeats with their lots, as read — before any resolution is applied (set by
   * readImportFile; issue 13 item 5).
   */
  duplicates?: ImportDuplicate[];
  /**
   * The file's land-use values that are not a use's own name, with their lots and use (set by
   * readImportFile: `listUseValues` in ./land-uses.ts), at most MAX_IMPORT_USE_VALUES.
   */
  useValues?: ImportUseValue[];
  /** Distinct values beyond `useValues`. */
  useValuesMore?: number;
  /** Distinct values of the file without a use (listed or not). */
  useValuesUnmapped?: number;
}

/** A lot with every optional field empty (parsers fill what their format has). */
export function emptyLot(block: string, number: string, location: string): ParsedLot {
  return {
    block,
    number,
    code: lotCode(block, number),
    area_m2: null,
    declared_area_m2: null,
    drawn_area_m2: null,
    perimeter_m: null,
    front_m: null,
    front_neighbour: null,
    back_m: null,
    back_neighbour: null,
    right_m: null,
    right_neighbour: null,
    left_m: null,
    left_neighbour: null,
    price_per_m2: null,
    is_corner: null,
    facing_park: null,
    polygon: null,
    stage: null,
    land_use: null,
    land_use_label: null,
    location,
    position: 0,
  };
}

/**
 * A stage's name as the file writes it, normalised: "1", "01" or "ETAPA 1" → "Etapa 1"; other
 * text trimmed and capped at 60 characters ("Sector Norte"). Empty → null (issue 13 item 3).
 */
export function stageName(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trim().replace(/\s+/g, ' ').slice(0, 60);
  if (!text) return null;
  const numbered = /^(?:etapa|et\.?|e)?\s*0*(\d{1,4})$/i.exec(text);
  return numbered ? `Etapa ${numbered[1]}` : text;
}

/**
 * Sets `lot.land_use` and `lot.land_use_label` from a file's `uso` value
 * ({@link readLandUseValue}: a use's own name, a synonym, or a value the user maps in the preview).
 * Never an issue: an unrecognised value is listed by the preview, not refused (docs/import.md "Land use").
 */
export function readLandUse(lot: ParsedLot, raw: unknown): void {
  const { use, label } = readLandUseValue(raw);
  lot.land_use = use;
  lot.land_use_label = label;
}

/** Builds an issue. */
export function issue(
  severity: ImportIssue['severity'],
  location: string,
  message: string,
  extra: { lot_code?: string | null; field?: string | null; kind?: ImportIssueKind; more?: number } = {},
): ImportIssue {
  const built: ImportIssue = { severity, location, lot_code: extra.lot_code ?? null, field: extra.field ?? null, message };
  if (extra.kind) built.kind = extra.kind;
  if (extra.more !== undefined) built.more = extra.more;
  return built;
}

/** Fields that hold a row's measures and values (CSV/XLSX, GeoJSON properties). */
const VALUE_FIELDS = new Set(['area_m2', 'perimeter_m', 'front_m', 'back_m', 'right_m', 'left_m', 'price_per_m2']);

/**
 * The kind of an issue the parsers raised without one (issue 13 item 6), from its field and
 * wording: `file`/`layer` → FILE; a measure or price field → VALUE; label wording → LABEL;
 * polyline/polygon/geometry wording → GEOMETRY; the block/number rules → CODE; else OTHER.
 */
export function kindOf(issue: ImportIssue): ImportIssueKind {
  if (issue.kind && issue.kind in IMPORT_ISSUE_KINDS) return issue.kind as ImportIssueKind;
  if (issue.field === 'file' || issue.field === 'layer') return 'FILE';
  if (issue.field && VALUE_FIELDS.has(issue.field)) return 'VALUE';
  const message = issue.message.toLowerCase();
  if (/rótulo/.test(message)) return 'LABEL';
  if (/polil[ií]nea|pol[ií]gono|geometr[ií]a|coordenadas|vértices|multipolygon|feature/.test(message)) return 'GEOMETRY';
  if (/manzana|lote/.test(message)) return 'CODE';
  return 'OTHER';
}

/**
 * Validates a block and lot number with the contract's schemas.
 * @returns the normalised pair, or the Spanish messages of what is wrong.
 */
export function validateBlockAndNumber(
  block: string,
  number: string,
): { ok: true; block: string; number: string } | { ok: false; messages: string[] } {
  const b = blockNameSchema.safeParse(block);
  const n = lotNumberSchema.safeParse(number);
  if (b.success && n.success) return { ok: true, block: b.data, number: n.data };
  return {
    ok: false,
    messages: [...(b.success ? [] : b.error.issues.map((i) => i.message)), ...(n.success ? [] : n.error.issues.map((i) => i.message))],
  };
}

/** "(120.50, 88.00)" — a point as people read it on the plan. */
export function formatPoint([x, y]: readonly [number, number]): string {
  const show = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '?');
  return `(${show(x)}, ${show(y)})`;
}
