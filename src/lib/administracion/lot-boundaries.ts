/**
 * A lot's four boundaries (linderos y medidas perimétricas: frente, fondo, derecha, izquierda) as a
 * contract states them, figured from the stored polygons (docs/domain.md "Contract variables: lot
 * boundaries"; docs/maps.md "Coordinates"). Pure: the caller gives the lot's ring and its possible
 * neighbours' rings in the subdivision's coordinate system.
 *
 * The rule:
 * 1. Coordinates: PLAN rings are metres, y up (used as they are); GEO rings are [longitude,
 *    latitude] (WGS84), projected to local metres around the lot (equirectangular at the lot's
 *    mean latitude; over a lot's extent its error is far below a centimetre per metre).
 * 2. Sides: consecutive edges turning by less than {@link STRAIGHT_DEGREES} form one side (CAD
 *    drawings put extra vertices where a neighbour's corner meets the edge); while there are more
 *    than four sides, the two consecutive sides with the smallest turn between them merge. A side's
 *    length is the sum of its edges, rounded to the centimetre.
 * 3. Neighbours: a neighbour's edge borders a side when both its ends lie within
 *    {@link TOUCH_TOLERANCE_M} of the side's line and it overlaps the side along it; lots bordering
 *    at least {@link MIN_SHARED_M} of a side are named ("Lote 5 de la Mz. B"), in order along the
 *    side. A side less than half covered by lots borders the street ({@link STREET_LABEL}); a side
 *    partly covered names the lots and the street.
 * 4. Front: the sides bordering the street; when several do (a corner lot), the shortest of them —
 *    in the usual block the lots face the block's long streets with their narrow side, and a corner
 *    lot's long side runs along the cross street. Without a street side (the neighbours close the
 *    lot in, or the street is drawn as a lot), the shortest side. The back is the opposite side;
 *    right and left are as seen from the street facing the lot (standing at the front, looking in).
 *
 * A wrong guess is correctable: the stored boundaries of the lot (imported from the engineers'
 * table) win over these, and the contract's values may be edited before issue.
 */

/** A vertex: [x, y] in metres (PLAN) or [longitude, latitude] in degrees (GEO). */
export type BoundaryPoint = readonly [number, number];

/** A lot that may border the one figured: its ring and how a contract names it. */
export interface BoundaryNeighbour {
  /** The ring, not closed, in the same coordinate system as the lot. */
  polygon: readonly BoundaryPoint[];
  /** "Lote 5 de la Mz. B" (see {@link neighbourLabel}). */
  label: string;
}

/** One side: its length in metres (2 decimals) and what it borders. */
export interface BoundarySide {
  length_m: number;
  neighbour: string;
}

/** The four sides; null when the polygon has fewer than four sides. */
export interface LotBoundarySides {
  front: BoundarySide | null;
  back: BoundarySide | null;
  right: BoundarySide | null;
  left: BoundarySide | null;
}

/** What a side with no lot beside it borders. */
export const STREET_LABEL = 'Calle / vía pública';
/** Edges turning less than this (degrees) belong to one side. */
export const STRAIGHT_DEGREES = 12;
/** Distance (m) from a side's line within which a neighbour's edge lies on it (drawing slack). */
export const TOUCH_TOLERANCE_M = 0.15;
/** Shortest stretch (m) a neighbour must share with a side to be named. */
export const MIN_SHARED_M = 0.5;

/** Mean Earth radius (m), as @turf/helpers. */
const EARTH_RADIUS_M = 6_371_008.8;

/**
 * How a contract names a neighbouring lot: "Lote 5 de la Mz. B"; a lot not for sale (a park, an
 * equipment lot) by its use: "Recreación / parque (Lote 5 de la Mz. B)".
 */
export function neighbourLabel(number: string, block: string, useLabel?: string | null): string {
  const lot = `Lote ${number} de la Mz. ${block}`;
  return useLabel ? `${useLabel} (${lot})` : lot;
}

type Xy = [number, number];

