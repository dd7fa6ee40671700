import { LOT_STATUSES, type Currency, type LandUse, type LotStatus, type Polygon } from '../../schemas/proyectos/projects';
import type { PaymentBucket, PaymentMapLot } from '../../schemas/comercio/payment-map';
import { TITLE_STATE_LABELS, TITLE_STATES, type TitleState } from '../../schemas/administracion/titles';
import { dateOfEpochDay, epochDay, formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';

/**
 * Pure helpers of the lot maps (issue "Proyectos", docs/domain.md "Maps"): the lot shape every
 * map draws, filters, counts, lot-code search, drawing coordinates and the heat-map colour ramp.
 * No DOM, no React: shared by the map machine, the views and their tests.
 */

/**
 * A lot as every map draws it, from the staff map (`id` set, internal status) or the public map
 * (`id` null, public status only, prices null unless the company shows them).
 * `key` is unique within the map (the id on the staff map, the code on the public map).
 * Money in céntimos, area in m², polygon in the subdivision's coordinates.
 */
export interface MapLotView {
  key: string;
  id: number | null;
  code: string;
  block: string;
  number: string;
  area_m2: number;
  price_per_m2: number | null;
  list_price: number | null;
  status: LotStatus;
  /** Land use, when the server sends it (the tooltip names the use of a lot not for sale). */
  land_use?: LandUse;
  polygon: Polygon | null;
  /** The live sale's date (YYYY-MM-DD, Lima), staff maps only; null/absent when the lot has no live sale. */
  sale_date?: string | null;
  /** Days late of the live sale (≥ 0), staff maps only; null/absent when the lot has no live sale. */
  days_late?: number | null;
  /** The live sale's payment facts (Mapa de Pagos only); null/absent when the lot has no live sale. */
  payment?: PaymentMapLot | null;
  /**
   * The state of the live sale's title process (the heat map's TITLE_STATE, once read for a user who
   * may see titles); null when the lot has no live sale or its sale no process; absent before.
   */
  title_state?: TitleState | null;
}

/** Filters of the map: none selected in a list = no filter on it; prices in céntimos (list price). */
export interface MapFilters {
  blocks: readonly string[];
  statuses: readonly LotStatus[];
  minPrice: number | null;
  maxPrice: number | null;
}

export const NO_FILTERS: MapFilters = { blocks: [], statuses: [], minPrice: null, maxPrice: null };

/** Whether a lot passes the filters (lots that do not are drawn faded, never hidden). */
export function passesFilters(lot: MapLotView, filters: MapFilters): boolean {
  if (filters.blocks.length > 0 && !filters.blocks.includes(lot.block)) return false;
  if (filters.statuses.length > 0 && !filters.statuses.includes(lot.status)) return false;
  if (filters.minPrice !== null && (lot.list_price === null || lot.list_price < filters.minPrice)) return false;
  if (filters.maxPrice !== null && (lot.list_price === null || lot.list_price > filters.maxPrice)) return false;
  return true;
}

/** True when any filter is set. */
export function hasFilters(filters: MapFilters): boolean {
  return filters.blocks.length > 0 || filters.statuses.length > 0 || filters.minPrice !== null || filters.maxPrice !== null;
}

/** Lots per status (every lot of the map, filtered or not), 0 for absent statuses. */
export function countByStatus(lots: readonly MapLotView[]): Record<LotStatus, number> {
  const counts = Object.fromEntries(LOT_STATUSES.map((status) => [status, 0])) as Record<LotStatus, number>;
  for (const lot of lots) counts[lot.status] += 1;
  return counts;
}

/** The blocks of the map, sorted naturally ("A", "B", …, "B2", "C10" after "C9"). */
export function blocksOf(lots: readonly MapLotView[]): string[] {
  return [...new Set(lots.map((l) => l.block))].sort((a, b) => a.localeCompare(b, 'es', { numeric: true }));
}

const stripZeros = (s: string) => s.replace(/^0+(?=.)/, '');

/**
 * Parses what a person types to find a lot: "MZ A - LT 12", "Mz. A Lt. 12", "A-12", "a 12",
 * "A12" (block letters then digits). @returns block and number upper-cased, or null.
 */
export function parseLotQuery(text: string): { block: string; number: string } | null {
  const t = text.trim().toUpperCase();
  if (t === '') return null;
  const spaced = /^(?:MZ\.?|MANZANA)?\s*([A-ZÑ0-9]+)\s*(?:[-–,/]|\s)\s*(?:LT\.?|LOTE)?\s*([A-Z0-9]+)$/.exec(t);
  if (spaced) return { block: spaced[1]!, number: spaced[2]! };
  const withLt = /^(?:MZ\.?|MANZANA)?\s*([A-ZÑ0-9]+?)\s*(?:LT\.?|LOTE)\s*([A-Z0-9]+)$/.exec(t);
  if (withLt) return { block: withLt[1]!, number: withLt[2]! };
  const glued = /^(?:MZ\.?)?\s*([A-ZÑ]+)(\d+[A-Z]?)$/.exec(t);
  if (glued) return { block: glued[1]!, number: glued[2]! };
  return null;
}

/** The lot a search text names (by code, or block + number; leading zeros ignored), or null. */
export function findLot(lots: readonly MapLotView[], text: string): MapLotView | null {
  const t = text.trim().toUpperCase().replace(/\s+/g, ' ');
  const exact = lots.find((l) => l.code.toUpperCase() === t);
  if (exact) return exact;
  const q = parseLotQuery(t);
  if (!q) return null;
  return lots.find((l) => l.block.toUpperCase() === q.block && stripZeros(l.number.toUpperCase()) === stripZeros(q.number)) ?? null;
}

/** [minX, minY, maxX, maxY] of a polygon. */
export function polygonBounds(polygon: Polygon): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity; // prettier-ignore
  for (const [x, y] of polygon) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

/**
 * Maps subdivision coordinates to drawing coordinates (SVG: x right, y down). PLAN coordinates are
 * metres with y up (server/modules/proyectos/lot-import/geometry.ts: CAD and UTM drawings), so y is flipped; GEO
 * ([longitude, latitude]) is projected with an equirectangular projection scaled to metres around
 * the map's mean latitude (y flipped too). North is up in both.
 */
export function projector(
  system: 'PLAN' | 'GEO',
  bounds: readonly [number, number, number, number] | null,
): (p: readonly [number, number]) => [number, number] {
  // Drawing coordinates start at the bounds' north-west corner: UTM-sized numbers (8 688 000 m)
  // would lose centimetres in the browser's 32-bit float geometry (hit-testing, zoomed drawing).
  const [x0, , , y1] = bounds ?? [0, 0, 0, 0];
  if (system === 'PLAN') return ([x, y]) => [x - x0, y1 - y];
  const lat0 = bounds ? (bounds[1] + bounds[3]) / 2 : 0;
  const k = 111_320;
  const kx = k * Math.cos((lat0 * Math.PI) / 180);
  return ([lon, lat]) => [(lon - x0) * kx, (y1 - lat) * k];
}

/** SVG path data of a polygon through `project` ("M x,y L … Z"). */
export function pathData(polygon: Polygon, project: (p: readonly [number, number]) => [number, number]): string {
  let d = '';
  for (let i = 0; i < polygon.length; i++) {
    const [x, y] = project(polygon[i]!);
    d += `${i === 0 ? 'M' : 'L'}${Math.round(x * 100) / 100},${Math.round(y * 100) / 100}`;
  }
  return `${d}Z`;
}

// ---------------------------------------------------------------------------------------------
// Heat map
// ---------------------------------------------------------------------------------------------

/**
 * Metrics of the heat map (docs/decisions.md "Heat map metrics"): price per m² (céntimos), days
 * late of the live sale (days) and its sale date (placed on the scale as days since 1970-01-01) on
 * the continuous ramp; and the state of the live sale's title process, categorical (TITLE_STATE,
 * docs/decisions.md "Heat map: title state"; one colour per state, {@link TITLE_STATE_COLOR}).
 */
export type HeatMetric = 'PRICE_PER_M2' | 'DAYS_LATE' | 'SALE_DATE' | 'TITLE_STATE';

/** Metrics coloured by category (a legend of classes) rather than on the continuous ramp. */
export const isCategoricalMetric = (metric: HeatMetric): boolean => metric === 'TITLE_STATE';

/** Spanish names of the metrics (the select and the legend's title). */
export const HEAT_METRIC_LABEL: Record<HeatMetric, string> = {
  PRICE_PER_M2: 'Precio por m²',
  SALE_DATE: 'Fecha de venta',
  DAYS_LATE: 'Días de atraso',
  TITLE_STATE: 'Estado del título',
};

/** Fill of a lot without a value for the metric (unsold lots on the sales metrics, no price…). */
export const HEAT_NO_DATA = '#d1d5db';

/**
 * Fill of each title state on the heat map (docs/decisions.md "Heat map: title state"): Paul Tol's
 * "muted" qualitative scheme, nine colours chosen to stay distinct for the common colour-vision
 * deficiencies (not a red/green pair): the early steps light (sand, olive, cyan), the registry's
 * (indigo, rose for observado, purple for liquidado, wine for tachado), and the ends in teal and green.
 * Neither is the neutral {@link HEAT_NO_DATA} of the lots without a process. Every class has its
 * label and count in the legend.
 */
export const TITLE_STATE_COLOR: Readonly<Record<TitleState, string>> = {
  PENDIENTE: '#ddcc77',
  MINUTA_FIRMADA: '#999933',
  ESCRITURA: '#88ccee',
  PRESENTADO: '#332288',
  OBSERVADO: '#cc6677',
  LIQUIDADO: '#aa4499',
  TACHADO: '#882255',
  INSCRITO: '#44aa99',
  ENTREGADO: '#117733',
};

/** Fill of a lot on the title-state metric: its state's colour, {@link HEAT_NO_DATA} without a process. */
export function titleStateFillOf(lot: MapLotView): string {
  return lot.title_state ? TITLE_STATE_COLOR[lot.title_state] : HEAT_NO_DATA;
}

/** Lots per title state (every state listed, in the board's order) and the lots without one. */
export function countByTitleState(lots: readonly MapLotView[]): { counts: Record<TitleState, number>; none: number } {
  const counts = Object.fromEntries(TITLE_STATES.map((s) => [s, 0])) as Record<TitleState, number>;
  let none = 0;
  for (const lot of lots) {
    if (lot.title_state) counts[lot.title_state] += 1;
    else none += 1;
  }
  return { counts, none };
}

/** Sequential ramp (light yellow → dark red, 5 stops) of the heat map. */
export const HEAT_STOPS = ['#ffffb2', '#fecc5c', '#fd8d3c', '#f03b20', '#bd0026'] as const;

const hex = (h: string): [number, number, number] => [
  parseInt(h.slice(1, 3), 16),
  parseInt(h.slice(3, 5), 16),
  parseInt(h.slice(5, 7), 16),
];
const toHex = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/**
 * Colour of `t` ∈ [0, 1] on {@link HEAT_STOPS} (linear RGB interpolation between neighbouring
 * stops; t outside [0, 1] is clamped). @returns "#rrggbb".
 */
export function heatColor(t: number): string {
  const c = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (HEAT_STOPS.length - 1);
  const i = Math.min(HEAT_STOPS.length - 2, Math.floor(c));
  const f = c - i;
  const a = hex(HEAT_STOPS[i]!);
  const b = hex(HEAT_STOPS[i + 1]!);
  return `#${toHex(a[0] + (b[0] - a[0]) * f)}${toHex(a[1] + (b[1] - a[1]) * f)}${toHex(a[2] + (b[2] - a[2]) * f)}`;
}

/**
 * Value of the metric for a lot, null when it has none: céntimos per m² (PRICE_PER_M2), days
 * (DAYS_LATE), days since 1970-01-01 of the sale date (SALE_DATE; null for an unreadable date), the
 * state's position in TITLE_STATES (TITLE_STATE; null without a process).
 */
export function metricValue(lot: MapLotView, metric: HeatMetric): number | null {
  switch (metric) {
    case 'PRICE_PER_M2':
      return lot.price_per_m2;
    case 'DAYS_LATE':
      return lot.days_late ?? null;
    case 'SALE_DATE':
      return lot.sale_date ? epochDay(lot.sale_date) : null;
    case 'TITLE_STATE':
      return lot.title_state ? TITLE_STATES.indexOf(lot.title_state) : null;
  }
}

/**
 * A metric value as the legend shows it: "S/ 250.00/m²" (money of `currency` per m²), "12 días"
 * ("1 día"), the date dd/mm/yyyy (Lima calendar date), or the title state's Spanish label.
 */
export function formatMetricValue(metric: HeatMetric, value: number, currency: Currency): string {
  switch (metric) {
    case 'PRICE_PER_M2':
      return `${formatMoney(value, currency)}/m²`;
    case 'DAYS_LATE':
      return value === 1 ? '1 día' : `${value} días`;
    case 'SALE_DATE':
      return formatDate(dateOfEpochDay(value));
    case 'TITLE_STATE': {
      const state = TITLE_STATES[value];
      return state ? TITLE_STATE_LABELS[state] : '';
    }
  }
}

/** Min and max of the metric over the lots that have it, or null when none has it. */
export function metricRange(lots: readonly MapLotView[], metric: HeatMetric): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const lot of lots) {
    const v = metricValue(lot, metric);
    if (v === null) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min === Infinity ? null : { min, max };
}

