import turfArea from '@turf/area';
import Flatbush from 'flatbush';
import * as polyclip from 'polyclip-ts';
import { OVERLAP_LIMIT_DEFAULT_M2 } from '../../../../src/schemas/proyectos/projects';

/**
 * Plane and geographic geometry of lot polygons for the importer (docs/import.md "Comprobaciones").
 * A ring is an array of `[x, y]` vertices, not closed (first ≠ last). PLAN rings are in metres
 * (y up); GEO rings are `[longitude, latitude]` in degrees (WGS84).
 */

/** A vertex `[x, y]`. */
export type Point = [number, number];
/** A polygon's outer ring, not closed. */
export type Ring = Point[];

/** Mean earth radius used for geographic lengths (metres, the one @turf/length uses). */
const EARTH_RADIUS_M = 6371008.8;

/** Rounds to 2 decimals (m², metres). */
export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** True when every vertex could be longitude/latitude (|x| ≤ 180, |y| ≤ 90). */
export function isGeographic(rings: readonly Ring[]): boolean {
  let any = false;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      any = true;
      if (Math.abs(x) > 180 || Math.abs(y) > 90) return false;
    }
  }
  return any;
}

/** Drops a repeated closing vertex (and consecutive duplicates within `tolerance`). */
export function openRing(points: readonly Point[], tolerance = 1e-9): Ring {
  const ring: Ring = [];
  for (const p of points) {
    const last = ring[ring.length - 1];
    if (!last || Math.abs(last[0] - p[0]) > tolerance || Math.abs(last[1] - p[1]) > tolerance) ring.push([p[0], p[1]]);
  }
  if (ring.length > 1) {
    const [first, last] = [ring[0]!, ring[ring.length - 1]!];
    if (Math.abs(first[0] - last[0]) <= tolerance && Math.abs(first[1] - last[1]) <= tolerance) ring.pop();
  }
  return ring;
}

/** Shoelace area of a plan ring, in square units (m² for metres). */
export function planArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum) / 2;
}

/** Area of a lon/lat ring in m² (@turf/area, spherical). */
export function geoArea(ring: Ring): number {
  return turfArea({ type: 'Polygon', coordinates: [[...ring, ring[0]!]] });
}

/** Euclidean perimeter of a plan ring (units of the plan). */
export function planPerimeter(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += Math.hypot(x2 - x1, y2 - y1);
  }
  return sum;
}

/** Haversine distance between two lon/lat points, in metres. */
export function geoDistance([lon1, lat1]: Point, [lon2, lat2]: Point): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Haversine perimeter of a lon/lat ring, in metres. */
export function geoPerimeter(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) sum += geoDistance(ring[i]!, ring[(i + 1) % ring.length]!);
  return sum;
}

/** Area (m²) and perimeter (m) of a ring in its coordinate system. */
export function measureRing(ring: Ring, geographic: boolean): { area: number; perimeter: number } {
  return geographic ? { area: geoArea(ring), perimeter: geoPerimeter(ring) } : { area: planArea(ring), perimeter: planPerimeter(ring) };
}

/** Bounding box `[minX, minY, maxX, maxY]`. */
export function bbox(ring: Ring): [number, number, number, number] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const [x, y] of ring) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

/** Vertex average (good enough as a "near" point and as an interior point of convex lots). */
export function centroid(ring: Ring): Point {
  let x = 0,
    y = 0;
  for (const p of ring) {
    x += p[0];
    y += p[1];
  }
  return [x / ring.length, y / ring.length];
}

/** Ray-casting point-in-polygon (points on the boundary may go either way). */
export function pointInRing([px, py]: Point, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Signed shoelace area (positive when counter-clockwise). */
function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += x1 * y2 - x2 * y1;
  }
  return sum / 2;
}