/** Projects rings to local metres: identity for PLAN; equirectangular around `origin` for GEO. */
function projector(geographic: boolean, origin: BoundaryPoint): (p: BoundaryPoint) => Xy {
  if (!geographic) return (p) => [p[0], p[1]];
  const k = (Math.PI / 180) * EARTH_RADIUS_M;
  const cos = Math.cos((origin[1] * Math.PI) / 180);
  return (p) => [(p[0] - origin[0]) * k * cos, (p[1] - origin[1]) * k];
}

const sub = (a: Xy, b: Xy): Xy => [a[0] - b[0], a[1] - b[1]];
const length = (v: Xy) => Math.hypot(v[0], v[1]);
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Signed area (shoelace): > 0 counter-clockwise with y up. */
function signedArea(ring: readonly Xy[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += x1 * y2 - x2 * y1;
  }
  return sum / 2;
}

/** The ring without repeated or closing vertices. */
function cleaned(ring: readonly Xy[]): Xy[] {
  const out: Xy[] = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || length(sub(p, last)) > 1e-9) out.push(p);
  }
  while (out.length > 1 && length(sub(out[0]!, out[out.length - 1]!)) <= 1e-9) out.pop();
  return out;
}

/** A side: a run of the ring's vertices from `start` to `end` (indexes, wrapping). */
interface Side {
  points: Xy[];
}
const sideLength = (side: Side) => side.points.slice(1).reduce((sum, p, i) => sum + length(sub(p, side.points[i]!)), 0);
const sideDirection = (side: Side): Xy => sub(side.points[side.points.length - 1]!, side.points[0]!);

/** Turn in degrees (0 … 180) from direction a to direction b. */
function turn(a: Xy, b: Xy): number {
  const cos = (a[0] * b[0] + a[1] * b[1]) / (length(a) * length(b));
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}

/** Sides of a counter-clockwise ring: nearly straight runs merged, then at most four (rule 2). */
function sidesOf(ring: readonly Xy[]): Side[] {
  let sides: Side[] = ring.map((p, i) => ({ points: [p, ring[(i + 1) % ring.length]!] }));
  const merge = (i: number) => {
    const j = (i + 1) % sides.length;
    const merged = { points: [...sides[i]!.points, ...sides[j]!.points.slice(1)] };
    if (j === 0) sides = [merged, ...sides.slice(1, i)];
    else sides.splice(i, 2, merged);
  };
  for (;;) {
    if (sides.length <= 3) return sides;
    const turns = sides.map((side, i) => turn(sideDirection(side), sideDirection(sides[(i + 1) % sides.length]!)));
    let best = 0;
    for (let i = 1; i < turns.length; i++) if (turns[i]! < turns[best]!) best = i;
    if (turns[best]! >= STRAIGHT_DEGREES && sides.length <= 4) return sides;
    merge(best);
  }
}

/** The stretches [from, to] (m along the side's chord) a neighbour ring shares with a side. */
function sharedStretches(side: Side, neighbour: readonly Xy[]): [number, number][] {
  const origin = side.points[0]!;
  const chord = sideDirection(side);
  const total = length(chord);
  if (total === 0) return [];
  const unit: Xy = [chord[0] / total, chord[1] / total];
  const along = (p: Xy) => (p[0] - origin[0]) * unit[0] + (p[1] - origin[1]) * unit[1];
  const across = (p: Xy) => Math.abs((p[0] - origin[0]) * unit[1] - (p[1] - origin[1]) * unit[0]);
  const out: [number, number][] = [];
  for (let i = 0; i < neighbour.length; i++) {
    const a = neighbour[i]!;
    const b = neighbour[(i + 1) % neighbour.length]!;
    if (across(a) > TOUCH_TOLERANCE_M || across(b) > TOUCH_TOLERANCE_M) continue;
    const from = Math.max(0, Math.min(along(a), along(b)));
    const to = Math.min(total, Math.max(along(a), along(b)));
    if (to - from > 1e-6) out.push([from, to]);
  }
  return out;
}