/** Heat colour of a value within its range (the middle colour when min = max). */
export function heatColorFor(value: number, range: { min: number; max: number }): string {
  return heatColor(range.max === range.min ? 0.5 : (value - range.min) / (range.max - range.min));
}

/**
 * Fill of a lot on the heat map: its value's colour within `range`, {@link HEAT_NO_DATA} when it has
 * no value; on the categorical TITLE_STATE its state's colour whatever the range.
 */
export function heatFillOf(lot: MapLotView, metric: HeatMetric, range: { min: number; max: number } | null): string {
  if (metric === 'TITLE_STATE') return titleStateFillOf(lot);
  const v = metricValue(lot, metric);
  return v === null || !range ? HEAT_NO_DATA : heatColorFor(v, range);
}

// ---------------------------------------------------------------------------------------------
// Payment map (Mapa de Pagos)
// ---------------------------------------------------------------------------------------------

/**
 * Fill of each payment bucket (docs/maps.md "Mapa de Pagos"): ColorBrewer's RdYlBu, a diverging scheme
 * marked safe for colour-blind readers — blues for the settled states (Cancelado darker, Al día
 * lighter), pale yellow for "vence ≤ 7 días", then orange to dark red as the days late grow, so the
 * late buckets differ in lightness as well as hue. Every class has its label and count in the legend.
 */
export const PAYMENT_BUCKET_COLOR: Readonly<Record<PaymentBucket, string>> = {
  AL_DIA: '#91bfdb',
  VENCE_7: '#fee090',
  D1_30: '#fdae61',
  D31_60: '#f46d43',
  D61_90: '#d73027',
  MAS_90: '#a50026',
  CANCELADO: '#4575b4',
};

/** Fill of a lot on the payment map: its bucket's colour, {@link HEAT_NO_DATA} without a live sale. */
export function paymentFillOf(lot: MapLotView): string {
  return lot.payment ? PAYMENT_BUCKET_COLOR[lot.payment.bucket] : HEAT_NO_DATA;
}