/** True when the ring is convex (collinear vertices allowed). */
export function isConvex(ring: Ring): boolean {
  let sign = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[(i + 1) % ring.length]!;
    const [cx, cy] = ring[(i + 2) % ring.length]!;
    const cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    if (Math.abs(cross) < 1e-12) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** Sutherland–Hodgman: `subject` clipped by the convex `clip`. */
function clipByConvex(subject: Ring, clip: Ring): Ring {
  const ccw = signedArea(clip) >= 0 ? clip : [...clip].reverse();
  let output: Ring = subject;
  for (let i = 0; i < ccw.length && output.length > 0; i++) {
    const a = ccw[i]!,
      b = ccw[(i + 1) % ccw.length]!;
    const inside = (p: Point) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0;
    const cut = (p: Point, q: Point): Point => {
      const d1 = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
      const d2 = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
      const t = d1 / (d1 - d2);
      return [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
    };
    const input = output;
    output = [];
    for (let j = 0; j < input.length; j++) {
      const p = input[j]!,
        q = input[(j + 1) % input.length]!;
      if (inside(q)) {
        if (!inside(p)) output.push(cut(p, q));
        output.push(q);
      } else if (inside(p)) output.push(cut(p, q));
    }
  }
  return output;
}

/** Default shared area above which two lots overlap: an ERROR (m²; docs/import.md "Checks"); each subdivision may set its own. */
export const OVERLAP_ERROR_M2 = OVERLAP_LIMIT_DEFAULT_M2;
/** Shared area from which a smaller overlap is reported as a WARNING with its area (m²); below it, drawing noise. */
export const OVERLAP_WARNING_M2 = 0.001;

/** Area in m² of a ring in the file's units: plan metres or lon/lat degrees. */
function ringAreaM2(ring: Ring, geographic: boolean): number {
  if (ring.length < 3) return 0;
  return geographic ? geoArea(ring) : planArea(ring);
}

/**
 * The area two lots share, in m² (issue 13 item 2: an overlap is a shared area, not a vertex on
 * the wrong side). When either ring is convex (nearly every lot once cleaned) the other is
 * clipped by it (Sutherland–Hodgman, exact and fast); otherwise polyclip-ts (the clipping library
 * of Turf 7's `intersect`) computes the intersection of the two polygons. Touching edges, T-junction
 * vertices and zero-area spikes share 0 m².
 * @param geographic rings in lon/lat degrees (areas on the sphere, @turf/area) rather than metres
 */
export function overlapArea(a: Ring, b: Ring, geographic: boolean): number {
  if (a.length < 3 || b.length < 3) return 0;
  if (isConvex(b)) return ringAreaM2(clipByConvex(a, b), geographic);
  if (isConvex(a)) return ringAreaM2(clipByConvex(b, a), geographic);
  const close = (ring: Ring): Point[] => [...ring, ring[0]!];
  let shared = 0;
  for (const polygon of polyclip.intersection([close(a)], [close(b)])) {
    polygon.forEach((ring, k) => {
      const area = ringAreaM2(openRing(ring as Point[]), geographic);
      shared += k === 0 ? area : -area; // outer ring, then holes
    });
  }
  return Math.max(0, shared);
}

/** Two rings sharing `area_m2` (i < j). */
export interface OverlapPair {
  i: number;
  j: number;
  area_m2: number;
}

/**
 * Pairs of rings sharing at least {@link OVERLAP_WARNING_M2}: a flatbush index of bounding boxes
 * shrunk by `tolerance` (a length in the rings' units, so neighbours that only share an edge are
 * skipped cheaply) finds candidates, O(n log n) for lots of similar size, then {@link overlapArea}.
 * Stops once `limit` pairs of at least `errorArea` m² are found (issue 11 item 1: N identical
 * squares have N²/2 overlapping pairs, so the work must be bounded), in the order of the rings.
 */
export function overlappingPairs(
  rings: readonly Ring[],
  {
    tolerance,
    geographic,
    errorArea = OVERLAP_ERROR_M2,
    limit = Infinity,
  }: { tolerance: number; geographic: boolean; errorArea?: number; limit?: number },
): OverlapPair[] {
  if (rings.length < 2 || limit <= 0) return [];
  const index = new Flatbush(rings.length);
  const boxes = rings.map(bbox);
  for (const [minX, minY, maxX, maxY] of boxes) index.add(minX, minY, maxX, maxY);
  index.finish();
  const pairs: OverlapPair[] = [];
  let errors = 0;
  for (let i = 0; i < boxes.length; i++) {
    const [minX, minY, maxX, maxY] = boxes[i]!;
    const found = index.search(minX + tolerance, minY + tolerance, maxX - tolerance, maxY - tolerance).sort((p, q) => p - q);
    for (const j of found) {
      if (j <= i) continue;
      const area = overlapArea(rings[i]!, rings[j]!, geographic);
      if (area < OVERLAP_WARNING_M2) continue;
      pairs.push({ i, j, area_m2: area });
      if (area > errorArea && ++errors >= limit) return pairs;
    }
  }
  return pairs;
}

/** What {@link cleanRing} removed from one ring. */
export interface RingCleaning {
  ring: Ring;
  /** Vertices repeated within the tolerance (zero-length edges). */
  repeated: number;
  /** Length of each back-tracking spike removed, measured by the `distance` given (metres). */
  spikes: number[];
}

/**
 * Cleans a lot's ring before the checks (issue 13 item 1; docs/import.md "Limpieza"): drops
 * repeated vertices (zero-length edges) and collinear back-tracking spikes — a vertex B whose
 * neighbours A and C lie on one line with it and where the path A → B → C turns back (CAD exports
 * draw a lot that "leaves a vertex, goes 0.1–0.7 m into the neighbour and comes back along the same
 * line"), which enclose no area. Repeats until nothing changes. Collinear vertices that go on in
 * the same direction (T-junctions with a neighbour) are kept: they are part of the drawing.
 * @turf/clean-coords removes repeated and forward-collinear points but not spikes (the tip is not
 * between its neighbours), so this step is our own.
 * @param tolerance greatest distance (ring units) of C from the line A–B, and length of a zero-length edge
 * @param distance how a spike's length is reported: plane distance by default, {@link geoDistance}
 *   (metres) for lon/lat rings
 */
export function cleanRing(
  input: Ring,
  tolerance: number,
  distance: (a: Point, b: Point) => number = (a, b) => Math.hypot(b[0] - a[0], b[1] - a[1]),
): RingCleaning {
  let ring = input.map(([x, y]) => [x, y] as Point);
  let repeated = 0;
  const spikes: number[] = [];
  let changed = true;
  while (changed && ring.length >= 3) {
    changed = false;
    for (let k = 0; k < ring.length && ring.length >= 3; k++) {
      const b = ring[k]!,
        c = ring[(k + 1) % ring.length]!;
      if (Math.hypot(c[0] - b[0], c[1] - b[1]) <= tolerance) {
        ring.splice((k + 1) % ring.length, 1);
        repeated += 1;
        changed = true;
        k -= 1;
      }
    }
    for (let k = 0; k < ring.length && ring.length >= 3; k++) {
      const a = ring[(k - 1 + ring.length) % ring.length]!,
        b = ring[k]!,
        c = ring[(k + 1) % ring.length]!;
      const ab = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const bc = Math.hypot(c[0] - b[0], c[1] - b[1]);
      if (ab === 0 || bc === 0) continue;
      const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
      const dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]);
      // C within `tolerance` of the line A–B, and the path turns back at B.
      if (Math.abs(cross) / ab <= tolerance && dot < 0) {
        spikes.push(ab <= bc ? distance(a, b) : distance(b, c));
        ring = ring.filter((_, m) => m !== k);
        changed = true;
        k -= 1;
      }
    }
  }
  return { ring, repeated, spikes };
}

/**
 * For each point, the index of the first ring containing it (or -1), through a flatbush index of
 * the rings' bounding boxes.
 */
export function locatePoints(points: readonly Point[], rings: readonly Ring[]): number[] {
  if (rings.length === 0) return points.map(() => -1);
  const index = new Flatbush(rings.length);
  for (const ring of rings) {
    const [minX, minY, maxX, maxY] = bbox(ring);
    index.add(minX, minY, maxX, maxY);
  }
  index.finish();
  return points.map(([x, y]) => {
    const found = index.search(x, y, x, y).sort((p, q) => p - q);
    return found.find((i) => pointInRing([x, y], rings[i]!)) ?? -1;
  });
}