/** Total length covered by stretches (their union). */
function covered(stretches: [number, number][]): number {
  const sorted = [...stretches].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of sorted) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

/**
 * The four boundaries of a lot (rule in this module's header).
 * @param polygon the lot's ring (≥ 3 vertices, not closed), PLAN metres or GEO [lon, lat].
 * @param neighbours the other lots that may border it (the subdivision's others, without the lot
 *   itself; rings far from the lot are skipped by their vertices' box).
 * @param geographic true for GEO rings.
 * @returns null when the ring has fewer than 3 distinct vertices; a side null when the lot has
 *   fewer than four sides (a triangle has no "izquierda").
 */
export function lotBoundaries(
  polygon: readonly BoundaryPoint[],
  neighbours: readonly BoundaryNeighbour[],
  geographic: boolean,
): LotBoundarySides | null {
  if (polygon.length < 3) return null;
  const origin: BoundaryPoint = [
    polygon.reduce((s, p) => s + p[0], 0) / polygon.length,
    polygon.reduce((s, p) => s + p[1], 0) / polygon.length,
  ];
  const project = projector(geographic, origin);
  let ring = cleaned(polygon.map(project));
  if (ring.length < 3) return null;
  if (signedArea(ring) < 0) ring = [...ring].reverse();
  const sides = sidesOf(ring);

  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const slack = TOUCH_TOLERANCE_M * 2;
  const near = neighbours
    .map((n) => ({ label: n.label, ring: n.polygon.map(project) }))
    .filter(
      ({ ring: r }) =>
        r.length >= 3 && r.some((p) => p[0] >= minX - slack && p[0] <= maxX + slack && p[1] >= minY - slack && p[1] <= maxY + slack),
    );

  const described = sides.map((side) => {
    const total = sideLength(side);
    const chord = length(sideDirection(side));
    const lots: { label: string; first: number }[] = [];
    const all: [number, number][] = [];
    for (const n of near) {
      const stretches = sharedStretches(side, n.ring);
      const shared = covered(stretches);
      if (shared >= MIN_SHARED_M) {
        lots.push({ label: n.label, first: Math.min(...stretches.map((s) => s[0])) });
        all.push(...stretches);
      }
    }
    const coverage = chord > 0 ? covered(all) / chord : 0;
    const street = coverage < 0.5;
    const uncovered = chord - covered(all);
    const names = lots.sort((a, b) => a.first - b.first).map((l) => l.label);
    if (names.length > 0 && uncovered >= Math.max(MIN_SHARED_M, 0.1 * chord)) names.push(STREET_LABEL);
    return { length: total, street, neighbour: names.length > 0 ? names.join(' y ') : STREET_LABEL };
  });

  if (described.length < 4) {
    // A triangle: front, and the two others as right and left.
    const order = described.map((_, i) => i);
    const front = pickFront(described, order);
    const side = (i: number): BoundarySide => ({ length_m: round2(described[i]!.length), neighbour: described[i]!.neighbour });
    return {
      front: side(front),
      back: null,
      right: side((front + 1) % described.length),
      left: side((front + 2) % described.length),
    };
  }
  const front = pickFront(described, [0, 1, 2, 3]);
  const side = (i: number): BoundarySide => ({ length_m: round2(described[i % 4]!.length), neighbour: described[i % 4]!.neighbour });
  // Counter-clockwise with y up: walking the front side forward the lot lies to the left, so the
  // next side is on the right of someone standing on the street facing the lot.
  return { front: side(front), right: side(front + 1), back: side(front + 2), left: side(front + 3) };
}

/** Rule 4: the shortest street side, or the shortest side when none borders the street. */
function pickFront(sides: readonly { length: number; street: boolean }[], order: readonly number[]): number {
  const streets = order.filter((i) => sides[i]!.street);
  const pool = streets.length > 0 ? streets : order;
  return pool.reduce((best, i) => (sides[i]!.length < sides[best]!.length - 1e-9 ? i : best), pool[0]!);
}
